/**
 * The web console's browser assets: client/main.tsx (Preact, the screen renderer and the admin pages)
 * bundled by esbuild into dist/console/ (app.js, app.css), served by the platform under /console/ so
 * the page needs no CDN and its CSP allows scripts from 'self' only. Built by `npm run build` and at
 * start when stale (../http/browser-bundle.ts).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { bundleAssets, swapInBundle } from '../kernel/http/browser-bundle';

const ROOT = path.resolve(__dirname, '..', '..');
const CLIENT = path.join(__dirname, 'client', 'main.tsx');
export const CONSOLE_ASSETS_DIR = path.join(ROOT, 'dist', 'console');

/** Bundles the console into dir (a fresh folder swapped in). */
export function buildConsole(dir = CONSOLE_ASSETS_DIR): Promise<void> {
  return swapInBundle(dir, async (outdir) => {
    const app = await build({
      entryPoints: { app: CLIENT },
      outdir,
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
    return Object.keys(app.metafile.inputs);
  });
}

/** The built asset file names, building first when the bundle is missing or stale (once per process). */
export const consoleAssets = bundleAssets(CONSOLE_ASSETS_DIR, ROOT, buildConsole);
