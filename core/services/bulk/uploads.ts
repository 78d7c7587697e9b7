/**
 * Upload store for manifest routes that declare `upload` (bulk CSV import): the multipart body is
 * parsed with busboy as it arrives and the file streamed to DATA_DIR/uploads/<tenant>/<uuid>, never
 * buffered whole and never handed to the sandbox. The module receives only
 * `upload: {id, filename, size, content_type}` and the other form fields, and passes the id to a
 * core operation (files.process_csv) that reads the file in the host.
 *
 * Each upload has a sidecar `<uuid>.json` naming the module that received it, so only that module
 * can use it. Uploads are removed when their job ends, when the route's operation fails, and by age
 * (MAX_AGE_MS) for any that were never used.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import type { RouteUpload } from '../../../sdk/manifest/manifest.types';
import { ValidationError } from '../../kernel/errors';
import { bulkErrors } from './errors';

export interface UploadInfo {
  id: string;
  filename: string;
  size: number;
  content_type: string;
}

interface UploadMeta extends UploadInfo {
  module: string;
  created_at: string;
}

/** Uploads older than this are deleted by the sweep even when no job ever used them. */
export const MAX_AGE_MS = 24 * 3600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 10_000;

export class UploadStore {
  constructor(private readonly root: string) {}

  private dir(tenantId: string) {
    return path.join(this.root, tenantId);
  }

  /**
   * Reads the route's multipart body: the file to disk, the other fields as strings. Throws 415
   * when the body is not multipart or the file's type is not accepted, 413 over max_bytes, 422
   * when the file is missing or empty. Nothing is left on disk when it throws.
   */
  async receive(req: Request, tenantId: string, module: string, spec: RouteUpload): Promise<{ upload: UploadInfo; fields: Record<string, string> }> {
    if (!req.is('multipart/form-data')) {
      throw bulkErrors.notMultipart(spec.field);
    }
    await fs.promises.mkdir(this.dir(tenantId), { recursive: true });
    const id = randomUUID();
    const file = path.join(this.dir(tenantId), id);
    const fields: Record<string, string> = {};
    let info: UploadInfo | undefined;
    let failure: Error | undefined;
    const writes: Promise<void>[] = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { files: 1, fileSize: spec.max_bytes, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES } });
    } catch (err) {
      throw bulkErrors.unreadable((err as Error).message);
    }
    const fail = (err: Error) => (failure ??= err);
    parser.on('field', (name, value, meta) => {
      if (meta.valueTruncated) fail(new ValidationError({ [name]: [`The ${name} field is longer than ${MAX_FIELD_BYTES} bytes.`] }));
      else fields[name] = value;
    });
    parser.on('file', (name, stream, meta) => {
      const type = meta.mimeType.toLowerCase();
      if (name !== spec.field || info) {
        stream.resume();
        if (name !== spec.field) fail(new ValidationError({ [name]: [`Unexpected file field "${name}"; send the file as "${spec.field}".`] }));
        return;
      }
      if (spec.accept && !spec.accept.includes(type)) {
        stream.resume();
        fail(bulkErrors.fileType(spec.accept, type));
        return;
      }
      const current: UploadInfo = { id, filename: path.basename(meta.filename || 'upload'), size: 0, content_type: type };
      info = current;
      stream.on('data', (chunk: Buffer) => (current.size += chunk.length));
      stream.on('limit', () => fail(bulkErrors.fileTooLarge(spec.max_bytes)));
      writes.push(pipeline(stream, fs.createWriteStream(file)).catch((err: Error) => void fail(err)));
    });
    try {
      await new Promise<void>((resolve, reject) => {
        parser.on('close', resolve);
        parser.on('error', (err: Error) => reject(bulkErrors.unreadable(err.message)));
        req.pipe(parser);
      });
      await Promise.all(writes);
      if (failure) throw failure;
      if (!info) throw new ValidationError({ [spec.field]: [`The ${spec.field} field must be a file.`] });
      if (info.size === 0) throw new ValidationError({ [spec.field]: ['The file is empty.'] });
      const meta: UploadMeta = { ...info, module, created_at: new Date().toISOString() };
      await fs.promises.writeFile(`${file}.json`, JSON.stringify(meta));
      return { upload: info, fields };
    } catch (err) {
      req.unpipe(parser);
      req.resume(); // drain what the client still sends, so it reads our answer
      await this.remove(tenantId, id);
      throw err;
    }
  }

  /** The file of an upload the module received in this tenant, or a 404/403 error. */
  async open(tenantId: string, module: string, id: string): Promise<{ path: string; info: UploadInfo }> {
    const missing = bulkErrors.uploadMissing(id);
    if (!UUID.test(id)) throw missing;
    let meta: UploadMeta;
    try {
      meta = JSON.parse(await fs.promises.readFile(path.join(this.dir(tenantId), `${id}.json`), 'utf8')) as UploadMeta;
    } catch {
      throw missing;
    }
    if (meta.module !== module) throw bulkErrors.otherModulesUpload(id);
    const { module: _m, created_at: _c, ...info } = meta;
    return { path: path.join(this.dir(tenantId), id), info };
  }

  async remove(tenantId: string, id: string): Promise<void> {
    if (!UUID.test(id)) return;
    const file = path.join(this.dir(tenantId), id);
    await Promise.all([fs.promises.rm(file, { force: true }), fs.promises.rm(`${file}.json`, { force: true })]);
  }

  /** Deletes uploads older than maxAgeMs in every tenant; returns how many files went. */
  async sweep(maxAgeMs = MAX_AGE_MS, now = Date.now()): Promise<number> {
    let removed = 0;
    const tenants = await fs.promises.readdir(this.root).catch(() => [] as string[]);
    for (const tenant of tenants) {
      const dir = this.dir(tenant);
      for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
        const stat = await fs.promises.stat(path.join(dir, name)).catch(() => undefined);
        if (stat && now - stat.mtimeMs > maxAgeMs) {
          await fs.promises.rm(path.join(dir, name), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
