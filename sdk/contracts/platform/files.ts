/**
 * Uploads read by the module that received them (core/services/bulk/upload-operations.ts) and CSV files
 * streamed to its own operations in chunks (core/services/bulk/csv-jobs.ts).
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';
import { JsonObject } from './schemas';

/** Largest piece of an upload one files.read_upload answers. */
export const MAX_READ_BYTES = 1024 * 1024;
/** Rows per chunk call at most. */
export const MAX_CHUNK = 500;
export const MAX_TIMEOUT_S = 600;
/** Chunk calls of one job in flight at once: database work of one chunk overlaps the next one's guest work. */
export const MAX_PARALLEL = 2;

const UploadId = Type.String({ minLength: 1, maxLength: 100 });

export const filesReadUpload = coreContract({
  name: 'files.read_upload',
  description: 'Reads a piece (at most 1 MB) of an upload the calling module received in this tenant, as base64.',
  input: Type.Object(
    { upload_id: UploadId, offset: Type.Optional(Type.Integer({ minimum: 0 })), length: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_READ_BYTES })) },
    { additionalProperties: false },
  ),
  output: Type.Object({ data: Type.String(), offset: Type.Integer(), length: Type.Integer(), size: Type.Integer(), eof: Type.Boolean() }),
  public: true,
});

export const filesRemoveUpload = coreContract({
  name: 'files.remove_upload',
  description: 'Deletes an upload the calling module received in this tenant, once it is done with it.',
  input: Type.Object({ upload_id: UploadId }, { additionalProperties: false }),
  output: Type.Object({ removed: Type.Boolean() }),
  public: true,
});

export const filesProcessCsv = coreContract({
  name: 'files.process_csv',
  description: "Queues a job that streams an uploaded CSV file to one of the calling module's own operations in chunks of at most 500 rows (see core/services/bulk/csv-jobs.ts).",
  input: Type.Object(
    {
      upload_id: Type.String({ minLength: 1, maxLength: 100 }),
      operation: Type.String({ pattern: '^[a-z][a-z0-9_]*\\.[A-Za-z0-9_]+$', description: "one of the calling module's own operations" }),
      job_id: Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$', description: "the module's id for the job (e.g. its import id); adding the same id twice queues one job" }),
      context: Type.Optional(JsonObject({ description: 'passed back unchanged to every call' })),
      chunk_size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CHUNK, default: MAX_CHUNK })),
      group_by: Type.Optional(Type.String({ maxLength: 100, description: 'column whose consecutive equal values stay in one chunk' })),
      timeout_s: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TIMEOUT_S, default: MAX_TIMEOUT_S })),
      parallel: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_PARALLEL, default: 1, description: 'chunk calls of this job in flight at once; more than 1 only when chunks may be written concurrently' }),
      ),
      progress_event: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+$', description: "realtime event name, in the module's own namespace (<alias>.…)" })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ job_id: Type.String(), queue_job_id: Type.String(), status: Type.StringEnum(['queued']) }),
  public: true,
});
