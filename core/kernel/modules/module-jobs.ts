/**
 * Jobs a module enqueues for itself (manifest `jobs`): delayed, retried with backoff, deduplicated
 * by key, with progress. Public core operations, callable by any module about its own jobs only:
 *
 *   jobs.enqueue {job, data?, delay_seconds? | run_at?, key?} → {id, deduplicated}
 *   jobs.get {id} → {id, job, key, status, attempts, progress, result, error, run_at, created_at, finished_at}
 *   jobs.cancel {id} → the job as jobs.get shows it (status "cancelled" when it was still open)
 *   jobs.progress {value} → {ok: true}, only from inside the job's own running call
 *
 * A job runs the declared operation in the sandbox, for the tenant that enqueued it, with no user,
 * caller core "jobs", input {job, data, attempt, id}. Like the module scheduler it follows, it goes
 * through the job queue (one queue, MODULE_JOBS_QUEUE, whose jobs carry only the record's id):
 * with Redis, bull hands a job whose node died to another node; in process, a node starting up queues
 * again what the records say is still open. The records (module-job-store.ts) are what modules read
 * back and what bounds them: MODULE_JOBS_MAX_PENDING open jobs per tenant and module, a key names one
 * open job, data at most MODULE_JOBS_MAX_DATA_BYTES of JSON; a job that ended stays readable for a
 * week (KEEP_ENDED_MS). Delivery is at least once: an attempt cut off by a node's death runs again,
 * so job operations must be idempotent.
 */
import type { ModuleJob } from '../../../sdk/manifest';
import type { JobInfo } from '../../../sdk/runtime/jobs';
import { jobsCancel, jobsEnqueue, jobsGet, jobsProgress, MAX_JOB_DELAY_S, type CoreInput } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import { jobErrors } from '../bus/errors';
import type { Caller, CallContext } from '../bus/types';
import type { Clock } from '../clock';
import type { Config } from '../../config';
import type { Job, JobQueue } from '../drivers';
import { forbidden } from '../errors';
import type { Logger } from '../logger';
import type { ModuleHost } from './module-host';
import type { ModuleJobRow, ModuleJobStore } from './module-job-store';

export const MODULE_JOBS_QUEUE = 'module-jobs';
const PRUNE_QUEUE = 'module-jobs-prune';
/** How long a job that ended stays readable with jobs.get; an hourly sweep forgets older ones. */
export const KEEP_ENDED_MS = 7 * 24 * 3600_000;
/** A job that waits for others of its name to finish (its concurrency) looks again after this long. */
const BUSY_RETRY_MS = 1000;
/** Progress values are small: a percentage or a few counters. */
const MAX_PROGRESS_BYTES = 4096;
const DEFAULT_ATTEMPTS = 3;
const DEFAULT_BACKOFF = { type: 'exponential', delay_seconds: 10 } as const;

/** What the queue carries: the record's id and, for the worker's first glance, whose job it is. */
export interface QueuedModuleJob {
  id: string;
  tenantId: string;
  alias: string;
  /** Total attempts the job has (the manifest's): the last one records a final failure. */
  attempts: number;
  /** Attempts made before this queue job (one that waited for its concurrency is queued anew). */
  before: number;
}

/** The job as a module sees it (jobs.get; sdk/runtime/jobs.ts types it for authors). */
export function jobView(row: ModuleJobRow): JobInfo {
  return {
    id: row.id,
    job: row.job,
    key: row.key,
    status: row.status,
    attempts: row.attempts,
    progress: (row.progress ?? null) as JobInfo['progress'],
    result: row.result ?? null,
    error: row.error,
    run_at: new Date(row.run_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
    finished_at: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}

export class ModuleJobs {
  constructor(
    private readonly deps: {
      store: ModuleJobStore;
      queue: JobQueue;
      modules: ModuleHost;
      bus: Bus;
      clock: Clock;
      logger: Logger;
      limits: Config['moduleJobs'];
    },
  ) {}

  /** The public operations; each acts only on the calling module's own jobs in the call's tenant. */
  register(): void {
    const { bus } = this.deps;
    bus.registerCore(defineCoreOperation(jobsEnqueue, (input, ctx, caller) => this.enqueue(input, ctx, ownerOf(caller, 'jobs.enqueue'))));
    bus.registerCore(defineCoreOperation(jobsGet, async (input, ctx, caller) => jobView(await this.own(ctx.tenantId, ownerOf(caller, 'jobs.get'), input.id))));
    bus.registerCore(defineCoreOperation(jobsCancel, async (input, ctx, caller) => {
      const alias = ownerOf(caller, 'jobs.cancel');
      const row = await this.deps.store.cancel(ctx.tenantId, alias, input.id, this.deps.clock.date());
      if (!row) throw jobErrors.notFound(input.id);
      return jobView(row);
    }));
    bus.registerCore(defineCoreOperation(jobsProgress, async (input, ctx, caller) => {
      const alias = ownerOf(caller, 'jobs.progress');
      if (ctx.job?.alias !== alias) throw jobErrors.notInJob();
      if (Buffer.byteLength(JSON.stringify(input.value)) > MAX_PROGRESS_BYTES) throw jobErrors.tooLarge('progress', MAX_PROGRESS_BYTES);
      if (!(await this.deps.store.progress(ctx.job.id, input.value))) throw jobErrors.notInJob();
      return { ok: true };
    }));
  }

  /** Starts this node's worker and the hourly sweep of ended jobs (one schedule shared by every node). */
  async start(): Promise<void> {
    const { queue } = this.deps;
    // Tenants share the workers (fair-share.ts): a burst of one tenant's jobs, across its modules, holds
    // at most tenantWorkers of them while another tenant's jobs are due.
    queue.process<QueuedModuleJob, unknown>(MODULE_JOBS_QUEUE, this.deps.limits.workers, (job) => this.work(job), { groupCap: this.deps.limits.tenantWorkers });
    queue.process<unknown, number>(PRUNE_QUEUE, 1, () => this.prune());
    await queue.add(PRUNE_QUEUE, 'prune', {}, { repeat: { every: 3600_000 }, jobId: 'module-jobs-prune', removeOnComplete: true, removeOnFail: 100 });
  }

  /** Forgets jobs that ended more than KEEP_ENDED_MS before `at` (platform clock); returns how many. */
  prune(at: number = this.deps.clock.now()): Promise<number> {
    return this.deps.store.prune(new Date(at - KEEP_ENDED_MS));
  }

  /**
   * In process (nothing outlives a node), queues again the jobs a stopped or dead node left open.
   * Called once the node's modules are all known (core/kernel/modules/part.ts), so none is taken for
   * uninstalled. Bull keeps its jobs in Redis: nothing to do there.
   */
  async resume(): Promise<void> {
    const { queue, store, logger } = this.deps;
    if (queue.durable) return;
    for (const row of await store.reopen()) {
      const mod = (await this.deps.modules.modulesFor(row.tenant_id)).byAlias.get(row.alias);
      const def = mod?.manifest.jobs?.[row.job];
      if (!def) {
        await store.finish(row.id, { status: 'dropped', error: dropReason(row) }, this.deps.clock.date());
        continue;
      }
      // Attempts already started count (one cut off by the node's death too): a job that keeps
      // killing its node stops once they are spent.
      const before = Math.min(row.attempts, (def.attempts ?? DEFAULT_ATTEMPTS) - 1);
      await this.queueRun(row, def, Math.max(0, new Date(row.run_at).getTime() - this.deps.clock.now()), before);
    }
    logger.debug('module jobs left open were queued again');
  }

  private async enqueue(input: CoreInput<typeof jobsEnqueue>, ctx: CallContext, alias: string): Promise<{ id: string; deduplicated: boolean }> {
    const { store, clock, limits } = this.deps;
    const mod = (await this.deps.modules.modulesFor(ctx.tenantId)).byAlias.get(alias);
    const def = mod?.manifest.jobs?.[input.job];
    if (!def) throw jobErrors.undeclared(alias, input.job);
    const bytes = Buffer.byteLength(JSON.stringify(input.data ?? null));
    if (bytes > limits.maxDataBytes) throw jobErrors.tooLarge('data', limits.maxDataBytes);
    if (input.delay_seconds !== undefined && input.run_at !== undefined) throw jobErrors.twoTimes();
    const now = clock.now();
    const runAt = input.run_at !== undefined ? Date.parse(input.run_at) : now + (input.delay_seconds ?? 0) * 1000;
    if (runAt - now > MAX_JOB_DELAY_S * 1000) throw jobErrors.tooFar(MAX_JOB_DELAY_S);
    const made = await store.insert({ tenantId: ctx.tenantId, alias, job: input.job, key: input.key, from: ctx.job?.alias === alias ? ctx.job.id : undefined, data: input.data ?? null, runAt: new Date(runAt) }, limits.maxPending);
    if (!made) throw jobErrors.tooMany(alias, limits.maxPending);
    if (made.deduplicated) return made;
    const row = (await store.byId(made.id))!;
    await this.queueRun(row, def, Math.max(0, runAt - now)).catch(async (err: unknown) => {
      await store.finish(made.id, { status: 'dropped', error: 'could not be queued' }, clock.date());
      throw err;
    });
    return made;
  }

  private queueRun(row: ModuleJobRow, def: ModuleJob, delayMs: number, before = 0, requeued = false): Promise<string> {
    const attempts = def.attempts ?? DEFAULT_ATTEMPTS;
    const backoff = def.backoff ?? DEFAULT_BACKOFF;
    const data: QueuedModuleJob = { id: row.id, tenantId: row.tenant_id, alias: row.alias, attempts, before };
    return this.deps.queue.add(MODULE_JOBS_QUEUE, `${row.alias}:${row.job}`, data, {
      jobId: requeued ? `mj:${row.id}:${before}:${Date.now()}` : `mj:${row.id}`,
      group: row.tenant_id,
      attempts: attempts - before,
      backoff: { type: backoff.type, delay: Math.round(backoff.delay_seconds * 1000) },
      delay: Math.round(delayMs),
      // The record keeps the outcome; the queue need not.
      removeOnComplete: true,
      removeOnFail: true,
    });
  }

  /** A job of any module in the tenant (test hosts read jobs from outside the module). */
  async get(tenantId: string, id: string): Promise<ModuleJobRow | undefined> {
    const row = await this.deps.store.byId(id);
    return row?.tenant_id === tenantId ? row : undefined;
  }

  private async own(tenantId: string, alias: string, id: string): Promise<ModuleJobRow> {
    const row = await this.deps.store.get(tenantId, alias, id);
    if (!row) throw jobErrors.notFound(id);
    return row;
  }

  /** One queue attempt. Throwing makes the queue retry it (with the declared backoff) or give up. */
  private async work(job: Job<QueuedModuleJob>): Promise<unknown> {
    const attempt = job.data.before + job.attemptsMade + 1;
    const outcome = await this.runAttempt(job.data.id, attempt, attempt >= job.data.attempts, this.deps.queue.durable);
    if (outcome === 'busy') {
      // Queued anew, after a pause, with the attempts it has left: waiting is not failing.
      const row = await this.deps.store.byId(job.data.id);
      const def = row && (await this.deps.modules.modulesFor(row.tenant_id)).byAlias.get(row.alias)?.manifest.jobs?.[row.job];
      if (row && def) await this.queueRun(row, def, BUSY_RETRY_MS, attempt - 1, true);
      return null;
    }
    if (outcome instanceof Error) throw outcome;
    return null;
  }

  /**
   * Runs the tenant's pending jobs due by `at` (platform clock) now, each to its end: its attempts
   * back to back, without the backoff waits. A test host's runJobs: the queue's own run of a job
   * done here finds it finished and does nothing. Returns the jobs as they ended.
   */
  async runDue(tenantId: string, at: number): Promise<ModuleJobRow[]> {
    const { store, modules } = this.deps;
    const ran: ModuleJobRow[] = [];
    for (const row of await store.due(tenantId, new Date(at))) {
      const def = (await modules.modulesFor(tenantId)).byAlias.get(row.alias)?.manifest.jobs?.[row.job];
      const attempts = def?.attempts ?? DEFAULT_ATTEMPTS;
      for (let attempt = row.attempts + 1; attempt <= attempts; attempt++) {
        if (!((await this.runAttempt(row.id, attempt, attempt >= attempts)) instanceof Error)) break;
      }
      ran.push((await store.byId(row.id))!);
    }
    return ran;
  }

  /**
   * Runs one attempt of a job if it is still open: claims it, calls its operation, records the
   * outcome. Returns the error to retry on, 'busy' when others of its name fill its concurrency,
   * undefined otherwise (done, cancelled, dropped, or not open).
   */
  async runAttempt(id: string, attempt: number, final: boolean, reclaim = false): Promise<Error | 'busy' | undefined> {
    const { store, clock, modules, bus, logger } = this.deps;
    const first = await store.byId(id);
    if (!first) return undefined;
    const mod = (await modules.modulesFor(first.tenant_id)).byAlias.get(first.alias);
    const def = mod?.manifest.jobs?.[first.job];
    if (!mod || !def) {
      // Uninstalled (or the job dropped from its manifest) since it was queued: nothing to run.
      await store.finish(id, { status: 'dropped', error: dropReason(first) }, clock.date());
      return undefined;
    }
    const row = await store.claim(id, attempt, def.concurrency, reclaim);
    if (row === undefined || row === 'busy') return row;
    const timeoutMs = (def.timeout_seconds ?? (mod.manifest.limits?.timeout_ms ?? 5000) / 1000) * 1000;
    const ctx: CallContext = { tenantId: row.tenant_id, user: null, job: { id, alias: row.alias } };
    const input = { job: row.job, data: row.data, attempt, id };
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        bus.call({ kind: 'core', name: 'jobs' }, def.operation, input, ctx),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(jobErrors.timeout(row.job, timeoutMs)), timeoutMs))),
      ]);
      await store.finish(id, { status: 'completed', result }, clock.date());
      return undefined;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      logger.debug({ tenantId: row.tenant_id, module: row.alias, job: row.job, id, attempt, error }, 'module job attempt failed');
      const open = await store.finish(id, final ? { status: 'failed', error } : { status: 'pending', error }, clock.date());
      // A job cancelled meanwhile is not retried.
      return open && !final ? (err instanceof Error ? err : new Error(error)) : undefined;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Only modules have jobs: the caller's alias is the owner. */
function ownerOf(caller: Caller, op: string): string {
  if (caller.kind !== 'module') throw forbidden(`${op} is called by module code, about the module's own jobs.`);
  return caller.alias;
}

const dropReason = (row: Pick<ModuleJobRow, 'alias' | 'job'>) => `Module "${row.alias}" no longer has the job "${row.job}" in this tenant (uninstalled or removed from its manifest).`;
