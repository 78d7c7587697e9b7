/**
 * Job queue on Redis with bull: every node adds to and takes from the same queues, a job goes to one
 * worker at a time, and a worker that dies mid-job has it re-run by another (bull's stalled-job check).
 * Events are bull's global events, so a node sees progress of jobs that run on any node.
 */
import Bull from 'bull';
import type { Logger } from '../../logger';
import { redisOptionsFromUrl } from '../redis-connection';
import { validateAddOptions } from './options';
import type { AddOptions, Job, JobEvents, JobHandler, JobInfo, JobQueue, JobState, Repeat, Unsubscribe } from './types';

export interface RedisJobQueueOptions {
  redisUrl: string;
  /** Key prefix; queues live under `<prefix>:<queue>:*`. */
  prefix: string;
  logger: Logger;
  /**
   * How long a running job's lock lasts (bull renews it every half of this). A node that dies stops
   * renewing, so its jobs count as stalled once the lock has run out.
   */
  lockMs?: number;
  /** How often every node looks for stalled jobs and puts them back to wait for any node. */
  stalledCheckMs?: number;
}

/**
 * Recovery from a dead node takes at most lockMs + stalledCheckMs (35 s by default). The lock stays
 * at bull's 30 s: it must outlast any pause of a live node's event loop (a busy 2-CPU machine, a
 * long GC), or a healthy job would be run twice. The check is every 5 s (bull's default is 30 s:
 * up to a minute of a dead import doing nothing); it is one small Lua script per queue and node.
 */
export const DEFAULT_LOCK_MS = 30_000;
export const DEFAULT_STALLED_CHECK_MS = 5_000;

/** bull subscribes to a global event lazily; this private method lets us wait for the subscription. */
interface BullEventRegistration {
  _registerEvent(eventName: string): Promise<void>;
}

export class RedisJobQueue implements JobQueue {
  readonly durable = true;
  private readonly queues = new Map<string, Bull.Queue>();
  private closed = false;

  constructor(private readonly opts: RedisJobQueueOptions) {}

  async add<T>(queue: string, name: string, data: T, opts: AddOptions = {}): Promise<string> {
    validateAddOptions(opts);
    const job = await this.queue(queue).add(name, data, {
      attempts: opts.attempts,
      backoff: opts.backoff,
      delay: opts.delay,
      jobId: opts.jobId,
      removeOnComplete: opts.removeOnComplete,
      removeOnFail: opts.removeOnFail,
      repeat: opts.repeat ? toBullRepeat(opts.repeat) : undefined,
    });
    return String(job.id);
  }

  process<T, R>(queue: string, concurrency: number, handler: JobHandler<T, R>): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
    // '*' takes every job name; bull's promise settles only when the queue closes.
    this.queue(queue)
      .process('*', concurrency, (job: Bull.Job<T>) => handler(toJob(queue, job)))
      .catch((err: unknown) => this.opts.logger.error({ err, queue }, 'job worker stopped'));
  }

  async getJob(queue: string, id: string): Promise<JobInfo | null> {
    const job = await this.queue(queue).getJob(id);
    if (!job) return null;
    const state = await job.getState();
    return {
      id: String(job.id),
      name: job.name,
      data: job.data,
      state: toState(state),
      progress: job.progress() as number | object,
      result: state === 'completed' ? (job.returnvalue ?? null) : null,
      failedReason: job.failedReason || undefined,
      attemptsMade: job.attemptsMade,
      createdAt: new Date(job.timestamp).toISOString(),
      finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : undefined,
    };
  }

  async on<E extends keyof JobEvents>(queue: string, event: E, listener: (e: JobEvents[E]) => void): Promise<Unsubscribe> {
    const q = this.queue(queue);
    const deliver = (payload: JobEvents[keyof JobEvents]) => {
      try {
        listener(payload as JobEvents[E]);
      } catch (err) {
        this.opts.logger.error({ err, queue, event }, 'job event listener threw');
      }
    };
    const handlers: Record<keyof JobEvents, (jobId: Bull.JobId, value: unknown) => void> = {
      progress: (jobId, progress) => deliver({ queue, jobId: String(jobId), progress: progress as number | object }),
      // bull publishes the result as the JSON text it stored.
      completed: (jobId, result) => deliver({ queue, jobId: String(jobId), result: typeof result === 'string' ? JSON.parse(result) : null }),
      failed: (jobId, reason) => deliver({ queue, jobId: String(jobId), failedReason: String(reason) }),
    };
    const globalEvent = `global:${event}`;
    const handler = handlers[event];
    q.on(globalEvent, handler);
    await (q as unknown as BullEventRegistration)._registerEvent(globalEvent);
    return () => void q.removeListener(globalEvent, handler);
  }

  async removeRepeatable(queue: string, name: string, repeat: Repeat, jobId?: string): Promise<void> {
    await this.queue(queue).removeRepeatable(name, { ...toBullRepeat(repeat), jobId });
  }

  async close(): Promise<void> {
    this.closed = true;
    // bull's close waits for this node's active jobs, then disconnects.
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }

  private queue(name: string): Bull.Queue {
    if (this.closed) throw new Error('job queue is closed');
    let q = this.queues.get(name);
    if (!q) {
      q = new Bull(name, {
        redis: redisOptionsFromUrl(this.opts.redisUrl),
        prefix: this.opts.prefix,
        // A stalled job goes back to wait for whichever node is free, twice at most (then bull fails
        // it). Jobs that must not run a third time count their own starts (bulk/csv-jobs.ts), which
        // bull does not hand to the worker: its give-up reaches only the one node that found it.
        settings: { lockDuration: this.opts.lockMs ?? DEFAULT_LOCK_MS, stalledInterval: this.opts.stalledCheckMs ?? DEFAULT_STALLED_CHECK_MS, maxStalledCount: 2 },
      });
      q.on('error', (err: Error) => this.opts.logger.warn({ err: err.message, queue: name }, 'job queue error'));
      this.queues.set(name, q);
    }
    return q;
  }
}

function toJob<T>(queue: string, job: Bull.Job<T>): Job<T> {
  return {
    id: String(job.id),
    queue,
    name: job.name,
    data: job.data,
    attemptsMade: job.attemptsMade,
    progress: (value) => job.progress(value),
  };
}

function toBullRepeat(repeat: Repeat): Bull.CronRepeatOptions | Bull.EveryRepeatOptions {
  return repeat.every !== undefined ? { every: repeat.every } : { cron: repeat.cron!, tz: repeat.tz };
}

/** bull also knows 'paused' and 'stuck' (in no list yet); both are waiting to run. */
function toState(state: string): JobState {
  return state === 'active' || state === 'completed' || state === 'failed' || state === 'delayed' ? state : 'waiting';
}
