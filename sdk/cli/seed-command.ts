/** `mandi platform seed`: publish and promote every first-party module in one step (seed.ts). */
import path from 'node:path';
import type { Command } from 'commander';
import { invokedFrom } from './invoked-from';
import { detail, step } from './output';
import { clientFor, platformAction, withConnection, type ConnectionFlags } from './platform-command';
import { FIRST_PARTY_MODULES, moduleFolders, seedModules } from './seed';

export function registerSeedCommand(program: Command): void {
  const platform = program.command('platform').description('set up a platform');
  withConnection(
    platform
      .command('seed')
      .description('publish every first-party module to the registry and promote it into every ring (safe to run again)')
      .option('--modules <dir>', 'folder of module folders (default: the first-party modules/)'),
  ).action(
    platformAction(async (flags: ConnectionFlags & { modules?: string }) => {
      const client = clientFor(flags);
      const folders = moduleFolders(flags.modules ? path.resolve(invokedFrom(), flags.modules) : FIRST_PARTY_MODULES);
      const seeded = await seedModules(client, folders, detail);
      for (const m of seeded) step(`${m.alias}@${m.version}: ${m.published ? 'published' : 'already published'}; ${m.promoted.length ? `promoted into ${m.promoted.join(', ')}` : 'every ring releases it already'}`);
    }),
  );
}
