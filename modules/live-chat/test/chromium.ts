/**
 * Debian's Chromium for the widget's browser tests (scripts/ensure-chromium.sh installs it when
 * missing, never a downloaded build), or why there is none: the tests are then skipped. Module tests
 * reach only the SDK, so this is the module's own copy of the project's test/support/chromium.ts.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');

export function findChromium(): { path: string } | { reason: string } {
  try {
    return { path: execFileSync(path.join(ROOT, 'scripts', 'ensure-chromium.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 }).trim() };
  } catch (err) {
    return { reason: String((err as { stderr?: string }).stderr || (err as Error).message).trim() };
  }
}
