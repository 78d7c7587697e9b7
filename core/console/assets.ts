/**
 * The web console's browser assets: client/main.tsx (Preact, the screen renderer and the admin pages)
 * bundled by esbuild into dist/console/ (app.js, app.css), served by the platform under /console/ so
 * the page needs no CDN and its CSP allows scripts from 'self' only.
 *
 * Built by `npm run build` and at start when stale, as the playground is (../graphql/playground/
 * assets.ts): a bundle older than any of its inputs (listed in inputs.json) is rebuilt before the
 * first page is served.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { isStale, STAMP } from '../graphql/playground/assets';

const ROOT = path.resolve(__dirname, '..', '..');
const CLIENT = path.join(__dirname, 'client', 'main.tsx');
export const CONSOLE_ASSETS_DIR = path.join(ROOT, 'dist', 'console');

let ready: Promise<string[]> | undefined;

/** The built asset file names, building first when the bundle is missing or stale (once per process). */
export function consoleAssets(): Promise<string[]> {
  ready ??= ensureBuilt().catch((err: unknown) => {
    ready = undefined; // a failed build is retried on the next request
    throw err;
  });
  return ready;
}

async function ensureBuilt(): Promise<string[]> {
  if (isStale(CONSOLE_ASSETS_DIR)) await buildConsole(CONSOLE_ASSETS_DIR);
  return fs.readdirSync(CONSOLE_ASSETS_DIR).filter((f) => f !== STAMP);
}

/** Bundles into a fresh folder, then swaps it in, so a process serving the old one never sees half a build. */
export async function buildConsole(dir = CONSOLE_ASSETS_DIR): Promise<void> {
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const app = await build({
      entryPoints: { app: CLIENT },
      outdir: tmp,
      bundle: true,
      minify: true,
      metafile: true,
      legalComments: 'none',
      logLevel: 'silent',
      absWorkingDir: ROOT,
      format: 'esm',
      target: 'es2022',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      define: { 'process.env.NODE_ENV': '"production"' },
      tsconfig: path.join(__dirname, 'client', 'tsconfig.json'),
    });
    fs.writeFileSync(path.join(tmp, STAMP), JSON.stringify(Object.keys(app.metafile.inputs)));
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
