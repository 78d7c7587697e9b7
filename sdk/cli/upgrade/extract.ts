/**
 * Takes the executable out of a release archive (Client releases rule 2, "extract the executable"):
 * the regular file named `mandi` (`mandi.exe` on Windows) at any depth of a .tar.gz or .zip. Nothing
 * else in the archive is written anywhere, so a hostile archive cannot place files by path.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { CLI_NAME } from './release-manifest';
import { serverError } from './errors';

export const executableName = (platform: string = process.platform) => (platform === 'win32' ? `${CLI_NAME}.exe` : CLI_NAME);

const isExecutableEntry = (name: string, wanted: string) => name.replace(/\\/g, '/').split('/').pop() === wanted;

/** Writes the executable from `archive` to `dest` (created with mode 0755); throws when there is none. */
export async function extractExecutable(archive: string, dest: string, platform: string = process.platform): Promise<void> {
  const wanted = executableName(platform);
  const found = archive.toLowerCase().endsWith('.zip') ? await fromZip(archive, dest, wanted) : await fromTarGz(archive, dest, wanted);
  if (!found) throw serverError(`the archive holds no ${wanted}`);
}

async function fromTarGz(archive: string, dest: string, wanted: string): Promise<boolean> {
  const extract = tar.extract();
  let found = false;
  extract.on('entry', (header, stream, next) => {
    if (!found && header.type === 'file' && isExecutableEntry(header.name, wanted)) {
      found = true;
      pipeline(stream, createWriteStream(dest, { mode: 0o755, highWaterMark: 1 << 20 })).then(() => next(), next);
    } else {
      stream.on('end', () => next());
      stream.resume();
    }
  });
  try {
    await pipeline(createReadStream(archive, { highWaterMark: 1 << 20 }), zlib.createGunzip({ chunkSize: 1 << 20 }), extract);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code?.startsWith('E') && (err as NodeJS.ErrnoException).syscall) throw err;
    throw serverError(`the archive is damaged: ${(err as Error).message}`);
  }
  return found;
}

/**
 * A zip is read from its central directory (the authoritative list), then the one entry's local
 * header; stored (0) and deflated (8) entries are supported, which is what release tooling writes.
 */
async function fromZip(archive: string, dest: string, wanted: string): Promise<boolean> {
  const buf = await readFile(archive);
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > buf.length) throw serverError('the zip archive has no end-of-central-directory record');
  const entries = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) throw serverError('the zip central directory is damaged');
    const method = buf.readUInt16LE(at + 10);
    const compressedSize = buf.readUInt32LE(at + 20);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const localOffset = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/') || !isExecutableEntry(name, wanted)) continue;
    if (buf.readUInt32LE(localOffset) !== 0x04034b50) throw serverError('the zip local header is damaged');
    const dataStart = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    const data = buf.subarray(dataStart, dataStart + compressedSize);
    if (method !== 0 && method !== 8) throw serverError(`the zip entry ${name} uses compression method ${method}, which is not supported`);
    const body = method === 0 ? Readable.from([data]) : Readable.from([data]).pipe(zlib.createInflateRaw());
    const file = await open(dest, 'w', 0o755);
    try {
      await pipeline(body, file.createWriteStream());
    } catch (err) {
      throw serverError(`the zip entry ${name} is damaged: ${(err as Error).message}`);
    }
    return true;
  }
  return false;
}
