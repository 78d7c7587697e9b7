/**
 * Key rotation: re-encrypts every value the platform key protects (module secrets, TOTP secrets,
 * client-release tokens) under the current key. The operator sets APP_KEY to the new key and
 * APP_KEY_PREVIOUS to the old one on every node, restarts, and runs POST /admin/secrets/rotate
 * until it reports nothing left; APP_KEY_PREVIOUS can then go.
 *
 * Batches of BATCH rows, each in its own transaction with the rows locked: a rotation that stops
 * midway leaves each value either fully re-encrypted or untouched, still readable under the ring,
 * and the next run picks up what is left (rows whose value's key id is not the current one). A
 * value no key of the ring decrypts is left as it is and reported (by row, never by value).
 */
import { QueryTypes } from 'sequelize';
import type { AppKeys } from './app-key';
import type { CentralDb } from '../data/central-db';
import type { Logger } from '../logger';
import { SECRET_PURPOSE, secretAad } from './module-secrets';

type Row = Record<string, string>;

/** A column of encrypted values: its table, the columns that identify a row, its purpose (and AAD). */
interface EncryptedColumn {
  table: string;
  keys: string[];
  column: string;
  purpose: string;
  aad?: (row: Row) => string;
  /** A column that records the key id beside the value, kept in step. */
  keyIdColumn?: string;
}

const COLUMNS: EncryptedColumn[] = [
  {
    table: 'module_secrets', keys: ['tenant_id', 'module', 'name'], column: 'ciphertext', purpose: SECRET_PURPOSE,
    aad: (r) => secretAad(r.tenant_id, r.module, r.name), keyIdColumn: 'key_id',
  },
  { table: 'user_two_factor', keys: ['user_id'], column: 'secret_encrypted', purpose: 'totp-secret' },
  { table: 'cli_release_channels', keys: ['tenant_id'], column: 'token_encrypted', purpose: 'cli-releases.repo-token' },
];

export interface RotationOptions {
  /** Rows per transaction (default 100). */
  batchSize?: number;
  /** Stop after this many batches (a bounded run per request; the next run carries on). */
  maxBatches?: number;
}

export interface RotationReport {
  key_id: string;
  /** False when maxBatches stopped it first: run it again. */
  done: boolean;
  rotated: Record<string, number>;
  /** Rows whose value no key of the ring decrypts: left untouched. */
  unreadable: Array<{ table: string; row: Row }>;
}

export async function rotateSecrets(d: { central: CentralDb; keys: AppKeys; logger: Logger }, opts: RotationOptions = {}): Promise<RotationReport> {
  const report: RotationReport = { key_id: d.keys.keyId, done: false, rotated: {}, unreadable: [] };
  let batches = 0;
  for (const col of COLUMNS) {
    report.rotated[col.table] = 0;
    // Rows are visited in key order from a cursor, so unreadable rows (left as they are) are passed once.
    let after: Row | undefined;
    for (;;) {
      if (opts.maxBatches !== undefined && batches >= opts.maxBatches) return report;
      const batch = await rotateBatch(d, col, opts.batchSize ?? 100, after, report);
      batches++;
      if (!batch.last) break;
      after = batch.last;
      d.logger.info({ table: col.table, rotated: report.rotated[col.table] }, 'secret rotation: batch done');
    }
  }
  report.done = true;
  if (!report.unreadable.length) {
    // Nothing is under an earlier version's database-kept key any more: only the current fingerprint stays.
    await d.central.models.PlatformSetting.upsert({ key: 'app_key', value: { key_id: d.keys.keyId } });
  }
  return report;
}

async function rotateBatch(d: { central: CentralDb; keys: AppKeys }, col: EncryptedColumn, size: number, after: Row | undefined, report: RotationReport) {
  const { sequelize } = d.central;
  const keyList = col.keys.join(', ');
  const bind: unknown[] = [d.keys.keyId, size];
  let cursor = '';
  if (after) {
    cursor = `AND (${keyList}) > (${col.keys.map((_k, i) => `$${i + 3}`).join(', ')})`;
    bind.push(...col.keys.map((k) => after[k]));
  }
  return sequelize.transaction(async (transaction) => {
    const rows = await sequelize.query<Row>(
      `SELECT ${keyList}, ${col.column} AS value FROM ${col.table}
        WHERE ${col.column} IS NOT NULL AND split_part(${col.column}, '.', 1) <> $1 ${cursor}
        ORDER BY ${keyList} LIMIT $2 FOR UPDATE`,
      { bind, type: QueryTypes.SELECT, transaction },
    );
    for (const row of rows) {
      const identity = Object.fromEntries(col.keys.map((k) => [k, String(row[k])]));
      let plaintext: string;
      try {
        plaintext = await d.keys.decrypt(col.purpose, row.value, col.aad?.(identity));
      } catch {
        report.unreadable.push({ table: col.table, row: identity });
        continue;
      }
      const value = await d.keys.encrypt(col.purpose, plaintext, col.aad?.(identity));
      const sets = [`${col.column} = $1`, ...(col.keyIdColumn ? [`${col.keyIdColumn} = $${col.keys.length + 2}`] : [])];
      await sequelize.query(`UPDATE ${col.table} SET ${sets.join(', ')} WHERE ${col.keys.map((k, i) => `${k} = $${i + 2}`).join(' AND ')}`, {
        bind: [value, ...col.keys.map((k) => row[k]), ...(col.keyIdColumn ? [d.keys.keyId] : [])],
        transaction,
      });
      report.rotated[col.table]++;
    }
    return { last: rows.length ? Object.fromEntries(col.keys.map((k) => [k, rows[rows.length - 1][k]])) : undefined };
  });
}
