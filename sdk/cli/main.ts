#!/usr/bin/env node
/**
 * The `mandi` command line: `mandi module <init|build|pack|dev|publish|install|upgrade|rollback|uninstall|types>`
 * `mandi ring <list|show|promote|rollback|assign>` and `mandi platform seed`. The platform commands read MANDI_URL and
 * MANDI_TOKEN (or --url, --token). Exit codes: 0 done, 1 refused or failed, 2 bad usage, 3 token
 * refused, 4 platform unreachable or failing. `mandi upgrade` replaces the CLI itself (spec 1, Client
 * releases; its exit codes are the spec's: 5 network, 6 server, checksum or missing asset, 1 file system).
 */
import { Command, CommanderError } from 'commander';
import { EXIT } from './api-client';
import { registerDevCommand } from './dev-command';
import { registerLifecycleCommands } from './lifecycle-commands';
import { registerModuleCommands } from './module-commands';
import { registerRingCommands } from './ring-commands';
import { registerSecretsCommands } from './secrets-commands';
import { registerSeedCommand } from './seed-command';
import { registerTypesCommand } from './types-command';
import { CLI_VERSION, registerUpgrade } from './upgrade';

const program = new Command('mandi').description('Mandi developer tools').version(CLI_VERSION);
// Commander's own usage errors (a missing argument or option, an unknown one) are bad usage (2), like
// the commands' checks; set before the subcommands are added, which inherit it.
program.exitOverride();
const moduleCommand = registerModuleCommands(program);
registerDevCommand(moduleCommand);
registerLifecycleCommands(moduleCommand);
registerTypesCommand(moduleCommand);
registerRingCommands(program);
registerSecretsCommands(program);
registerSeedCommand(program);
registerUpgrade(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  if (err instanceof CommanderError) {
    // Commander has printed its message (or the help, or the version: exit code 0).
    process.exitCode = err.exitCode === 0 ? 0 : EXIT.usage;
    return;
  }
  process.stderr.write(`✖ ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
