/**
 * Downloads a release archive to a private temporary folder while hashing it, showing progress on a
 * terminal. The SHA-256 must match the manifest's (Client releases rules 2 and 6): a mismatch, a
 * missing checksum or a short body leaves nothing behind but the removed temporary folder.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReleaseAsset } from './release-manifest';
import { fromFsError, serverError } from './errors';
import { classify, get, type Credentials } from './release-http';

export interface Downloaded {
  dir: string;
  file: string;
  bytes: number;
  cleanup(): Promise<void>;
}

export type ProgressFn = (done: number, total: number | undefined) => void;

export async function downloadVerified(asset: ReleaseAsset, credentials: Credentials | undefined, onProgress: ProgressFn): Promise<Downloaded> {
  if (!asset.sha256) throw serverError(`${asset.filename} has no sha256 in the manifest, so it cannot be verified; not installing it`);
  const fetched = await get(asset.url, { credentials });
  const { response } = fetched;
  if (response.status === 404) {
    fetched.done();
    throw serverError(`${asset.filename} was not found at the release source (404)`);
  }
  if (response.status !== 200 || !response.body) {
    fetched.done();
    throw serverError(`downloading ${asset.filename}: the server answered ${response.status}`);
  }
  const total = Number(response.headers.get('content-length')) || asset.size;
  let dir: string;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-upgrade-'));
  } catch (err) {
    fetched.done();
    throw fromFsError(err, 'creating a temporary folder');
  }
  const cleanup = () => rm(dir, { recursive: true, force: true });
  const file = path.join(dir, asset.filename);
  const hash = createHash('sha256');
  let bytes = 0;
  try {
    // Hash and count on the way to disk, in large chunks: a release is a whole Node binary (~120 MB).
    const meter = new Transform({
      transform(chunk: Buffer, _enc, next) {
        fetched.alive();
        hash.update(chunk);
        bytes += chunk.length;
        onProgress(bytes, total);
        next(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), meter, createWriteStream(file, { mode: 0o600, highWaterMark: 1 << 20 }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code && (err as NodeJS.ErrnoException).syscall) throw err;
      throw classify(err, fetched.url);
    }
    fetched.done();
    const digest = hash.digest('hex');
    if (digest !== asset.sha256) {
      throw serverError(`checksum mismatch for ${asset.filename}: expected ${asset.sha256}, got ${digest} (${bytes} bytes); nothing was changed`);
    }
    return { dir, file, bytes, cleanup };
  } catch (err) {
    fetched.done();
    await cleanup();
    throw (err as Error).name === 'UpgradeError' ? err : fromFsError(err, `writing ${file}`);
  }
}
