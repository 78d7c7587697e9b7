/**
 * `mandi secrets rotate`: re-encrypts everything the platform key protects under the current
 * APP_KEY (docs/reference/platform-key.md), as a super admin. It calls POST
 * /admin/secrets/rotate a few batches at a time, so each request stays short and the progress shows;
 * stopped midway (Ctrl-C, a lost connection), it loses nothing and a new run carries on.
 */
import type { Command } from 'commander';
import { CliError } from './api-client';
import { detail, step } from './output';
import { clientFor, platformAction, withConnection, type ConnectionFlags } from './platform-command';

interface RotationReport {
  key_id: string;
  done: boolean;
  rotated: Record<string, number>;
  unreadable: Array<{ table: string; row: Record<string, string> }>;
}

/** Batches per request: a few seconds of work each. */
const BATCHES_PER_CALL = 10;

export function registerSecretsCommands(program: Command): void {
  const secrets = program.command('secrets').description('the platform key: re-encrypt stored secrets after changing APP_KEY');
  withConnection(
    secrets
      .command('rotate')
      .description('re-encrypt module secrets, 2FA secrets and release tokens under the current APP_KEY (old key in APP_KEY_PREVIOUS)')
      .option('--batch-size <n>', 'values per transaction (1-1000)', '100'),
  ).action(
    platformAction(async (flags: ConnectionFlags & { batchSize: string }) => {
      const client = clientFor(flags);
      const totals: Record<string, number> = {};
      const unreadable: RotationReport['unreadable'] = [];
      let report: RotationReport;
      do {
        report = await client.request<RotationReport>('POST', `/admin/secrets/rotate?batch_size=${encodeURIComponent(flags.batchSize)}&max_batches=${BATCHES_PER_CALL}`, { json: {} });
        for (const [table, n] of Object.entries(report.rotated)) totals[table] = (totals[table] ?? 0) + n;
        for (const u of report.unreadable) if (!unreadable.some((x) => x.table === u.table && JSON.stringify(x.row) === JSON.stringify(u.row))) unreadable.push(u);
        detail(`re-encrypted so far: ${Object.entries(totals).map(([t, n]) => `${t} ${n}`).join(', ')}`);
        // Each request starts from the first value not under the current key: one that moved none is stuck on unreadable values.
        if (!report.done && !Object.values(report.rotated).some((n) => n > 0)) break;
      } while (!report.done);
      if (report.done) step(`every readable value is under key ${report.key_id}: ${Object.entries(totals).map(([t, n]) => `${t} ${n}`).join(', ')}`);
      if (unreadable.length || !report.done) {
        throw new CliError(`${unreadable.length} value(s) no key of the ring decrypts were left as they are`, 1, unreadable.map((u) => `${u.table} ${JSON.stringify(u.row)}`));
      }
      detail('APP_KEY_PREVIOUS can now be removed from every node.');
    }),
  );
}
