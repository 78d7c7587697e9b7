/**
 * Uploads read by the module that received them (e.g. the ai module's speech-to-text: a recorded
 * file sent on to a speech vendor). Public core operations, each acting only on an upload the
 * calling module received in the call's tenant (UploadStore.open: another module's → 403, another
 * tenant's or an unknown id → 404):
 *   files.read_upload   {upload_id, offset?, length? (≤ 1 MB)} → {data (base64), offset, length, size, eof}
 *   files.remove_upload {upload_id} → {removed}
 * Bytes cross as base64 (everything between a module and the host is JSON); a bounded piece per
 * call keeps each crossing small, so a module holds no more of a file than it asks for.
 */
import fs from 'node:fs';
import { filesReadUpload, filesRemoveUpload, MAX_READ_BYTES } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { forbidden } from '../../kernel/errors';
import type { UploadStore } from './uploads';

export function registerUploadOperations(bus: Bus, uploads: UploadStore): void {
  bus.registerCore(defineCoreOperation(filesReadUpload, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('files.read_upload is called by modules, on their own uploads.');
    const { path } = await uploads.open(ctx.tenantId, caller.alias, input.upload_id);
    const file = await fs.promises.open(path, 'r');
    try {
      const size = (await file.stat()).size;
      const offset = Math.min(input.offset ?? 0, size);
      const buffer = Buffer.alloc(Math.min(input.length ?? MAX_READ_BYTES, size - offset));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      return { data: buffer.subarray(0, bytesRead).toString('base64'), offset, length: bytesRead, size, eof: offset + bytesRead >= size };
    } finally {
      await file.close();
    }
  }));

  bus.registerCore(defineCoreOperation(filesRemoveUpload, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('files.remove_upload is called by modules, on their own uploads.');
    await uploads.open(ctx.tenantId, caller.alias, input.upload_id);
    await uploads.remove(ctx.tenantId, input.upload_id);
    return { removed: true };
  }));
}
