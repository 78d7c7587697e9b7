/** `mandi upgrade` and the background version check, registered on the CLI program. */
import type { Command } from 'commander';
import { CHECK_COMMAND, afterCommand, runBackgroundCheck } from './upgrade-check';
import { registerUpgradeCommand } from './upgrade-command';

export { CLI_VERSION } from './build-info';

export function registerUpgrade(program: Command): void {
  registerUpgradeCommand(program);
  program.command(CHECK_COMMAND, { hidden: true }).action(() => runBackgroundCheck());
  // After every command that succeeded, except the upgrade and the check themselves.
  program.hook('postAction', (_program, action) => {
    const name = action.name();
    if (name === 'upgrade' || name === CHECK_COMMAND) return;
    if (process.exitCode && process.exitCode !== 0) return;
    afterCommand();
  });
}
