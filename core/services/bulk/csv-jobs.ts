/**
 * `files.process_csv`: a public core operation with which a module turns an upload it received into
 * a queued job that feeds the CSV, chunk by chunk, to one of the module's own operations (spec 3
 * Bulk operations: chunks of 500 rows, cancellable between chunks, progress pushed in real time;
 * Limits: import queue timeout 600 s, up to 2 workers).
 *
 * The worker streams the file (csv-chunks.ts) and calls the target operation through the bus as the
 * module itself, for the tenant and user who started it:
 *   {phase: "chunk", context, job_id, chunk_index, header, rows: [[line, cells, error?]], total_rows (null until counted)}
 *   (cells in header order: see csv-chunks.ts)
 *     → {cancelled?: boolean, progress?: object}
 *   … and once at the end, whatever happened:
 *   {phase: "end", context, job_id, status: completed|cancelled|failed, error?, rows_read, total_rows}
 *     → {progress?: object}
 * With `parallel: 2` two chunk calls may be in flight at once (in any order of completion); the
 * end call comes after all of them. After each call the host pushes `progress` (plus job_id, chunk_index, rows_read, total_rows) to
 * the user's channel `private-user.<id>` as the event `.<progress_event>`. A chunk op that throws,
 * a malformed file or the timeout (checked between chunks) ends the job as failed.
 *
 * A job cut off mid-way (its node killed) runs again from the first chunk, which is why the target
 * operation must be idempotent. On Redis bull keeps the job and another node (or the restarted one)
 * takes it up once its lock has run out (core/kernel/drivers/queue/redis.ts). In process, the job journal
 * (job-journal.ts) stands in: the restarted node queues it again. The journal also counts a job's
 * starts on every path: a job whose node died twice is not started a third time but ended as
 * failed, with a reason saying so (a file that kills its node must not take down node after node).
 */
import { filesProcessCsv, MAX_CHUNK, MAX_TIMEOUT_S, type CoreInput } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import type { UserRef } from '../../kernel/context';
import type { Job, JobQueue } from '../../kernel/drivers';
import { userChannel } from '../../kernel/drivers/realtime';
import { forbidden, MandiError } from '../../kernel/errors';
import { bulkErrors } from './errors';
import type { Logger } from '../../kernel/logger';
import { countCsvRows, csvChunks, type CsvChunk } from './csv-chunks';
import type { JobJournal } from './job-journal';
import type { UploadStore } from './uploads';

export const CSV_QUEUE = 'files.csv';
/** Jobs of CSV_QUEUE run at once on one node (spec 3 Limits: up to 2 workers). */
export const CSV_WORKERS = 2;
export type Broadcast = (tenantId: string, channel: string, event: string, payload: unknown) => void;

type ProcessCsvInput = CoreInput<typeof filesProcessCsv>;

export interface CsvJobData {
  tenantId: string;
  module: string;
  user: UserRef | null;
  input: Required<Pick<ProcessCsvInput, 'upload_id' | 'operation' | 'job_id' | 'chunk_size' | 'timeout_s' | 'parallel'>> & Pick<ProcessCsvInput, 'context' | 'group_by' | 'progress_event'>;
}

type Outcome = 'completed' | 'cancelled' | 'failed';

/** Starts of one job: the first, and once more after its node died (see redis.ts maxStalledCount). */
const MAX_STARTS = 2;

const jobOptions = (data: CsvJobData) => ({ jobId: `csv:${data.tenantId}:${data.module}:${data.input.job_id}`, removeOnComplete: 1000, removeOnFail: 1000 });

/**
 * Registers the operation and the worker. The promise settles once jobs an in-process node left
 * unfinished have been queued again (it never rejects: a journal that cannot be read is logged).
 */
export function registerCsvJobs(deps: { bus: Bus; queue: JobQueue; uploads: UploadStore; journal: JobJournal<CsvJobData>; broadcast: Broadcast; logger: Logger }): Promise<void> {
  const { bus, queue, uploads, journal } = deps;
  const logger = deps.logger.child({ part: 'csv-jobs' });

  bus.registerCore(defineCoreOperation(filesProcessCsv, async (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('files.process_csv is called by modules.');
    const own = (name: string) => name.startsWith(`${caller.alias}.`);
    if (!own(input.operation)) throw forbidden(`A module may only feed CSV chunks to its own operations, not "${input.operation}".`, { operation: input.operation });
    if (input.progress_event && !own(input.progress_event)) throw forbidden(`Progress events must be in the module's own namespace "${caller.alias}.".`);
    if (!(await bus.exists(ctx.tenantId, input.operation))) throw bulkErrors.unknownOperation(input.operation);
    await uploads.open(ctx.tenantId, caller.alias, input.upload_id); // 404/403 now rather than in the job
    const data: CsvJobData = {
      tenantId: ctx.tenantId,
      module: caller.alias,
      user: ctx.user,
      input: { ...input, chunk_size: input.chunk_size ?? MAX_CHUNK, timeout_s: input.timeout_s ?? MAX_TIMEOUT_S, parallel: input.parallel ?? 1 },
    };
    await journal.write({ tenantId: ctx.tenantId, uploadId: input.upload_id, data, starts: 0 });
    const id = await queue.add(CSV_QUEUE, 'process_csv', data, jobOptions(data)).catch(async (err: unknown) => {
      await journal.remove(ctx.tenantId, input.upload_id);
      throw err;
    });
    return { job_id: input.job_id, queue_job_id: id, status: 'queued' as const };
  }));

  queue.process<CsvJobData, { status: Outcome; rows_read: number }>(CSV_QUEUE, CSV_WORKERS, (job) => run(job));

  const callOperation = ({ tenantId, module, user, input }: CsvJobData, payload: Record<string, unknown>) =>
    bus.call({ kind: 'module', alias: module }, input.operation, { context: input.context ?? {}, job_id: input.job_id, ...payload }, { tenantId, user }) as Promise<
      { cancelled?: boolean; progress?: Record<string, unknown> } | null | undefined
    >;
  const push = ({ tenantId, user, input }: CsvJobData, progress: Record<string, unknown> | undefined, extra: Record<string, unknown>) => {
    if (!user || !input.progress_event) return;
    deps.broadcast(tenantId, userChannel(user.id), `.${input.progress_event}`, { ...(progress ?? {}), job_id: input.job_id, ...extra });
  };
  /** The end call, whatever happened; then the upload (and its journal entry) goes. */
  const end = async (data: CsvJobData, result: { status: Outcome; error?: string; rows_read: number; total_rows: number }) => {
    const { tenantId, module, input } = data;
    try {
      const out = await callOperation(data, { phase: 'end', ...result });
      push(data, out?.progress, { rows_read: result.rows_read, total_rows: result.total_rows, finished: true });
    } catch (err) {
      logger.error({ err, tenantId, module, job: input.job_id }, 'the end call of a CSV job failed');
    } finally {
      await Promise.all([uploads.remove(tenantId, input.upload_id), journal.remove(tenantId, input.upload_id)]);
    }
  };

  async function run(job: Job<CsvJobData>): Promise<{ status: Outcome; rows_read: number }> {
    const { tenantId, module, input } = job.data;
    const entry = await journal.read(tenantId, input.upload_id);
    if (entry) {
      if (entry.starts >= MAX_STARTS) return giveUp(job.data);
      await journal.write({ ...entry, starts: entry.starts + 1 });
    }
    const call = (payload: Record<string, unknown>) => callOperation(job.data, payload);
    const deadline = Date.now() + input.timeout_s * 1000;
    let status: Outcome = 'completed';
    let error: string | undefined;
    let rowsRead = 0;
    let total = 0;
    try {
      const { path } = await uploads.open(tenantId, module, input.upload_id);
      // The total is counted alongside (it is only for progress) and the next chunk is parsed while
      // the module writes the current one: the CSV work overlaps the database work.
      const counting = countCsvRows(path).then((n) => (total = n));
      counting.catch(() => undefined); // a malformed file fails the chunk reader below as well
      const chunks = csvChunks(path, { chunkSize: input.chunk_size, groupBy: input.group_by });
      const prefetch = () => {
        const p = chunks.next();
        p.catch(() => undefined); // awaited below; this only keeps an early exit from leaving it unhandled
        return p;
      };
      // Up to `parallel` chunk calls in flight (the module said its chunks may run concurrently).
      const inFlight = new Set<Promise<void>>();
      let stop = false;
      let failure: unknown;
      const feed = async (chunk: CsvChunk) => {
        const out = await call({ phase: 'chunk', chunk_index: chunk.index, header: chunk.header, rows: chunk.rows, total_rows: total || null });
        rowsRead += chunk.rows.length;
        push(job.data, out?.progress, { chunk_index: chunk.index, rows_read: rowsRead, total_rows: total || null });
        await job.progress({ rows_read: rowsRead, total_rows: total || null });
        if (out?.cancelled) {
          status = 'cancelled';
          stop = true;
        }
      };
      try {
        let next = prefetch();
        while (!stop) {
          const step = await next;
          if (step.done) break;
          next = prefetch();
          if (Date.now() > deadline) throw new Error(`The job ran longer than its timeout of ${input.timeout_s} s and was stopped after ${rowsRead} rows.`);
          const running: Promise<void> = feed(step.value)
            .catch((err: unknown) => {
              failure ??= err;
              stop = true;
            })
            .finally(() => inFlight.delete(running));
          inFlight.add(running);
          if (inFlight.size >= input.parallel) await Promise.race(inFlight);
        }
      } finally {
        await Promise.all(inFlight);
        await chunks.return(undefined).catch(() => undefined);
      }
      if (failure) throw failure;
      await counting.catch(() => undefined);
    } catch (err) {
      status = 'failed';
      error = failureText(err);
    }
    await end(job.data, { status, ...(error ? { error } : {}), rows_read: rowsRead, total_rows: total });
    return { status, rows_read: rowsRead };
  }

  async function giveUp(data: CsvJobData): Promise<{ status: Outcome; rows_read: number }> {
    const { tenantId, module, input } = data;
    logger.warn({ tenantId, module, job: input.job_id }, 'a CSV job lost its node twice; failing it');
    const error = 'The server running this job stopped before it finished, twice; it was not started a third time. Upload the file again to retry.';
    const total = await uploads.open(tenantId, module, input.upload_id).then(({ path }) => countCsvRows(path)).catch(() => 0);
    await end(data, { status: 'failed', error, rows_read: 0, total_rows: total });
    return { status: 'failed', rows_read: 0 };
  }

  /** In process: queue again what a node that died left in the journal (run() counts the start). */
  async function resume(): Promise<void> {
    if (queue.durable) return;
    for (const { tenantId, data } of await journal.list()) {
      logger.info({ tenantId, module: data.module, job: data.input.job_id }, 'resuming a CSV job its node did not finish (from the first chunk)');
      await queue.add(CSV_QUEUE, 'process_csv', data, jobOptions(data));
    }
  }
  return resume().catch((err: unknown) => logger.error({ err }, 'resuming unfinished CSV jobs failed'));
}

/**
 * Why a job failed, as the one line the module keeps (e.g. an import's failure_reason): a refused
 * chunk call names its fields, since "The given data was invalid." alone tells the user nothing.
 */
export function failureText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const fields = err instanceof MandiError ? err.details?.errors : undefined;
  if (!fields || typeof fields !== 'object' || Array.isArray(fields)) return err.message;
  const named = Object.entries(fields).map(([field, messages]) => `${field}: ${[messages].flat().join(' ')}`);
  return named.length ? `${err.message} ${named.join('; ')}` : err.message;
}
