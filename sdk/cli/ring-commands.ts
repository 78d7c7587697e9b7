/**
 * `mandi ring list | show | promote | rollback | assign`: look at rings and their releases, promote a
 * module version into a ring, roll a ring back to its previous release, move a tenant to a ring.
 * Changes run as jobs on the platform and are followed with a progress bar.
 */
import type { Command } from 'commander';
import { followOperation, type Operation } from './follow-operation';
import { detail, step } from './output';
import { clientFor, parseModuleRef, platformAction, withConnection, type ConnectionFlags } from './platform-command';

interface Release {
  number: number;
  modules: Record<string, string>;
  kind: string;
  changes: Array<{ alias: string; from: string | null; to: string | null }>;
  created_at: string;
  created_by: string | null;
}
interface Ring {
  name: string;
  position: number;
  description: string | null;
  tenants: number;
  release: Release;
}

const modulesText = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([a, v]) => `${a}@${v}`)
    .join(', ') || '(empty)';
const changeText = (c: Release['changes'][number]) => `${c.alias} ${c.from ?? '–'} → ${c.to ?? '–'}`;

export function registerRingCommands(program: Command): void {
  const ring = program.command('ring').description('rings, their releases and promotion between them');

  withConnection(ring.command('list').description('every ring in promotion order with its current release')).action(
    platformAction(async (flags: ConnectionFlags) => {
      const { rings } = await clientFor(flags).request<{ rings: Ring[] }>('GET', '/rings');
      for (const r of rings) {
        process.stdout.write(`${r.name.padEnd(12)} position ${String(r.position).padEnd(4)} tenants ${String(r.tenants).padEnd(5)} release ${String(r.release.number).padEnd(4)} ${modulesText(r.release.modules)}\n`);
      }
    }),
  );

  withConnection(ring.command('show <ring>').description('a ring\'s current release and its history')).action(
    platformAction(async (name: string, flags: ConnectionFlags) => {
      const { ring: r, history } = await clientFor(flags).request<{ ring: Ring; history: Release[] }>('GET', `/rings/${encodeURIComponent(name)}`);
      process.stdout.write(`${r.name} (position ${r.position}, ${r.tenants} tenant(s))${r.description ? `: ${r.description}` : ''}\n`);
      process.stdout.write(`release ${r.release.number}: ${modulesText(r.release.modules)}\n`);
      process.stdout.write('history:\n');
      for (const h of history) {
        process.stdout.write(`  ${String(h.number).padStart(4)}  ${h.created_at}  ${h.kind.padEnd(8)} ${h.changes.map(changeText).join('; ') || '–'}${h.created_by ? `  by ${h.created_by}` : ''}\n`);
      }
    }),
  );

  withConnection(
    ring
      .command('promote <module@version>')
      .description('promote a module version into a ring (from another ring, or from the registry)')
      .requiredOption('--to <ring>', 'ring to promote into')
      .option('--from <ring>', 'ring that releases this version now'),
  ).action(
    platformAction(async (ref: string, flags: ConnectionFlags & { to: string; from?: string }) => {
      const { alias, version } = parseModuleRef(ref, true);
      const client = clientFor(flags);
      const { operation } = await client.request<{ operation: Operation }>('POST', `/rings/${encodeURIComponent(flags.to)}/promote`, {
        json: { module: alias, version, ...(flags.from ? { from: flags.from } : {}) },
      });
      const op = await followOperation(client, operation, `promote ${alias}@${version} → ${flags.to}`);
      const r = op.result ?? {};
      step(`ring ${flags.to} releases ${alias}@${version} (release ${String(r.release)}; was ${r.from ? String(r.from) : 'absent'}); ${String(r.tenants_moved)} tenant(s) migrated`);
      detail(`operation ${op.id}`);
    }),
  );

  withConnection(ring.command('rollback <ring>').description('return a ring to its previous release (tenants migrated back)')).action(
    platformAction(async (name: string, flags: ConnectionFlags) => {
      const client = clientFor(flags);
      const { operation } = await client.request<{ operation: Operation }>('POST', `/rings/${encodeURIComponent(name)}/rollback`, { json: {} });
      const op = await followOperation(client, operation, `rollback ${name}`);
      const r = op.result ?? {};
      const changes = (r.changes as Release['changes'] | undefined) ?? [];
      step(`ring ${name} is back at release ${String(r.returned_to)} (${changes.map(changeText).join('; ')}); ${String(r.tenants_moved)} tenant(s) migrated`);
      detail(`operation ${op.id}`);
    }),
  );

  withConnection(ring.command('assign <tenant> <ring>').description('move a tenant into a ring; its modules move to that ring\'s versions')).action(
    platformAction(async (tenant: string, name: string, flags: ConnectionFlags) => {
      const client = clientFor(flags);
      const { operation } = await client.request<{ operation: Operation }>('POST', `/rings/${encodeURIComponent(name)}/tenants`, { json: { tenant } });
      const op = await followOperation(client, operation, `assign ${tenant} → ${name}`);
      const r = op.result ?? {};
      step(`tenant ${tenant} moved from ring ${String(r.from_ring)} to ${name}; ${String(r.modules_moved)} module(s) migrated`);
      detail(`operation ${op.id}`);
    }),
  );
}
