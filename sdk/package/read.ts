/**
 * readPackage: a module .tgz → its validated manifest and files, for the registry (publish, download
 * checks) and the rings (install). It trusts nothing in the archive: sizes are capped before and
 * while unpacking, only regular files at safe relative paths in the package layout are accepted, and
 * the manifest passes validateManifest with every file it names present.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { ManifestError, type ManifestIssue } from '../manifest/issues';
import type { Manifest } from '../manifest/manifest.types';
import { consolePageBundle } from '../manifest/console-pages';
import { referencedFiles } from '../manifest/referenced-files';
import { validateManifest } from '../manifest/validate';
import { DEFAULT_PACKAGE_LIMITS, isAllowedEntry, PackageError, unsafePathReason, type PackageLimits } from './layout';

const gunzip = promisify(zlib.gunzip);

export interface ModulePackage {
  manifest: Manifest;
  /** Package path (e.g. "module.json", "dist/index.js") → content. */
  files: Map<string, Buffer>;
}

export async function readPackage(buffer: Buffer, limits: Partial<PackageLimits> = {}): Promise<ModulePackage> {
  const max = { ...DEFAULT_PACKAGE_LIMITS, ...limits };
  if (buffer.length > max.maxCompressedBytes) {
    throw new PackageError(`the package is ${buffer.length} bytes; the limit is ${max.maxCompressedBytes}`);
  }
  const files = await unpack(await decompress(buffer, max), max);

  const source = 'package module.json';
  const text = files.get('module.json');
  if (!text) throw new PackageError('the package holds no module.json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.toString('utf8'));
  } catch (err) {
    throw new ManifestError([{ pointer: '', message: `is not valid JSON: ${(err as Error).message}` }], source);
  }
  const result = validateManifest(parsed);
  if (!result.ok) throw new ManifestError(result.errors, source);
  const manifest = result.manifest;
  const main = manifest.main ?? 'dist/index.js';

  const missing: ManifestIssue[] = [];
  if (!files.has(main)) missing.push({ pointer: '/main', message: `the bundle ${main} is not in the package` });
  for (const ref of referencedFiles(manifest)) {
    if (!files.has(ref.path)) missing.push({ pointer: ref.pointer, message: `file ${ref.path} is not in the package` });
  }
  manifest.console?.pages?.forEach((page, i) => {
    const bundle = consolePageBundle(page);
    if (!files.has(bundle)) missing.push({ pointer: `/console/pages/${i}/entry`, message: `the page's bundle ${bundle} is not in the package: run \`mandi module build\`` });
  });
  if (missing.length > 0) throw new ManifestError(missing, source);
  const unexpected = [...files.keys()].filter((name) => !isAllowedEntry(name, main));
  if (unexpected.length > 0) {
    throw new PackageError(
      `unexpected files in the package: ${unexpected.join(', ')}; a package holds module.json, ${main}, graphql/, screens/, migrations/ and dist/console/ only`,
    );
  }
  return { manifest, files };
}

/** gunzip with an output cap, so a small archive cannot expand without bound. */
async function decompress(buffer: Buffer, max: PackageLimits): Promise<Buffer> {
  // Room for the tar headers and padding around the file contents.
  const cap = max.maxUnpackedBytes + (max.maxFiles + 2) * 1024 + 1024;
  try {
    return await gunzip(buffer, { maxOutputLength: cap });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new PackageError(`the package unpacks to more than ${max.maxUnpackedBytes} bytes`);
    }
    throw new PackageError(`the package is not a gzip archive: ${(err as Error).message}`);
  }
}

async function unpack(tarball: Buffer, max: PackageLimits): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const extract = tar.extract();
  extract.end(tarball);
  let total = 0;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const raw = header.name;
      // "./x" is how many tar tools write "x"; directories end in "/" and "./" is the root itself.
      const name = raw.replace(/^\.\//, '').replace(header.type === 'directory' ? /\/$/ : /^$/, '');
      const isRoot = header.type === 'directory' && name === '';
      const unsafe = isRoot ? undefined : unsafePathReason(name);
      if (unsafe) throw new PackageError(`package entry "${raw}" refused: its path ${unsafe}`);
      if (header.type === 'directory') {
        entry.resume();
        continue;
      }
      if (header.type !== 'file' && header.type !== 'contiguous-file') {
        throw new PackageError(`package entry "${raw}" refused: it is a ${header.type}; packages hold regular files only`);
      }
      if (files.has(name)) throw new PackageError(`package entry "${raw}" appears twice`);
      if (files.size + 1 > max.maxFiles) throw new PackageError(`the package holds more than ${max.maxFiles} files`);
      const size = header.size ?? 0;
      if (size > max.maxFileBytes) throw new PackageError(`package entry "${raw}" is ${size} bytes; the limit per file is ${max.maxFileBytes}`);
      total += size;
      if (total > max.maxUnpackedBytes) throw new PackageError(`the package unpacks to more than ${max.maxUnpackedBytes} bytes`);
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      files.set(name, Buffer.concat(chunks));
    }
  } catch (err) {
    extract.destroy();
    if (err instanceof PackageError) throw err;
    throw new PackageError(`the package is not a valid tar archive: ${(err as Error).message}`);
  }
  return files;
}
