/** What the commands that talk to a platform share: --url/--token options and error reporting. */
import type { Command } from 'commander';
import { ApiClient, CliError } from './api-client';
import { reportError } from './output';

export interface ConnectionFlags {
  url?: string;
  token?: string;
}

export function withConnection(cmd: Command): Command {
  return cmd.option('--url <url>', 'platform base URL (default: $MANDI_URL)').option('--token <token>', 'bearer token (default: $MANDI_TOKEN)');
}

export const clientFor = (flags: ConnectionFlags) => new ApiClient({ url: flags.url, token: flags.token });

/** Runs a command action; a failure prints `✖ message` with its reasons and sets the exit code. */
export function platformAction(action: (...args: any[]) => Promise<void>) { // eslint-disable-line @typescript-eslint/no-explicit-any
  return async (...args: unknown[]) => {
    try {
      await action(...args);
    } catch (err) {
      if (err instanceof CliError) {
        process.stderr.write(`✖ ${err.message}\n`);
        for (const line of err.lines) process.stderr.write(`  ${line}\n`);
        process.exitCode = err.exitCode;
      } else {
        process.exitCode = reportError(err);
      }
    }
  };
}

/** "stock@1.1.0" → {alias, version}; "stock" → {alias}. */
export function parseModuleRef(ref: string, needVersion = false): { alias: string; version?: string } {
  const m = /^([a-z][a-z0-9_]*)(?:@(.+))?$/.exec(ref);
  if (!m || (needVersion && !m[2])) {
    throw new CliError(`"${ref}" is not a module reference; write <module>${needVersion ? '@<version>' : '[@<version>]'}, e.g. stock@1.1.0`, 2);
  }
  return { alias: m[1], version: m[2] };
}
