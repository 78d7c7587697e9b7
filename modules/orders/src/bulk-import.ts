/**
 * Bulk CSV import (spec 3 Bulk operations; Limits: chunks of 500 rows, queue timeout 600 s).
 *
 * POST /orders/bulk/import receives the file in the host (route `upload`); `start_import` records an
 * OrderImport and asks the core operation `files.process_csv` to stream the file back to
 * `import_chunk` in chunks of ≤ 500 rows (rows of one order kept together), on the import queue.
 * Each chunk is written in one transaction with multi-row statements: existing orders are looked up
 * by number once, new and changed orders upserted in one statement, their items replaced in one,
 * history rows and the import's counters written alongside. Row errors (with line numbers) never
 * stop valid rows. Cancel is a flag read before each chunk. Progress: the import record, pushed by
 * the host as `.orders.import.progress` on the requester's private-user channel after each chunk.
 *
 * Idempotency: each imported order keeps `import_hash` = `<import id>:<content hash>:<version>`.
 * Same content → the order is left untouched (counted unchanged). Different content → updated,
 * unless the order was changed since by anything but an import (its version moved on) or was not
 * imported at all: then the row is reported, the order kept.
 *
 * Events: one `order.imported` summary per import instead of one order.created per row (a 100,000
 * row file would otherwise flood webhooks and workflows).
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { invalidStatus, notFound, ordersErrors } from './errors';
import { groupRows, IMPORT_COLUMNS, missingColumns, type CsvRow, type ImportGroup, type RowError } from './import-rows';
import { actorOf, inTransaction, nowIso, UUID_RE, type AnyDb } from './store';

export const MAX_ERRORS_KEPT = 100;
const TERMINAL = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

type ImportRow = {
  id: string;
  status: string;
  source: string;
  filename: string | null;
  file_size: number | null;
  total_rows: number;
  processed_rows: number;
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  error_count: number;
  errors: RowError[];
  failure_reason: string | null;
  requested_by: string | null;
  cancel_requested_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  created_at: string;
};

type Existing = { id: string; order_number: string; version: number; import_hash: string | null };

export function importView(row: ImportRow) {
  return {
    import_id: row.id,
    status: row.status,
    source: row.source,
    filename: row.filename,
    file_size: row.file_size,
    total_rows: row.total_rows,
    processed_rows: row.processed_rows,
    created: row.created,
    updated: row.updated,
    unchanged: row.unchanged,
    failed: row.failed,
    errors: row.errors,
    error_count: row.error_count,
    errors_truncated: row.error_count > row.errors.length,
    failure_reason: row.failure_reason,
    cancel_requested: row.cancel_requested_at !== null,
    started_at: row.started_at,
    finished_at: row.finished_at,
    created_at: row.created_at,
  };
}

async function loadImport(db: AnyDb, id: string): Promise<ImportRow> {
  const row = UUID_RE.test(id) ? await db.findOne<ImportRow>('OrderImport', { where: { id: id.toLowerCase() } }) : null;
  if (!row) throw notFound('Import', id);
  return row;
}

type StartInput = { upload: { id: string; filename: string; size: number; content_type: string }; source?: string };

export async function startImport(input: StartInput, ctx: HandlerContext) {
  const at = nowIso(ctx);
  const row = await ctx.host.db.create<ImportRow>('OrderImport', {
    status: 'queued',
    source: input.source?.trim() || 'csv_import',
    filename: input.upload.filename,
    file_size: input.upload.size,
    requested_by: actorOf(ctx),
    errors: [],
    created_at: at,
  });
  try {
    await ctx.host.call('files.process_csv', {
      upload_id: input.upload.id,
      operation: 'orders.import_chunk',
      job_id: row.id,
      context: { import_id: row.id },
      chunk_size: 500,
      group_by: 'order_number',
      timeout_s: 600,
      progress_event: 'orders.import.progress',
      parallel: 2,
    });
  } catch (err) {
    await ctx.host.db.update<ImportRow>('OrderImport', { status: 'failed', failure_reason: (err as Error).message, finished_at: nowIso(ctx) }, { where: { id: row.id } });
    throw err;
  }
  return { import_id: row.id, status: 'queued' };
}

export async function getImport(input: { import_id: string }, ctx: HandlerContext) {
  const row = await loadImport(ctx.host.db, input.import_id);
  return importView(await withTotals(ctx.host.db, row, true));
}

type ChunkRow = { import_id: string; chunk_index: number; rows: number; created: number; updated: number; unchanged: number; failed: number; error_count: number; errors?: RowError[] };
const COUNTERS = ['rows', 'created', 'updated', 'unchanged', 'failed', 'error_count'] as const;

/**
 * While an import runs its counters are the sum of its chunk rows (chunks may be written two at a
 * time, so none of them can safely rewrite shared counters); once it has ended they are on the row.
 */
async function withTotals(db: AnyDb, row: ImportRow, withErrors: boolean): Promise<ImportRow> {
  if (TERMINAL.includes(row.status) && row.finished_at) return row;
  const sums = { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0, error_count: 0 };
  const errors: RowError[] = [];
  for (let offset = 0; ; offset += 1000) {
    const chunks = await db.find<ChunkRow>('OrderImportChunk', {
      where: { import_id: row.id },
      order: [['chunk_index', 'ASC']],
      attributes: ['chunk_index', ...COUNTERS, ...(withErrors ? (['errors'] as const) : [])],
      limit: 1000,
      offset,
    });
    for (const c of chunks) {
      for (const k of COUNTERS) sums[k] += c[k];
      if (c.errors && errors.length < MAX_ERRORS_KEPT) errors.push(...c.errors.slice(0, MAX_ERRORS_KEPT - errors.length));
    }
    if (chunks.length < 1000) break;
  }
  const { rows, ...rest } = sums;
  return { ...row, ...rest, processed_rows: rows, ...(withErrors ? { errors } : {}) };
}

export async function cancelImport(input: { import_id: string }, ctx: HandlerContext) {
  const row = await loadImport(ctx.host.db, input.import_id);
  if (TERMINAL.includes(row.status)) throw invalidStatus(`Import ${row.id} has already ended (${row.status}).`, row.status);
  const at = nowIso(ctx);
  await ctx.host.db.update<ImportRow>('OrderImport', { cancel_requested_at: at }, { where: { id: row.id, cancel_requested_at: null } });
  return importView(await withTotals(ctx.host.db, { ...row, cancel_requested_at: row.cancel_requested_at ?? at }, true));
}

export type ChunkInput =
  | { phase: 'chunk'; context: { import_id: string }; job_id: string; chunk_index: number; header: string[]; rows: CsvRow[]; total_rows: number | null }
  | { phase: 'end'; context: { import_id: string }; job_id: string; status: 'completed' | 'cancelled' | 'failed'; error?: string; rows_read: number; total_rows: number };

/**
 * Called by the host's CSV job for every chunk (two may run at once), then once at the end. Each
 * chunk writes its orders and its own OrderImportChunk row (counts, first errors) in one
 * transaction; a chunk written again (the job re-run after a restart) replaces its row.
 */
export async function importChunk(input: ChunkInput, ctx: HandlerContext) {
  const db = ctx.host.db;
  if (input.phase === 'end') return finish(await loadImport(db, input.context.import_id), input, ctx);
  if (input.chunk_index === 0) {
    const missing = missingColumns(input.header);
    if (missing.length) throw ordersErrors.invalidFile(missing, IMPORT_COLUMNS);
  }
  const at = nowIso(ctx);
  const { groups, errors, failedRows } = groupRows(input.header, input.rows);
  // The import row is read inside the chunk's transaction: one round trip fewer per chunk.
  const current = await inTransaction(db, async (tx) => {
    const row = await loadImport(tx, input.context.import_id);
    if (row.cancel_requested_at || TERMINAL.includes(row.status)) return { ...row, stopped: true };
    const written = await writeGroups(tx, groups, row.id, row.source, at, actorOf(ctx));
    const allErrors = [...errors, ...written.errors].sort((a, b) => a.line - b.line);
    const chunk = {
      import_id: row.id,
      chunk_index: input.chunk_index,
      rows: input.rows.length,
      created: written.created,
      updated: written.updated,
      unchanged: written.unchanged,
      failed: failedRows + written.failedRows,
      error_count: allErrors.length,
      errors: allErrors.slice(0, MAX_ERRORS_KEPT),
    };
    await tx.bulkCreate('OrderImportChunk', [chunk], { upsert: { conflictFields: ['import_id', 'chunk_index'] }, returning: false });
    // Only what this chunk owns: a cancel request written meanwhile must survive.
    if (!row.started_at) await tx.update<ImportRow>('OrderImport', { status: 'processing', started_at: at }, { where: { id: row.id, started_at: null } });
    if (input.total_rows && input.total_rows !== row.total_rows) await tx.update<ImportRow>('OrderImport', { total_rows: input.total_rows }, { where: { id: row.id } });
    // Progress as this transaction sees it (its own chunk and every committed one), read before
    // commit: no separate round trip.
    const latest = { ...row, status: 'processing', started_at: row.started_at ?? at, total_rows: input.total_rows ?? row.total_rows };
    return { ...(await withTotals(tx, latest, false)), stopped: false };
  });
  if (current.stopped) return { cancelled: true, progress: importView(await withTotals(db, current, false)) };
  return { cancelled: false, progress: importView(current) };
}

const ORDER_UPDATE_FIELDS = [
  'status', 'payment_status', 'customer_id', 'customer', 'customer_name', 'subtotal', 'discount', 'tax_total', 'total', 'total_paid', 'balance_due',
  'tax_details', 'notes', 'source', 'version', 'import_hash', 'updated_at',
];

/** Writes a chunk's orders: look up, upsert in one statement, replace items, history. */
async function writeGroups(tx: DbTransaction, groups: ImportGroup[], importId: string, source: string, at: string, actor: string) {
  const result = { created: 0, updated: 0, unchanged: 0, failedRows: 0, errors: [] as RowError[] };
  if (!groups.length) return result;
  const found = await tx.find<Existing>('Order', {
    where: { order_number: { $in: groups.map((g) => g.order_number) } },
    attributes: ['id', 'order_number', 'version', 'import_hash'],
    limit: 1000,
  });
  const existing = new Map(found.map((o) => [o.order_number, o]));
  const writes: Array<{ group: ImportGroup; isNew: boolean; version: number }> = [];
  for (const group of groups) {
    const ex = existing.get(group.order_number);
    if (!ex) {
      writes.push({ group, isNew: true, version: 1 });
      continue;
    }
    const [fromImport, hash, version] = (ex.import_hash ?? '').split(':');
    const skip = (message: string) => {
      result.errors.push({ line: group.lines[0]!, field: 'order_number', message });
      result.failedRows += group.lines.length;
    };
    // Written by an earlier run of this same import (its job re-run after a restart): count it as then.
    if (hash === group.hash && fromImport === importId) {
      if (Number(version) === 1) result.created++;
      else result.updated++;
    } else if (hash === group.hash) result.unchanged++;
    else if (fromImport === importId) skip(`rows of order ${group.order_number} must be consecutive (it appeared earlier in this file)`);
    else if (!ex.import_hash || Number(version) !== ex.version) skip(`order ${group.order_number} already exists and was changed outside an import; it was not overwritten`);
    else writes.push({ group, isNew: false, version: ex.version + 1 });
  }
  if (!writes.length) return result;
  // Columns whose table defaults are right for an imported order (fulfilment unfulfilled, INR, not
  // COD, intra-state, no shipping charge, no custom fields) are left to them: less to carry per row.
  const orderRows = writes.map(({ group, version }) => ({
    order_number: group.order_number,
    ...group.order,
    // Derived, so not in the content hash: files imported before the column existed stay unchanged.
    customer_name: group.order.customer.name ?? null,
    tax_details: { imported: true, same_state: true, cgst: '0.00', sgst: '0.00', igst: '0.00', total_tax: group.order.tax_total },
    source,
    version,
    import_hash: `${importId}:${group.hash}:${version}`,
    created_at: at,
    updated_at: at,
  }));
  const stored = await tx.bulkCreate<Record<string, unknown> & { id: string }>('Order', orderRows, { upsert: { conflictFields: ['order_number'], updateFields: ORDER_UPDATE_FIELDS }, returning: ['id'] });
  const ids = stored.map((o) => o.id);
  // Changed orders get their items replaced. Were a "new" order inserted meanwhile by a concurrent
  // import, its items would collide on (order_id, position): DB_CONFLICT, and inTransaction runs the
  // chunk again, which then finds the order and takes the update path.
  const replaced = ids.filter((_, i) => !writes[i]!.isNew);
  if (replaced.length) await tx.destroy('OrderItem', { where: { order_id: { $in: replaced } } });
  const items = writes.flatMap(({ group }, i) =>
    // discount and the tax amounts are left to their 0 defaults.
    group.items.map((item) => ({ ...item, order_id: ids[i], tax_rate: '0', rate_source: 'import', total: item.taxable_amount })),
  );
  for (let i = 0; i < items.length; i += 1000) await tx.bulkCreate('OrderItem', items.slice(i, i + 1000), { returning: false });
  const history = writes.map(({ group, isNew }, i) => ({ order_id: ids[i], from_status: null, to_status: group.order.status, reason: isNew ? 'imported' : 'reimported', actor, created_at: at }));
  await tx.bulkCreate('StatusChange', history, { returning: false });
  const created = writes.filter((w) => w.isNew).length;
  result.created += created;
  result.updated += writes.length - created;
  return result;
}

async function finish(row: ImportRow, input: Extract<ChunkInput, { phase: 'end' }>, ctx: HandlerContext) {
  const current = await withTotals(ctx.host.db, row, true);
  const status = input.status === 'completed' ? (current.error_count > 0 ? 'completed_with_errors' : 'completed') : input.status;
  const at = nowIso(ctx);
  const { processed_rows, created, updated, unchanged, failed, error_count, errors } = current;
  const changes: Partial<ImportRow> = {
    status, finished_at: at, total_rows: input.total_rows, failure_reason: input.error ?? null,
    processed_rows, created, updated, unchanged, failed, error_count, errors,
  };
  if (!current.started_at) changes.started_at = at;
  await ctx.host.db.update<ImportRow>('OrderImport', changes, { where: { id: current.id } });
  const done = { ...current, ...changes } as ImportRow;
  await ctx.host.emit('order.imported', {
    import_id: done.id, status, source: done.source, total_rows: done.total_rows, processed_rows: done.processed_rows,
    created: done.created, updated: done.updated, unchanged: done.unchanged, failed: done.failed,
  });
  return { progress: importView(done) };
}
