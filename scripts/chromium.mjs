// Debian's Chromium (scripts/ensure-chromium.sh, never a downloaded build) launched with
// playwright-core, for the production start check's browser steps (scripts/console-renders.mjs,
// scripts/embed-code-chats.mjs).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where screenshots are kept, as the browser tests keep theirs (test/console). */
export const ARTIFACTS = path.join(ROOT, 'artifacts');

export function launchChromium() {
  const executablePath = execFileSync(path.join(ROOT, 'scripts', 'ensure-chromium.sh'), { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, args: ['--no-sandbox'] });
}
