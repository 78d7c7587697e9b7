/**
 * Client releases rule 2: refuse to replace a binary a package manager installed (it would fight the
 * package manager's own records); the user upgrades through it, or passes --allow-homebrew.
 */
import { realpathSync } from 'node:fs';

const MARKERS = ['/Cellar/', '/homebrew/', '/.linuxbrew/'];

/** Checks the path as given and with symlinks resolved (Homebrew links bin/mandi into its Cellar). */
export function packageManagerPath(binaryPath: string): string | undefined {
  const candidates = [binaryPath];
  try {
    candidates.push(realpathSync(binaryPath));
  } catch {
    // A path that cannot be resolved is judged as given.
  }
  return candidates.map((p) => p.replace(/\\/g, '/')).find((p) => MARKERS.some((m) => p.includes(m)));
}
