/**
 * Debian's Chromium for the browser tests (installed by scripts/ensure-chromium.sh when missing, never
 * a downloaded build), or why there is none: the tests are then skipped with the reason in their title.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export function findChromium(): { path: string } | { reason: string } {
  try {
    const out = execFileSync(path.join(ROOT, 'scripts', 'ensure-chromium.sh'), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
    return { path: out.trim() };
  } catch (err) {
    return { reason: String((err as { stderr?: string }).stderr || (err as Error).message).trim() };
  }
}
