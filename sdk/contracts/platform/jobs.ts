/** A module's own jobs (manifest `jobs`; core/kernel/modules/module-jobs.ts serves them, sdk/runtime/jobs.ts types them for authors). */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';
import { Uuid } from './schemas';

/** A job as its module sees it (jobs.get, jobs.cancel). */
export const JobView = Type.Object({
  id: Uuid(),
  job: Type.String(),
  key: Type.Nullable(Type.String()),
  status: Type.StringEnum(['pending', 'active', 'completed', 'failed', 'cancelled', 'dropped']),
  attempts: Type.Integer({ minimum: 0, description: 'attempts started so far' }),
  progress: Type.Unsafe<number | Record<string, unknown> | null>({ type: ['number', 'object', 'null'] }),
  result: Type.Unknown({ description: "what the job's operation returned, once completed" }),
  error: Type.Nullable(Type.String({ description: 'the last failed attempt\'s message (the final one when status is "failed")' })),
  run_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Nullable(Type.String({ format: 'date-time' })),
});

/** Furthest a job may be put off: a month. */
export const MAX_JOB_DELAY_S = 30 * 24 * 3600;

export const jobsEnqueue = coreContract({
  name: 'jobs.enqueue',
  description: "Queues one of the calling module's declared jobs (manifest `jobs`); with a key, an open job of the same key is returned instead.",
  input: Type.Object(
    {
      job: Type.String({ pattern: '^[a-z][a-z0-9_-]{0,49}$', description: 'a name under jobs in the module.json' }),
      data: Type.Optional(Type.Unknown({ description: 'JSON passed to the job as `data`' })),
      delay_seconds: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_JOB_DELAY_S })),
      run_at: Type.Optional(Type.String({ format: 'date-time', description: 'ISO 8601; not with delay_seconds' })),
      key: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'at most one pending or running job per key' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ id: Uuid(), deduplicated: Type.Boolean({ description: 'true: an open job of the same key was returned' }) }),
  public: true,
});

export const jobsGet = coreContract({
  name: 'jobs.get',
  description: "One of the calling module's jobs in this tenant: status, attempts, progress, result or error.",
  input: Type.Object({ id: Uuid() }, { additionalProperties: false }),
  output: JobView,
  public: true,
});

export const jobsCancel = coreContract({
  name: 'jobs.cancel',
  description: "Cancels one of the calling module's open jobs: it will not start, or be retried; a running attempt's outcome is discarded.",
  input: Type.Object({ id: Uuid() }, { additionalProperties: false }),
  output: JobView,
  public: true,
});

export const jobsProgress = coreContract({
  name: 'jobs.progress',
  description: "Reports the running job's progress (a number or a small JSON object); only from inside the job's own call.",
  input: Type.Object({ value: Type.Unsafe<number | Record<string, unknown>>({ type: ['number', 'object'] }) }, { additionalProperties: false }),
  output: Type.Object({ ok: Type.Boolean() }),
  public: true,
});
