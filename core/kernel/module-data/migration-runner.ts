/**
 * Runs a module's SQL migrations in a tenant database, inside the caller's transaction.
 *
 * The SQL runs through a plpgsql function owned by the module role and declared SECURITY
 * DEFINER, with search_path set to the module's schema: PostgreSQL refuses SET ROLE, RESET ROLE,
 * set_config('role') and SET SESSION AUTHORIZATION inside such a function, so migration SQL cannot
 * leave the module role, and EXECUTE refuses transaction control, so it cannot commit half an
 * install. Without roles the same function runs as the host user (host checks only).
 *
 * Settings a migration SETs (plain SET outlives the function; only search_path is pinned by it)
 * are undone right after it, so neither the next migration, nor the host's own statements, nor
 * the audit run under them.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { dataErrors } from './db-errors';
import type { Migration } from '../../../sdk/manifest/manifest.types';
import { resetSettings, type AdminClient } from './admin-connection';
import { ident, MIGRATIONS_TABLE, qualified } from './names';

const RUNNER = '_mandi_run_migration';

export interface AppliedMigration {
  id: string;
  position: number;
  checksum: string;
}

export type Direction = 'up' | 'down';

export const checksumOf = (sql: string) => createHash('sha256').update(sql).digest('hex');

export async function appliedMigrations(client: AdminClient, schema: string): Promise<AppliedMigration[]> {
  const { rows } = await client.query<AppliedMigration>(`SELECT id, position, checksum FROM ${qualified(schema, MIGRATIONS_TABLE)} ORDER BY position, ran_at`);
  return rows;
}

/** Declared migrations not yet applied, in order; refuses histories the declaration contradicts. */
export function pendingMigrations(alias: string, declared: Migration[], applied: AppliedMigration[]): Migration[] {
  const position = new Map<string, number>();
  declared.forEach((m, i) => {
    if (position.has(m.id)) throw dataErrors.migrationTwice(alias, m.id);
    position.set(m.id, i);
  });
  let last = -1;
  for (const a of applied) {
    const at = position.get(a.id);
    if (at === undefined) {
      throw dataErrors.migrationUnknown(alias, a.id);
    }
    last = Math.max(last, at);
  }
  const done = new Set(applied.map((a) => a.id));
  const pending = declared.filter((m) => !done.has(m.id));
  const early = pending.find((m) => position.get(m.id)! < last);
  if (early) {
    throw dataErrors.migrationOrder(alias, early.id, declared[last].id);
  }
  return pending;
}

/** Reads a migration file, which must lie under migrations/ in the package. */
export async function readMigrationSql(alias: string, read: (p: string) => Promise<string>, file: string): Promise<string> {
  const norm = path.posix.normalize(file);
  if (!norm.startsWith('migrations/') || norm.includes('..')) {
    throw dataErrors.migrationOutsideFolder(alias, file);
  }
  try {
    return await read(norm);
  } catch (err) {
    throw dataErrors.migrationUnreadable(alias, file, (err as Error).message);
  }
}

/** Creates the runner function for this transaction (dropped again by `dropRunner`). */
export async function createRunner(client: AdminClient, schema: string, role: string | null): Promise<void> {
  const fn = qualified(schema, RUNNER);
  await client.query(
    `CREATE OR REPLACE FUNCTION ${fn}(sql text) RETURNS void LANGUAGE plpgsql
     ${role ? 'SECURITY DEFINER' : ''} SET search_path TO ${ident(schema)}
     AS $mandi$ BEGIN EXECUTE sql; END $mandi$`,
  );
  await client.query(`REVOKE ALL ON FUNCTION ${fn}(text) FROM PUBLIC`);
  if (role) await client.query(`ALTER FUNCTION ${fn}(text) OWNER TO ${ident(role)}`);
}

export async function dropRunner(client: AdminClient, schema: string): Promise<void> {
  await client.query(`DROP FUNCTION IF EXISTS ${qualified(schema, RUNNER)}(text)`);
}

/**
 * Runs one migration's SQL through the runner, restores the host's `settings`, and records (up)
 * or forgets (down) it.
 */
export async function runMigration(
  client: AdminClient,
  schema: string,
  m: { id: string; position: number },
  direction: Direction,
  sql: string,
  checksum: string,
  settings: Record<string, string>,
): Promise<void> {
  if (sql.trim()) {
    try {
      await client.query(`SELECT ${qualified(schema, RUNNER)}($1)`, [sql]);
    } catch (err) {
      const e = err as { message?: string; code?: string };
      throw dataErrors.migrationFailed(schema, m.id, direction, e.message, e.code);
    }
    await resetSettings(client, settings);
  }
  const table = qualified(schema, MIGRATIONS_TABLE);
  if (direction === 'up') await client.query(`INSERT INTO ${table} (id, position, checksum) VALUES ($1, $2, $3)`, [m.id, m.position, checksum]);
  else await client.query(`DELETE FROM ${table} WHERE id = $1`, [m.id]);
}
