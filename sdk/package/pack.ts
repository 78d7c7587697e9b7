/**
 * packModule: a built module folder → `<name>-<version>.tgz` (tar-stream + gzip) holding module.json,
 * the bundle and graphql/, screens/, migrations/ when present. Entries are sorted with fixed
 * timestamps and owners, so the same sources always give the same bytes and the same sha256.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { Manifest } from '../manifest/manifest.types';
import { loadManifest } from '../manifest/validate';
import { DEFAULT_PACKAGE_LIMITS, PACKAGE_FOLDERS, PackageError, packageFileName, unsafePathReason } from './layout';

const gzip = promisify(zlib.gzip);
const FIXED_MTIME = new Date(0);

export interface PackOptions {
  /** Folder the .tgz is written to; default the module folder. */
  outDir?: string;
  /** Called after each file is added, for progress display. */
  onProgress?: (done: number, total: number, file: string) => void;
}

export interface PackResult {
  manifest: Manifest;
  /** Absolute path of the written .tgz. */
  file: string;
  buffer: Buffer;
  sha256: string;
  size: number;
  /** Package paths, in archive order. */
  entries: string[];
}

export async function packModule(dir: string, options: PackOptions = {}): Promise<PackResult> {
  const root = path.resolve(dir);
  const manifest = await loadManifest(root);
  const main = manifest.main ?? 'dist/index.js';
  if (!(await lstat(path.join(root, main)).catch(() => undefined))?.isFile()) {
    throw new PackageError(`${main} does not exist: run \`mandi module build\` first`);
  }
  const entries = ['module.json', main];
  for (const folder of PACKAGE_FOLDERS) entries.push(...(await listFiles(root, folder)));
  const files = [...new Set(entries)];
  const limits = DEFAULT_PACKAGE_LIMITS;
  if (files.length > limits.maxFiles) throw new PackageError(`the package would hold ${files.length} files; the limit is ${limits.maxFiles}`);

  const archive = tar.pack();
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
  const finished = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  let total = 0;
  for (const [i, name] of files.entries()) {
    const content = await readFile(path.join(root, name));
    if (content.length > limits.maxFileBytes) throw new PackageError(`${name} is ${content.length} bytes; the limit per file is ${limits.maxFileBytes}`);
    total += content.length;
    if (total > limits.maxUnpackedBytes) throw new PackageError(`the package would unpack to more than ${limits.maxUnpackedBytes} bytes`);
    await addEntry(archive, name, content);
    options.onProgress?.(i + 1, files.length, name);
  }
  archive.finalize();
  await finished;

  const buffer = await gzip(Buffer.concat(chunks), { level: 9 });
  if (buffer.length > limits.maxCompressedBytes) throw new PackageError(`the package is ${buffer.length} bytes; the limit is ${limits.maxCompressedBytes}`);
  const file = path.join(path.resolve(options.outDir ?? root), packageFileName(manifest.name, manifest.version));
  await writeFile(file, buffer);
  return { manifest, file, buffer, sha256: createHash('sha256').update(buffer).digest('hex'), size: buffer.length, entries: files };
}

function addEntry(archive: tar.Pack, name: string, content: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    archive.entry(
      { name, size: content.length, mode: 0o644, mtime: FIXED_MTIME, uid: 0, gid: 0, uname: '', gname: '', type: 'file' },
      content,
      (err) => (err ? reject(err) : resolve()),
    );
  });
}

/** Regular files under `folder` as sorted package paths; symbolic links and odd names are refused. */
async function listFiles(root: string, folder: string): Promise<string[]> {
  const info = await lstat(path.join(root, folder)).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) throw new PackageError(`${folder} must be a folder`);
  const out: string[] = [];
  const walk = async (rel: string) => {
    const names = (await readdir(path.join(root, rel))).sort();
    for (const name of names) {
      const child = `${rel}/${name}`;
      const stats = await lstat(path.join(root, child));
      const unsafe = unsafePathReason(child);
      if (unsafe) throw new PackageError(`${child} cannot be packed: its path ${unsafe}`);
      if (stats.isDirectory()) await walk(child);
      else if (stats.isFile()) out.push(child);
      else throw new PackageError(`${child} is not a regular file (symbolic links and devices cannot be packed)`);
    }
  };
  await walk(folder);
  return out;
}
