/**
 * Where package bytes live. The registry addresses blobs by their sha256, so a blob is written once
 * and never changed; whoever reads one checks the hash again (a disk or a bucket can rot or be
 * tampered with). The filesystem store is the default (DATA_DIR/registry); an object store would
 * implement the same three methods.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface BlobStore {
  /** Stores `data` under `sha256` (idempotent: the same key always holds the same bytes). */
  put(sha256: string, data: Buffer): Promise<void>;
  /** The bytes stored under `sha256`, or undefined when there are none. */
  get(sha256: string): Promise<Buffer | undefined>;
  /** Where a blob lives, for operators and tests (e.g. a file path). */
  locate(sha256: string): string;
}

const SHA256 = /^[0-9a-f]{64}$/;

function checkKey(sha256: string): void {
  // The key becomes a file name: only a hex digest may reach the filesystem.
  if (!SHA256.test(sha256)) throw new Error(`blob key must be a sha256 hex digest, got "${sha256.slice(0, 80)}"`);
}

export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  locate(sha256: string): string {
    checkKey(sha256);
    // Two-character fan-out keeps directories small with many packages.
    return path.join(this.root, sha256.slice(0, 2), `${sha256}.tgz`);
  }

  async put(sha256: string, data: Buffer): Promise<void> {
    const file = this.locate(sha256);
    if (await fs.stat(file).then((s) => s.size === data.length, () => false)) return;
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Write then rename: a reader never sees half a package, and a crash leaves only a temp file.
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, data, { mode: 0o644 });
    await fs.rename(tmp, file);
  }

  async get(sha256: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.locate(sha256));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }
}
