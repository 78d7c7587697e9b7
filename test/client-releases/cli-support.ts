/**
 * For the CLI end-to-end suite: builds the `mandi` single executable at a version (once per test
 * file), packs it as a release asset, installs copies to run, and runs them for real, with or without
 * a terminal (util-linux `script` gives the child a pseudo-terminal).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, link, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildExecutable } from '../../sdk/cli/upgrade/build-executable';
import { packageRelease, type PackedAsset } from '../../sdk/cli/upgrade/package-release';
import { hostPlatform } from '../../sdk/cli/upgrade/release-manifest';

/** Executables by input hash (see buildExecutable): a changed CLI is rebuilt, an unchanged one reused. */
const SEA_CACHE = path.resolve(__dirname, '../../data/sea-cache');

export interface Built {
  version: string;
  executable: string;
  /** SHA-256 of the executable as built. */
  sha256: string;
  asset: PackedAsset;
}

export async function buildRelease(version: string, work: string): Promise<Built> {
  const dir = path.join(work, `build-${version}`);
  await mkdir(dir, { recursive: true });
  const { file } = await buildExecutable({ version, outFile: path.join(dir, 'mandi'), cacheDir: SEA_CACHE });
  const { os, arch } = hostPlatform();
  // Level 0 (stored blocks, still a valid .tar.gz): the archive holds a ~120 MB Node binary, and
  // compressing it, then inflating it on every upgrade, would cost the suite far more than the bytes.
  const asset = await packageRelease({ executable: file, version, os, arch, outDir: dir, gzipLevel: 0 });
  return { version, executable: file, sha256: await sha256File(file), asset };
}

/**
 * Puts a built executable at `<dir>/mandi`, as an installer would: a hard link (a copy across file
 * systems), so the suite does not write 120 MB per install. The upgrade replaces the path by renaming
 * a new file over it, which leaves the build untouched; the suite checks that it stays so.
 */
export async function install(built: Built, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, 'mandi');
  await rm(target, { force: true });
  await link(built.executable, target).catch(() => copyFile(built.executable, target));
  return target;
}

export const sha256File = async (file: string) => createHash('sha256').update(await readFile(file)).digest('hex');

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the CLI without a terminal, with exactly `env` (plus PATH). */
export function runCli(bin: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(bin, args, { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr });
    });
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI with stdout and stderr on a pseudo-terminal; `out` is everything it printed. */
export function runCliOnTerminal(bin: string, args: string[], env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', [bin, ...args].map(quote).join(' '), '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}
