/**
 * The folder the author typed a `mandi` command in, which relative paths are resolved from.
 * `npm run` sets INIT_CWD to where npm was started; `./run` changes to the repository root first
 * (so npm's INIT_CWD is the root) and records the author's folder as MANDI_CWD. MANDI_CWD counts
 * only when npm started in the root, so a value inherited from an outer `./run` cannot misdirect a
 * command typed elsewhere.
 */
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');

export function invokedFrom(env: NodeJS.ProcessEnv = process.env): string {
  const npmCwd = path.resolve(env.INIT_CWD || process.cwd());
  return env.MANDI_CWD && npmCwd === REPO_ROOT ? path.resolve(env.MANDI_CWD) : npmCwd;
}
