/** orders operations: bulk status and cancel, CSV import and export. */
import { operation, Type } from '../../../../sdk';
import { BulkOutcome, ExportPage, ImportProgress, ImportStarted, ImportView } from '../outputs';
import { BulkOrderRefs, CsvRow, recordInput, RecordId, StatusChangeProps, Upload } from '../schemas';
import { bulkCancel, bulkStatus } from '../bulk-actions';
import { exportPage } from '../bulk-export';
import { cancelImport, getImport, importChunk, startImport, type ChunkInput } from '../bulk-import';

const ImportInput = recordInput('import_id', RecordId);

export const bulkOperations = {
  bulk_status: operation({
    description:
      'Moves many orders to one status; each order in its own transaction under the single-order transition rules, order.status_changed once per changed order; per-order results.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ order_ids: BulkOrderRefs, ...StatusChangeProps }, { additionalProperties: false }),
    output: BulkOutcome,
    http: { method: 'POST', path: '/orders/bulk/status' },
    handler: bulkStatus,
  }),
  bulk_cancel: operation({
    description: 'Cancels many orders with one reason; each on its own, per-order results.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      { order_ids: BulkOrderRefs, reason: Type.String({ minLength: 1, maxLength: 500 }) },
      { additionalProperties: false },
    ),
    output: BulkOutcome,
    http: { method: 'POST', path: '/orders/bulk/cancel' },
    handler: bulkCancel,
  }),
  start_import: operation({
    description:
      'Queues a CSV import (multipart: file, source): 202 {import_id, status}. Chunks of 500 rows, idempotent upsert by order_number, progress pushed as .orders.import.progress.',
    permission: 'orders.create',
    ai_tool: false,
    input: Type.Object({ upload: Upload, source: Type.Optional(Type.String({ maxLength: 100 })) }, { additionalProperties: false }),
    output: ImportStarted,
    http: {
      method: 'POST',
      path: '/orders/bulk/import',
      success_status: 202,
      upload: {
        field: 'file',
        max_bytes: 104857600,
        accept: ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'],
      },
    },
    handler: startImport,
  }),
  get_import: operation({
    description: 'Status of an import: counts, errors with line numbers (first 100, with error_count), timestamps.',
    permission: 'orders.view',
    ai_tool: false,
    input: ImportInput,
    output: ImportView,
    http: { method: 'GET', path: '/orders/bulk/import/:import_id' },
    handler: getImport,
  }),
  cancel_import: operation({
    description: 'Asks a queued or running import to stop before its next chunk.',
    permission: 'orders.create',
    ai_tool: false,
    input: ImportInput,
    output: ImportView,
    http: { method: 'POST', path: '/orders/bulk/import/:import_id/cancel', success_status: 200 },
    handler: cancelImport,
  }),
  import_chunk: operation({
    description: "Called by the host's CSV job (files.process_csv): one chunk of rows, or the end of the import. Not routed.",
    permission: 'orders.create',
    ai_tool: false,
    input: Type.Object(
      {
        phase: Type.StringEnum(['chunk', 'end']),
        context: Type.Object({ import_id: Type.String() }, { additionalProperties: false }),
        job_id: Type.Optional(Type.String()),
        chunk_index: Type.Optional(Type.Integer({ minimum: 0 })),
        header: Type.Optional(Type.Array(Type.String())),
        rows: Type.Optional(Type.Array(CsvRow, { maxItems: 1000 })),
        total_rows: Type.Optional(Type.Nullable(Type.Integer())),
        rows_read: Type.Optional(Type.Integer()),
        status: Type.Optional(Type.StringEnum(['completed', 'cancelled', 'failed'])),
        error: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    output: ImportProgress,
    // The host's CSV job sends one of two shapes by phase, which the one flat schema cannot tell apart.
    handler: (input, ctx) => importChunk(input as ChunkInput, ctx),
  }),
  export_page: operation({
    description:
      'One page of the CSV export (POST /orders/bulk/export, streamed by the host): filters {status, payment_status, source, date_from, date_to}, columns; keyset cursor on order_number.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        filters: Type.Optional(
          Type.Object(
            {
              status: Type.Optional(Type.Unsafe<string | string[]>({ type: ['string', 'array'], items: { type: 'string' } })),
              payment_status: Type.Optional(Type.Unsafe<string | string[]>({ type: ['string', 'array'], items: { type: 'string' } })),
              source: Type.Optional(Type.String({ maxLength: 100 })),
              date_from: Type.Optional(Type.String({ maxLength: 40 })),
              date_to: Type.Optional(Type.String({ maxLength: 40 })),
            },
            { additionalProperties: false },
          ),
        ),
        columns: Type.Optional(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 50 })),
        cursor: Type.Optional(Type.Nullable(Type.String({ maxLength: 100 }))),
      },
      { additionalProperties: false },
    ),
    output: ExportPage,
    http: {
      method: 'POST',
      path: '/orders/bulk/export',
      stream: { format: 'csv', timeout_s: 300, concurrency: 2 },
    },
    handler: exportPage,
  }),
};
