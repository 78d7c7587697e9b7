/**
 * Builds the `mandi` CLI as one executable file (Node's single executable applications), which is
 * what makes "replace the running binary" real: the program is a single file on disk.
 *   1. esbuild bundles sdk/cli/main.ts into one CommonJS script, with the version, the build kind
 *      (release) and the public mirror written in;
 *   2. node --experimental-sea-config turns it into a blob (with a V8 code cache for fast starts);
 *   3. a copy of the Node binary gets the blob injected with postject.
 * The Node binary defaults to the one running this script (Node 24). macOS binaries must be signed
 * again after injection (codesign --sign - ...), which this Linux build does not do.
 *
 *   tsx sdk/cli/upgrade/build-executable.ts --version 1.4.0 --out dist/mandi [--mirror-url https://…]
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import semver from 'semver';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
/** The fuse string Node's SEA loader looks for (fixed by Node). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface BuildExecutableOptions {
  version: string;
  outFile: string;
  mirrorUrl?: string;
  nodeBinary?: string;
  /**
   * Keeps finished executables by the hash of everything that goes into them (the bundled script,
   * the Node binary, the SEA settings), so an unchanged build is copied instead of injected again
   * (injection rewrites a ~120 MB binary and takes the most time).
   */
  cacheDir?: string;
}

/**
 * A single executable cannot require packages from node_modules, and esbuild (used only by
 * `mandi module build`) ships a native binary. The bundle therefore loads esbuild lazily from the
 * module author's project, where `npm install` put it, and says so when it is missing.
 */
const lazyEsbuild: Plugin = {
  name: 'lazy-esbuild',
  setup(b) {
    b.onResolve({ filter: /^esbuild$/ }, () => ({ path: 'esbuild', namespace: 'lazy-esbuild' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-esbuild' }, () => ({
      loader: 'js',
      contents: `
        const { createRequire } = require('node:module');
        const path = require('node:path');
        let esbuild;
        function load() {
          if (esbuild) return esbuild;
          for (const dir of [process.env.INIT_CWD, process.cwd()].filter(Boolean)) {
            try { return (esbuild = createRequire(path.join(dir, 'package.json'))('esbuild')); } catch {}
          }
          throw new Error('mandi module build needs esbuild in your project: npm install --save-dev esbuild');
        }
        module.exports = { build: (...args) => load().build(...args) };`,
    }));
  },
};

export async function buildExecutable(opts: BuildExecutableOptions): Promise<{ file: string; bytes: number }> {
  if (!semver.valid(opts.version)) throw new Error(`--version must be SemVer, got ${opts.version}`);
  const node = opts.nodeBinary ?? process.execPath;
  const work = await mkdtemp(path.join(os.tmpdir(), 'mandi-sea-'));
  try {
    const script = path.join(work, 'mandi.cjs');
    await build({
      entryPoints: [path.join(ROOT, 'sdk/cli/main.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node24',
      minifyWhitespace: true,
      legalComments: 'none',
      logLevel: 'error',
      plugins: [lazyEsbuild],
      // Loaded from the author's project by `mandi module types` (sdk/build/consumer-types.ts).
      external: ['json-schema-to-typescript'],
      define: {
        __MANDI_CLI_VERSION__: JSON.stringify(opts.version),
        __MANDI_CLI_BUILD__: JSON.stringify('release'),
        ...(opts.mirrorUrl ? { __MANDI_MIRROR_URL__: JSON.stringify(opts.mirrorUrl) } : {}),
      },
    });
    const seaConfig = { disableExperimentalSEAWarning: true, useCodeCache: true };
    await mkdir(path.dirname(opts.outFile), { recursive: true });
    await rm(opts.outFile, { force: true });
    const cached = opts.cacheDir && path.join(opts.cacheDir, `mandi-${await inputsHash(script, node, seaConfig)}`);
    if (cached && (await stat(cached).catch(() => undefined))) {
      const now = new Date();
      await utimes(cached, now, now); // recently used: kept by the pruning
      await copyFile(cached, opts.outFile);
      return { file: opts.outFile, bytes: (await stat(opts.outFile)).size };
    }

    const blob = path.join(work, 'sea.blob');
    const config = path.join(work, 'sea-config.json');
    await writeFile(config, JSON.stringify({ main: script, output: blob, ...seaConfig }));
    await run(node, ['--experimental-sea-config', config], { cwd: work });
    const injected = path.join(work, 'mandi');
    await copyFile(node, injected);
    await chmod(injected, 0o755);
    const postject = require.resolve('postject/dist/cli.js');
    const macho = process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : [];
    await run(process.execPath, [postject, injected, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE, ...macho], { maxBuffer: 16 * 1024 * 1024 });
    if (cached) {
      // Under a temporary name first, so a concurrent build never copies half a file.
      await mkdir(opts.cacheDir!, { recursive: true });
      await copyFile(injected, `${cached}.${process.pid}.tmp`);
      await rename(`${cached}.${process.pid}.tmp`, cached);
      await pruneCache(opts.cacheDir!);
    }
    await copyFile(injected, opts.outFile);
    return { file: opts.outFile, bytes: (await stat(opts.outFile)).size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Each entry is a whole Node binary: keep the newest two (a test run builds two versions). */
async function pruneCache(dir: string, keep = 2): Promise<void> {
  const entries = await Promise.all(
    (await readdir(dir)).filter((f) => /^mandi-[0-9a-f]{32}$/.test(f)).map(async (f) => ({ f, t: (await stat(path.join(dir, f))).mtimeMs })),
  );
  for (const { f } of entries.sort((a, b) => b.t - a.t).slice(keep)) await rm(path.join(dir, f), { force: true });
}

async function inputsHash(script: string, node: string, seaConfig: object): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(script));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed postject's version, read where it is resolved
  hash.update(JSON.stringify({ seaConfig, fuse: SEA_FUSE, postject: require('postject/package.json').version as string }));
  for await (const chunk of createReadStream(node)) hash.update(chunk as Buffer);
  return hash.digest('hex').slice(0, 32);
}

if (require.main === module) {
  const { values } = parseArgs({ options: { version: { type: 'string' }, out: { type: 'string' }, 'mirror-url': { type: 'string' } } });
  if (!values.version || !values.out) {
    process.stderr.write('usage: tsx sdk/cli/upgrade/build-executable.ts --version <semver> --out <file> [--mirror-url <url>]\n');
    process.exit(2);
  }
  buildExecutable({ version: values.version, outFile: path.resolve(values.out), mirrorUrl: values['mirror-url'] }).then(
    (r) => process.stdout.write(`✔ built ${r.file} (${(r.bytes / 1024 / 1024).toFixed(1)} MB), mandi ${values.version}\n`),
    (err: Error) => {
      process.stderr.write(`✖ ${err.message}\n`);
      process.exit(1);
    },
  );
}
