/**
 * Packs a built executable as a release asset: `mandi_<version>_<os>_<arch>.tar.gz` (or .zip for
 * Windows) holding the one file `mandi` (`mandi.exe`), and the manifest entry for it with its SHA-256
 * and size, ready for a schema_version 1 manifest or a hosted_repo release (checksums.txt line).
 */
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { assetBaseName, canonicalArch, canonicalOs, type ReleaseAsset } from './release-manifest';

export interface PackedAsset extends ReleaseAsset {
  path: string;
}

export async function packageRelease(opts: { executable: string; version: string; os: string; arch: string; outDir: string; url?: string; gzipLevel?: number }): Promise<PackedAsset> {
  const os = canonicalOs(opts.os);
  const arch = canonicalArch(opts.arch);
  const filename = `${assetBaseName(opts.version, os, arch)}.tar.gz`;
  const content = await readFile(opts.executable);
  const mode = (await stat(opts.executable)).mode & 0o777;
  const pack = tar.pack();
  pack.entry({ name: os === 'windows' ? 'mandi.exe' : 'mandi', size: content.length, mode: mode | 0o755, mtime: new Date() }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  const archive = await promisify(zlib.gzip)(Buffer.concat(chunks), { level: opts.gzipLevel ?? 9 });
  const file = path.join(opts.outDir, filename);
  await writeFile(file, archive);
  return { os, arch, filename, url: opts.url ?? filename, sha256: createHash('sha256').update(archive).digest('hex'), size: archive.length, path: file };
}
