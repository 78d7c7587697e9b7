/**
 * `mandi module build`: bundles src/index.ts with esbuild into the one script the sandbox runs
 * (iife, global __mandi_module, es2022, no Node builtins) and loads it once, here at build time. A
 * module declared with defineModule({name, ..., operations}) gets its module.json written from those
 * declarations (validated first; the host only ever reads that file, never runs module code to learn
 * what it offers); a module with a hand-written module.json gets it validated. The bundle is then
 * written at the manifest's `main`, after checking that every provided operation and subscribed
 * event has a handler.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Message } from 'esbuild';
import { consolePageBundle } from '../manifest/console-pages';
import { ManifestError } from '../manifest/issues';
import type { Manifest } from '../manifest/manifest.types';
import { loadManifest, validateManifest } from '../manifest/validate';
import { declaredManifest, manifestText } from './declared-manifest';
import { inspectBundle, type BundleExports } from './inspect-bundle';
import { refuseNodeBuiltins } from './refuse-node-builtins';

export const DEFAULT_ENTRY = 'src/index.ts';

export interface BuildOptions {
  /** Entry file relative to the module folder; default src/index.ts. */
  entry?: string;
  minify?: boolean;
  /**
   * Write nothing; fail when module.json differs from what the declarations give (for CI: a
   * committed module.json that drifted from its declarations). Hand-written manifests pass.
   */
  check?: boolean;
}

export interface BuildResult {
  manifest: Manifest;
  /** Absolute path of the bundle. */
  outfile: string;
  /** Absolute paths of the console pages' browser bundles (dist/console/<name>.js). */
  consolePages: string[];
  bytes: number;
  durationMs: number;
  /** Handlers the manifest does not declare, and esbuild warnings: the build still succeeded. */
  warnings: string[];
  /** Whether module.json comes from the module's declarations (else it is hand-written). */
  declared: boolean;
  /** Whether this build rewrote module.json (its declarations changed). */
  manifestWritten: boolean;
}

/** The build failed; `problems` lists each reason, one line each. */
export class BuildError extends Error {
  constructor(readonly problems: string[]) {
    super(`Build failed:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'BuildError';
  }
}

export async function buildModule(dir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const root = path.resolve(dir);
  const entry = options.entry ?? DEFAULT_ENTRY;
  if (!(await stat(path.join(root, entry)).catch(() => undefined))?.isFile()) {
    throw new BuildError([`${entry} not found in ${root}: the module's code starts there`]);
  }
  const { code, warnings } = await bundle(root, entry, options.minify ?? false);
  let exported: BundleExports;
  try {
    exported = inspectBundle(code, path.join(root, entry));
  } catch (err) {
    throw new BuildError([`the bundle does not load: ${(err as Error).message}`]);
  }

  const declared = exported.declaration !== undefined;
  const manifestWritten = declared ? await writeDeclaredManifest(root, entry, exported.declaration, options.check ?? false) : false;
  const manifest = await loadManifest(root);
  const { problems, notes } = compareHandlers(manifest, exported);
  if (problems.length > 0) throw new BuildError(problems);

  const outfile = path.join(root, manifest.main ?? 'dist/index.js');
  const pages = await bundleConsolePages(root, manifest, options.minify ?? false);
  if (!options.check) {
    await mkdir(path.dirname(outfile), { recursive: true });
    await writeFile(outfile, code);
    for (const page of pages) {
      await mkdir(path.dirname(page.file), { recursive: true });
      await writeFile(page.file, page.code);
    }
  }
  return {
    manifest,
    outfile,
    consolePages: pages.map((p) => p.file),
    bytes: Buffer.byteLength(code),
    durationMs: Math.round(performance.now() - started),
    warnings: [...warnings.map(formatMessage), ...notes],
    declared,
    manifestWritten,
  };
}

async function bundle(root: string, entry: string, minify: boolean): Promise<{ code: string; warnings: Message[] }> {
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      write: false,
      bundle: true,
      format: 'iife',
      globalName: '__mandi_module',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      minify,
      legalComments: 'none',
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [refuseNodeBuiltins()],
    });
    return { code: result.outputFiles[0].text, warnings: result.warnings };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors) throw err;
    throw new BuildError(errors.map(formatMessage));
  }
}

/**
 * The browser pass (docs/decisions/console-pages.md): each console page's entry bundled on its own
 * for a browser (one classic script, no Node built-ins, Preact's JSX when the page uses it), to run in
 * the console's sandboxed frame.
 */
async function bundleConsolePages(root: string, manifest: Manifest, minify: boolean): Promise<Array<{ file: string; code: string }>> {
  const out: Array<{ file: string; code: string }> = [];
  const problems: string[] = [];
  for (const page of manifest.console?.pages ?? []) {
    if (!(await stat(path.join(root, page.entry)).catch(() => undefined))?.isFile()) {
      problems.push(`console page "${page.path}": ${page.entry} not found in ${root}`);
      continue;
    }
    try {
      const result = await build({
        absWorkingDir: root,
        entryPoints: [page.entry],
        write: false,
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'es2022',
        minify,
        jsx: 'automatic',
        jsxImportSource: 'preact',
        legalComments: 'none',
        logLevel: 'silent',
        define: { 'process.env.NODE_ENV': '"production"' },
        plugins: [refuseNodeBuiltins('which a browser does not have: a console page reaches the platform through sdk/console (api, subscribe)')],
      });
      out.push({ file: path.join(root, consolePageBundle(page)), code: result.outputFiles[0].text });
    } catch (err) {
      const errors = (err as { errors?: Message[] }).errors;
      if (!errors) throw err;
      problems.push(...errors.map((m) => `console page "${page.path}": ${formatMessage(m)}`));
    }
  }
  if (problems.length > 0) throw new BuildError(problems);
  return out;
}

/**
 * Validates the manifest the declarations give and writes it as module.json when it differs from
 * the file there (by a rename, so a concurrent reader never sees half a file). With `check`, a
 * difference is an error instead. Returns whether the file was written.
 */
async function writeDeclaredManifest(root: string, entry: string, declaration: unknown, check: boolean): Promise<boolean> {
  const manifest = declaredManifest(declaration);
  const result = validateManifest(manifest);
  if (!result.ok) throw new ManifestError(result.errors, `declared in ${entry} (pointers into the module.json it gives)`);
  const file = path.join(root, 'module.json');
  const text = manifestText(manifest);
  if ((await readFile(file, 'utf8').catch(() => undefined)) === text) return false;
  if (check) {
    throw new BuildError([`module.json differs from the declarations in ${entry}: run \`mandi module build\` and commit the module.json it writes`]);
  }
  const staged = `${file}.${process.pid}.tmp`;
  await writeFile(staged, text);
  await rename(staged, file);
  return true;
}

/** Every provided operation and subscribed event needs a handler; extra handlers are only noted. */
function compareHandlers(manifest: Manifest, exported: BundleExports) {
  const problems: string[] = [];
  const notes: string[] = [];
  const methods = (manifest.api?.provides ?? []).map((op) => op.name.slice(op.name.indexOf('.') + 1));
  for (const method of methods) {
    if (!exported.operations.includes(method)) {
      problems.push(`api.provides declares ${manifest.name}.${method} but the module exports no operations.${method} handler`);
    }
  }
  for (const event of manifest.events?.subscribes ?? []) {
    if (!exported.events.includes(event)) {
      problems.push(`events.subscribes lists ${event} but the module exports no events["${event}"] handler`);
    }
  }
  for (const method of exported.operations) {
    if (!methods.includes(method)) notes.push(`operations.${method} is not in api.provides, so nothing can call it`);
  }
  for (const event of exported.events) {
    if (!(manifest.events?.subscribes ?? []).includes(event)) notes.push(`events["${event}"] is not in events.subscribes, so it never runs`);
  }
  return { problems, notes };
}

function formatMessage(m: Message): string {
  const where = m.location ? `${m.location.file}:${m.location.line}:${m.location.column + 1}: ` : '';
  return `${where}${m.text}`;
}
