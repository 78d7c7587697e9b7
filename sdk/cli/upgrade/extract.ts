/**
 * Takes the executable out of a release archive (Client releases rule 2, "extract the executable"):
 * the regular file named `mandi` (`mandi.exe` on Windows) at any depth of a .tar.gz or .zip. Nothing
 * else in the archive is written anywhere, so a hostile archive cannot place files by path.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import yauzl from 'yauzl';
import { CLI_NAME } from './release-manifest';
import { UpgradeError, serverError } from './errors';

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
    throw damagedUnlessFs(err, 'the archive is damaged');
  }
  return found;
}

/**
 * A zip is read by yauzl from its central directory (the authoritative list, ZIP64 included), and
 * only the one entry is streamed out; the archive is never held in memory whole.
 */
async function fromZip(archive: string, dest: string, wanted: string): Promise<boolean> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archive, { lazyEntries: true });
  } catch (err) {
    throw damagedUnlessFs(err, 'the zip archive is damaged');
  }
  try {
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith('/') || !isExecutableEntry(entry.fileName, wanted)) continue;
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) throw serverError(`the zip entry ${entry.fileName} uses compression method ${entry.compressionMethod}, which is not supported`);
      try {
        await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(dest, { mode: 0o755, highWaterMark: 1 << 20 }));
      } catch (err) {
        throw damagedUnlessFs(err, `the zip entry ${entry.fileName} is damaged`);
      }
      return true;
    }
    return false;
  } catch (err) {
    throw damagedUnlessFs(err, 'the zip central directory is damaged');
  } finally {
    zip.close();
  }
}

/** A file-system failure stays itself (exit 1 upstream); anything else the archive did is a server error. */
function damagedUnlessFs(err: unknown, what: string): Error {
  if (err instanceof UpgradeError || ((err as NodeJS.ErrnoException).code?.startsWith('E') && (err as NodeJS.ErrnoException).syscall)) return err as Error;
  return serverError(`${what}: ${(err as Error).message}`);
}
