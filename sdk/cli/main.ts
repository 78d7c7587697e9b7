#!/usr/bin/env node
/**
 * The `mandi` command line: `mandi module <init|build|pack|dev|publish|install|upgrade|rollback|uninstall>`
 * and `mandi ring <list|show|promote|rollback|assign>`. The platform commands read MANDI_URL and
 * MANDI_TOKEN (or --url, --token). Exit codes: 0 done, 1 refused or failed, 2 bad usage, 3 token
 * refused, 4 platform unreachable or failing. `mandi upgrade` replaces the CLI itself (spec 1, Client
 * releases; its exit codes are the spec's: 5 network, 6 server, checksum or missing asset, 1 file system).
 */
import { Command } from 'commander';
import { registerDevCommand } from './dev-command';
import { registerLifecycleCommands } from './lifecycle-commands';
import { registerModuleCommands } from './module-commands';
import { registerRingCommands } from './ring-commands';
import { CLI_VERSION, registerUpgrade } from './upgrade';

const program = new Command('mandi').description('Mandi developer tools').version(CLI_VERSION);
const moduleCommand = registerModuleCommands(program);
registerDevCommand(moduleCommand);
registerLifecycleCommands(moduleCommand);
registerRingCommands(program);
registerUpgrade(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`✖ ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
