/**
 * Before the new program replaces the old one, it must run and say it is the version we meant to
 * install: a truncated file or a build for another machine is caught while the old binary is intact.
 */
import { execFile } from 'node:child_process';
import { serverError } from './errors';

export function versionOf(executable: string, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    // No upgrade check from the probe itself.
    const env = { ...process.env, PLATFORM_NO_UPGRADE_CHECK: '1' };
    execFile(executable, ['--version'], { timeout: timeoutMs, env, windowsHide: true }, (err, stdout) => {
      if (err) return reject(serverError(`the downloaded executable does not run on this machine: ${err.message.split('\n')[0]}`));
      resolve(stdout.trim());
    });
  });
}

export async function assertVersion(executable: string, expected: string): Promise<void> {
  const reported = await versionOf(executable);
  if (reported !== expected) throw serverError(`the downloaded executable reports version ${JSON.stringify(reported)}, not ${expected}; not installing it`);
}
