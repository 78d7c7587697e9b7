/** `mandi module init | build | pack`: thin wrappers over the sdk functions that print what happened. */
import path from 'node:path';
import type { Command } from 'commander';
import { buildModule } from '../build/build-module';
import { needsBuild } from '../build/needs-build';
import { loadManifest } from '../manifest/validate';
import { packModule } from '../package/pack';
import { initModule } from '../scaffold/init-module';
import { invokedFrom } from './invoked-from';
import { detail, formatBytes, progress, reportError, step, warn } from './output';

/** A path as the author would type it: relative when inside the current folder, else absolute. */
function shown(target: string): string {
  const rel = path.relative(invokedFrom(), target);
  return rel === '' ? '.' : rel.startsWith('..') || path.isAbsolute(rel) ? target : rel;
}

function run(action: (...args: any[]) => Promise<void>) { // eslint-disable-line @typescript-eslint/no-explicit-any -- commander passes each command's own arguments
  return async (...args: unknown[]) => {
    try {
      await action(...args);
    } catch (err) {
      process.exitCode = reportError(err);
    }
  };
}

async function build(dir: string, options: { minify?: boolean; check?: boolean } = {}) {
  const result = await buildModule(dir, options);
  if (result.manifestWritten) step('wrote module.json from the declarations in src/index.ts');
  step(`module.json valid: ${result.manifest.name}@${result.manifest.version}`);
  if (options.check) step(result.declared ? 'module.json matches the declarations' : 'module.json is hand-written: no declarations to compare');
  else step(`bundled ${path.relative(dir, result.outfile)} (${formatBytes(result.bytes)}) in ${result.durationMs} ms`);
  if (!options.check) for (const page of result.consolePages) step(`bundled the console page ${path.relative(dir, page)}`);
  for (const w of result.warnings) warn(w);
}

/** Registers `mandi module …` and returns that command, so other command files can add to it. */
export function registerModuleCommands(program: Command): Command {
  const module = program.command('module').description('create, build, package, publish and install Mandi modules');

  module
    .command('init <name>')
    .description('scaffold a new module folder <name> with module.json, src/index.ts and a test')
    .option('-d, --dir <parent>', 'folder to create the module in (default: the current folder)')
    .action(
      run(async (name: string, opts: { dir?: string }) => {
        const result = await initModule(name, path.resolve(invokedFrom(), opts.dir ?? '.'));
        step(`created ${shown(result.dir)}`);
        for (const file of result.files) detail(file);
        // The commands run under the repository's Node 24 (./run), which works from the root: jest
        // and tsc get absolute paths.
        const run = shown(path.resolve(__dirname, '../../run'));
        const runCmd = run.startsWith('.') || path.isAbsolute(run) ? run : `./${run}`;
        detail(`next: ${runCmd} npm run mandi -- module build ${shown(result.dir)}`);
        detail(`      ${runCmd} npx jest --roots ${result.dir}`);
        detail(`      ${runCmd} npx tsc -p ${result.dir}`);
      }),
    );

  module
    .command('build [dir]')
    .description('bundle src/index.ts into the file named by "main"; write module.json from its declarations, or validate a hand-written one')
    .option('--minify', 'minify the bundle')
    .option('--check', 'write nothing; fail if module.json differs from the declarations (for CI)')
    .action(
      run(async (dir: string | undefined, opts: { minify?: boolean; check?: boolean }) => {
        await build(path.resolve(invokedFrom(), dir ?? '.'), opts);
      }),
    );

  module
    .command('pack [dir]')
    .description('validate, build if needed, and write <name>-<version>.tgz')
    .option('-o, --out <dir>', 'folder to write the package to (default: the module folder)')
    .action(
      run(async (dir: string | undefined, opts: { out?: string }) => {
        const root = path.resolve(invokedFrom(), dir ?? '.');
        // A declared module's module.json is written by the build: build first when anything is stale.
        const main = (await loadManifest(root).catch(() => undefined))?.main ?? 'dist/index.js';
        if (await needsBuild(root, main)) await build(root);
        else {
          const manifest = await loadManifest(root);
          step(`module.json valid: ${manifest.name}@${manifest.version}`);
          step(`bundle ${manifest.main} is up to date`);
        }
        const bar = progress('packing');
        const result = await packModule(root, {
          outDir: opts.out ? path.resolve(invokedFrom(), opts.out) : undefined,
          onProgress: (done, total, file) => bar.update(done, total, file),
        });
        bar.stop();
        step(`wrote ${shown(result.file)}`);
        detail(`files   ${result.entries.length} (${result.entries.join(', ')})`);
        detail(`size    ${result.size} bytes (${formatBytes(result.size)})`);
        detail(`sha256  ${result.sha256}`);
      }),
    );
  return module;
}
