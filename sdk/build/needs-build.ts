/**
 * Whether a module's bundle is missing or older than its sources (module.json, src/, console/, package.json),
 * so `pack` rebuilds only when needed.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export async function needsBuild(dir: string, mainPath: string): Promise<boolean> {
  const bundle = await stat(path.join(dir, mainPath)).catch(() => undefined);
  if (!bundle) return true;
  const newest = Math.max(
    await newestMtime(path.join(dir, 'module.json')),
    await newestMtime(path.join(dir, 'package.json')),
    await newestMtime(path.join(dir, 'src')),
    // Console pages' browser sources (docs/decisions/console-pages.md), bundled by the same build.
    await newestMtime(path.join(dir, 'console')),
  );
  return newest > bundle.mtimeMs;
}

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const name of await readdir(target)) {
    if (name === 'node_modules') continue;
    newest = Math.max(newest, await newestMtime(path.join(target, name)));
  }
  return newest;
}
