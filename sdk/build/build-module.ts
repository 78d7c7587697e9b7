/**
 * `mandi module build`: validates module.json, bundles src/index.ts with esbuild into the one script
 * the sandbox runs (iife, global __mandi_module, es2022, no Node builtins) at the manifest's `main`,
 * then loads it to check that every provided operation and subscribed event has a handler.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { build, type Message } from 'esbuild';
import type { Manifest } from '../manifest/manifest.types';
import { loadManifest } from '../manifest/validate';
import { inspectBundle } from './inspect-bundle';
import { refuseNodeBuiltins } from './refuse-node-builtins';

export const DEFAULT_ENTRY = 'src/index.ts';

export interface BuildOptions {
  /** Entry file relative to the module folder; default src/index.ts. */
  entry?: string;
  minify?: boolean;
}

export interface BuildResult {
  manifest: Manifest;
  /** Absolute path of the bundle. */
  outfile: string;
  bytes: number;
  durationMs: number;
  /** Handlers the manifest does not declare, and esbuild warnings: the build still succeeded. */
  warnings: string[];
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
  const manifest = await loadManifest(root);
  const entry = options.entry ?? DEFAULT_ENTRY;
  if (!(await stat(path.join(root, entry)).catch(() => undefined))?.isFile()) {
    throw new BuildError([`${entry} not found in ${root}: the module's code starts there`]);
  }
  const outfile = path.join(root, manifest.main ?? 'dist/index.js');

  let warnings: Message[];
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      outfile,
      bundle: true,
      format: 'iife',
      globalName: '__mandi_module',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      target: 'es2022',
      minify: options.minify ?? false,
      legalComments: 'none',
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
      plugins: [refuseNodeBuiltins()],
    });
    warnings = result.warnings;
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors) throw err;
    throw new BuildError(errors.map(formatMessage));
  }

  const code = await readFile(outfile, 'utf8');
  const { problems, notes } = compareHandlers(manifest, code, outfile);
  if (problems.length > 0) throw new BuildError(problems);
  return {
    manifest,
    outfile,
    bytes: Buffer.byteLength(code),
    durationMs: Math.round(performance.now() - started),
    warnings: [...warnings.map(formatMessage), ...notes],
  };
}

/** Every provided operation and subscribed event needs a handler; extra handlers are only noted. */
function compareHandlers(manifest: Manifest, code: string, outfile: string) {
  let exported;
  try {
    exported = inspectBundle(code, outfile);
  } catch (err) {
    return { problems: [`the bundle does not load: ${(err as Error).message}`], notes: [] };
  }
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
