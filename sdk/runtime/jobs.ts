/**
 * Typed access to the module's own jobs (manifest `jobs`; the host side is core/kernel/modules/module-jobs.ts):
 *
 *   const q = jobs<{ sweep: { before: string } }>(ctx.host);
 *   const { id } = await q.enqueue('sweep', { before: '2026-12-01' }, { delaySeconds: 60, key: 'sweep' });
 *   // in the job's operation: await q.progress(50); … and later: (await q.get(id)).status
 *
 * The map of job name → data type is optional; without it any declared name and JSON data go.
 * Inputs and answers are the contracts' types (sdk/contracts/platform/jobs.ts), imported as types only.
 */
import type { CoreInput, CoreOutput, jobsCancel, jobsEnqueue, jobsGet, jobsProgress } from '../contracts/platform';
import type { Host } from './host';

export interface EnqueueOptions {
  /** Seconds from now (platform clock) before the job may run. */
  delaySeconds?: number;
  /** Or when it may run. */
  runAt?: Date | string;
  /** At most one pending or running job of the module per key: enqueuing again returns that one. */
  key?: string;
}

/** A job as jobs.get and jobs.cancel answer it. */
export type JobInfo = CoreOutput<typeof jobsGet>;

export type JobStatus = JobInfo['status'];

/** What a job's operation receives as its input. */
export interface JobInput<D = unknown> {
  job: string;
  data: D;
  /** 1 on the first attempt, 2 on the first retry… */
  attempt: number;
  /** The job's id, the same on every attempt: record what was done under it to stay idempotent. */
  id: string;
}

export interface Jobs<M extends Record<string, unknown>> {
  enqueue<N extends keyof M & string>(job: N, data: M[N], opts?: EnqueueOptions): Promise<CoreOutput<typeof jobsEnqueue>>;
  get(id: string): Promise<JobInfo>;
  /** Cancels an open job (a running attempt's outcome is discarded); returns it as it is now. */
  cancel(id: string): Promise<JobInfo>;
  /** From inside the job's own operation only: a percentage or a small object. */
  progress(value: CoreInput<typeof jobsProgress>['value']): Promise<void>;
}

export function jobs<M extends Record<string, unknown> = Record<string, unknown>>(host: Pick<Host, 'call'>): Jobs<M> {
  return {
    enqueue: (job, data, opts = {}) => {
      const input: CoreInput<typeof jobsEnqueue> = { job, data };
      if (opts.delaySeconds !== undefined) input.delay_seconds = opts.delaySeconds;
      if (opts.runAt !== undefined) input.run_at = typeof opts.runAt === 'string' ? opts.runAt : opts.runAt.toISOString();
      if (opts.key !== undefined) input.key = opts.key;
      return host.call('jobs.enqueue', input);
    },
    get: (id) => host.call<JobInfo, CoreInput<typeof jobsGet>>('jobs.get', { id }),
    cancel: (id) => host.call<JobInfo, CoreInput<typeof jobsCancel>>('jobs.cancel', { id }),
    progress: async (value) => {
      await host.call<unknown, CoreInput<typeof jobsProgress>>('jobs.progress', { value });
    },
  };
}
