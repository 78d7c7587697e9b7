#!/usr/bin/env node
/** The `mandi` command line: `mandi module <init|build|pack>`. */
import { Command } from 'commander';
import { registerModuleCommands } from './module-commands';

const program = new Command('mandi').description('Mandi developer tools');
registerModuleCommands(program);
program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`✖ ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
