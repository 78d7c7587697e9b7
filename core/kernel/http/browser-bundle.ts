/**
 * A browser bundle the platform builds itself and serves from a folder under dist/ (the GraphQL
 * playground, the web console): built by `npm run build` and, since the platform runs its sources,
 * again at start when stale. The folder holds the bundle's inputs in inputs.json, written last, so
 * its mtime is the time of the build; up to date, the check is one stat per input.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Written last: the list of the bundle's inputs, and by its mtime the time of the build. */
export const STAMP = 'inputs.json';

/** Whether the bundle in dir is missing or older than one of its inputs (paths relative to root). */
export function isStale(dir: string, root: string): boolean {
  let built: number;
  let inputs: string[];
  try {
    built = fs.statSync(path.join(dir, STAMP)).mtimeMs;
    inputs = JSON.parse(fs.readFileSync(path.join(dir, STAMP), 'utf8')) as string[];
  } catch {
    return true;
  }
  return inputs.some((f) => {
    try {
      return fs.statSync(path.join(root, f)).mtimeMs > built;
    } catch {
      return true; // an input gone: the bundle no longer matches the sources
    }
  });
}

/**
 * Runs bundle into a fresh folder (it returns the inputs it read), then swaps that folder in as dir,
 * so a process serving the old one never sees half a build.
 */
export async function swapInBundle(dir: string, bundle: (outdir: string) => Promise<string[]>): Promise<void> {
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    fs.writeFileSync(path.join(tmp, STAMP), JSON.stringify(await bundle(tmp)));
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another process (a parallel test worker) swapped in its build first: the same sources, keep it.
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The built asset file names of the bundle in dir, building it first (with build) when missing or
 * stale, once per process; a failed build is retried on the next request.
 */
export function bundleAssets(dir: string, root: string, build: (dir: string) => Promise<void>): () => Promise<string[]> {
  let ready: Promise<string[]> | undefined;
  const ensureBuilt = async () => {
    if (isStale(dir, root)) await build(dir);
    return fs.readdirSync(dir).filter((f) => f !== STAMP);
  };
  return () => {
    ready ??= ensureBuilt().catch((err: unknown) => {
      ready = undefined;
      throw err;
    });
    return ready;
  };
}
