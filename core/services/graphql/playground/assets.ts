/**
 * The playground's browser assets: client/main.ts with GraphiQL, React and Monaco bundled by esbuild
 * into dist/playground/ (app.js, app.css, Monaco's font and three workers), served by the platform
 * under /graphql/playground/ so the page needs no CDN and its CSP allows scripts from 'self' only.
 * Built by `npm run build` and at start when stale (../../http/browser-bundle.ts): its inputs are the
 * client and graphiql in node_modules (about 2,000 files).
 */
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { bundleAssets, swapInBundle } from '../../../kernel/http/browser-bundle';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const CLIENT = path.join(__dirname, 'client', 'main.ts');
export const PLAYGROUND_ASSETS_DIR = path.join(ROOT, 'dist', 'playground');

const MONACO_WORKERS = {
  'editor.worker': 'monaco-editor/esm/vs/editor/editor.worker.js',
  'json.worker': 'monaco-editor/esm/vs/language/json/json.worker.js',
  'graphql.worker': 'monaco-graphql/esm/graphql.worker.js',
};

const common: BuildOptions = { bundle: true, minify: true, metafile: true, legalComments: 'none', logLevel: 'silent', absWorkingDir: ROOT };

/** Bundles the playground and Monaco's workers into dir (a fresh folder swapped in). */
export function buildPlayground(dir = PLAYGROUND_ASSETS_DIR): Promise<void> {
  return swapInBundle(dir, async (outdir) => {
    const [app, workers] = await Promise.all([
      build({
        ...common,
        entryPoints: { app: CLIENT },
        outdir,
        format: 'esm',
        loader: { '.ttf': 'file' },
        define: { 'process.env.NODE_ENV': '"production"' },
        tsconfig: path.join(__dirname, 'client', 'tsconfig.json'),
      }),
      build({ ...common, entryPoints: MONACO_WORKERS, outdir, format: 'iife' }),
    ]);
    return [...Object.keys(app.metafile!.inputs), ...Object.keys(workers.metafile!.inputs)];
  });
}

/** The built asset file names, building first when the bundle is missing or stale (once per process). */
export const playgroundAssets = bundleAssets(PLAYGROUND_ASSETS_DIR, ROOT, buildPlayground);
