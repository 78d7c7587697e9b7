/**
 * The playground's browser assets: client/main.ts with GraphiQL, React and Monaco bundled by esbuild
 * into dist/playground/ (app.js, app.css, Monaco's font and three workers), served by the platform
 * under /graphql/playground/ so the page needs no CDN and its CSP allows scripts from 'self' only.
 *
 * Built by `npm run build` and, like the sandbox prelude, at start: the platform runs its sources
 * (tsx), so a bundle older than any file it was made from (the client, or an upgraded graphiql in
 * node_modules, listed in inputs.json) is rebuilt before the first asset is served. Up to date, the
 * check is one stat per input (about 2,000 files).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build, type BuildOptions } from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLIENT = path.join(__dirname, 'client', 'main.ts');
export const PLAYGROUND_ASSETS_DIR = path.join(ROOT, 'dist', 'playground');
/** Written last: the list of the bundle's inputs, and by its mtime the time of the build. */
export const STAMP = 'inputs.json';

const MONACO_WORKERS = {
  'editor.worker': 'monaco-editor/esm/vs/editor/editor.worker.js',
  'json.worker': 'monaco-editor/esm/vs/language/json/json.worker.js',
  'graphql.worker': 'monaco-graphql/esm/graphql.worker.js',
};

const common: BuildOptions = { bundle: true, minify: true, metafile: true, legalComments: 'none', logLevel: 'silent', absWorkingDir: ROOT };

let ready: Promise<string[]> | undefined;

/** The built asset file names, building first when the bundle is missing or stale (once per process). */
export function playgroundAssets(): Promise<string[]> {
  ready ??= ensureBuilt().catch((err: unknown) => {
    ready = undefined; // a failed build is retried on the next request
    throw err;
  });
  return ready;
}

async function ensureBuilt(): Promise<string[]> {
  if (!isStale(PLAYGROUND_ASSETS_DIR)) return assetNames(PLAYGROUND_ASSETS_DIR);
  await buildPlayground(PLAYGROUND_ASSETS_DIR);
  return assetNames(PLAYGROUND_ASSETS_DIR);
}

function assetNames(dir: string): string[] {
  return fs.readdirSync(dir).filter((f) => f !== STAMP);
}

/** Whether the bundle in dir is missing or older than one of its inputs (also the web console's check). */
export function isStale(dir: string): boolean {
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
      return fs.statSync(path.join(ROOT, f)).mtimeMs > built;
    } catch {
      return true; // an input gone: the bundle no longer matches the sources
    }
  });
}

/** Bundles into a fresh folder, then swaps it in, so a process serving the old one never sees half a build. */
export async function buildPlayground(dir = PLAYGROUND_ASSETS_DIR): Promise<void> {
  const tmp = `${dir}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    const [app, workers] = await Promise.all([
      build({
        ...common,
        entryPoints: { app: CLIENT },
        outdir: tmp,
        format: 'esm',
        loader: { '.ttf': 'file' },
        define: { 'process.env.NODE_ENV': '"production"' },
        tsconfig: path.join(__dirname, 'client', 'tsconfig.json'),
      }),
      build({ ...common, entryPoints: MONACO_WORKERS, outdir: tmp, format: 'iife' }),
    ]);
    const inputs = [...Object.keys(app.metafile!.inputs), ...Object.keys(workers.metafile!.inputs)];
    fs.writeFileSync(path.join(tmp, STAMP), JSON.stringify(inputs));
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
