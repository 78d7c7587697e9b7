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
import { once } from 'node:events';
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
    const out = createWriteStream(file, { mode: 0o600 });
    const reader = response.body.getReader();
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          throw classify(err, fetched.url);
        }
        if (chunk.done) break;
        fetched.alive();
        hash.update(chunk.value);
        bytes += chunk.value.length;
        onProgress(bytes, total);
        if (!out.write(chunk.value)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'close').catch(() => undefined);
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
