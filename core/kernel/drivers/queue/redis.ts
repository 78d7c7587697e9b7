/**
 * Job queue on Redis with bull: every node adds to and takes from the same queues, a job goes to one
 * worker at a time, and a worker that dies mid-job has it re-run by another (bull's stalled-job check).
 * Events are bull's global events, so a node sees progress of jobs that run on any node.
 */
import Bull from 'bull';
import type { Logger } from '../../logger';
import { redisOptionsFromUrl } from '../redis-connection';
import { FairGate } from './fair-gate';
import { FairOrder } from './fair-order';
import { validateAddOptions, validateGroupCap } from './options';
import type { AddOptions, Job, JobEvents, JobHandler, JobInfo, JobQueue, JobState, ProcessOptions, Repeat, Unsubscribe } from './types';

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

/** How long close() waits for workers still connecting (a Redis that is down never lets them). */
const STARTING_WAIT_MS = 5_000;

/** bull subscribes to a global event lazily; this private method lets us wait for the subscription. */
interface BullEventRegistration {
  _registerEvent(eventName: string): Promise<void>;
}

/**
 * bull's `process` names the blocking connection (CLIENT SETNAME, lib/worker.js) and drops the
 * promise: a queue closed before Redis answers leaves a rejection nobody handles, which ends a
 * Node process run with the default `--unhandled-rejections=throw`. The name only labels CLIENT LIST.
 */
interface BullWorkerNaming {
  setWorkerName(): Promise<void>;
}

/** What a worker's start goes through in bull: its Lua scripts and delay timer, then the blocking connection. */
interface BullWorkerStart {
  _initializingProcess?: Promise<void>;
  bclient: RedisStatus;
}

interface RedisStatus {
  status: string;
  once(event: 'ready' | 'end', listener: () => void): unknown;
}

export class RedisJobQueue implements JobQueue {
  readonly durable = true;
  private readonly queues = new Map<string, Bull.Queue>();
  /** Workers still starting; close() lets them finish first (see workerStarted). */
  private readonly starting = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly opts: RedisJobQueueOptions) {}

  async add<T>(queue: string, name: string, data: T, opts: AddOptions = {}): Promise<string> {
    validateAddOptions(opts);
    const q = this.queue(queue);
    const job = await q.add(name, data, {
      attempts: opts.attempts,
      backoff: opts.backoff,
      delay: opts.delay,
      jobId: opts.jobId,
      removeOnComplete: opts.removeOnComplete,
      removeOnFail: opts.removeOnFail,
      repeat: opts.repeat ? toBullRepeat(opts.repeat) : undefined,
      // Kept in the job's options, for the fair gate of the node that takes it.
      ...(opts.group !== undefined && { group: opts.group, priority: await this.order(queue, q).nextTag(opts.group) }),
    });
    return String(job.id);
  }

  process<T, R>(queue: string, concurrency: number, handler: JobHandler<T, R>, options: ProcessOptions = {}): void {
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
    validateGroupCap(options.groupCap);
    const q = this.queue(queue);
    let run = (job: Bull.Job<T>): Promise<R> => Promise.resolve(handler(toJob(queue, job)));
    let taken = concurrency;
    if (options.groupCap !== undefined) {
      // Fair share (fair-order.ts, fair-gate.ts): one job more than workers is taken, to wait here.
      const gate = new FairGate(concurrency, options.groupCap);
      const order = this.order(queue, q);
      const plain = run;
      run = (job) => {
        const { group, priority } = job.opts as Bull.JobOptions & { group?: string };
        return gate.run(group ?? '', async () => {
          if (priority) await order.started(priority);
          return plain(job);
        });
      };
      taken = concurrency + 1;
    }
    // '*' takes every job name; bull's promise settles only when the queue closes.
    q.process('*', taken, run).catch((err: unknown) => this.opts.logger.error({ err, queue }, 'job worker stopped'));
    const started = workerStarted(q).finally(() => this.starting.delete(started));
    this.starting.add(started);
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

  async stopProcessing(queue: string): Promise<void> {
    // bull's local pause: this node's worker takes no job of the queue and waits for its active ones.
    await this.queues.get(queue)?.pause(true);
  }

  async close(): Promise<void> {
    this.closed = true;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.starting), new Promise((resolve) => (timer = setTimeout(resolve, STARTING_WAIT_MS)))]);
    clearTimeout(timer);
    // bull's close waits for this node's active jobs, then disconnects.
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }

  private order(name: string, q: Bull.Queue): FairOrder {
    return new FairOrder(q.client, `${this.opts.prefix}:${name}`);
  }

  private queue(name: string): Bull.Queue {
    if (this.closed) throw new Error('job queue is closed');
    let q = this.queues.get(name);
    if (!q) {
      q = new Bull(name, {
        // Named in CLIENT LIST after the prefix (bull renames the blocking connection `<prefix>:<queue in base64>`).
        redis: { ...redisOptionsFromUrl(this.opts.redisUrl), connectionName: this.opts.prefix },
        prefix: this.opts.prefix,
        // A stalled job goes back to wait for whichever node is free, twice at most (then bull fails
        // it). Jobs that must not run a third time count their own starts (bulk/csv-jobs.ts), which
        // bull does not hand to the worker: its give-up reaches only the one node that found it.
        settings: { lockDuration: this.opts.lockMs ?? DEFAULT_LOCK_MS, stalledInterval: this.opts.stalledCheckMs ?? DEFAULT_STALLED_CHECK_MS, maxStalledCount: 2 },
      });
      q.on('error', (err: Error) => this.opts.logger.warn({ err: err.message, queue: name }, 'job queue error'));
      const naming = q as unknown as BullWorkerNaming;
      const setWorkerName = naming.setWorkerName.bind(q);
      naming.setWorkerName = () =>
        setWorkerName().catch((err: Error) => {
          if (!this.closed) this.opts.logger.warn({ err: err.message, queue: name }, 'could not name the job connection');
        });
      this.queues.set(name, q);
    }
    return q;
  }
}

/**
 * Settles once a worker's connections are up (or failed). bull's close() during a worker's start tears
 * down connections that are still opening and leaves them, or the blocking one it reconnects, open for
 * good: a node stopped right after it started would never exit.
 */
async function workerStarted(q: Bull.Queue): Promise<void> {
  const start = q as unknown as BullWorkerStart;
  try {
    await q.isReady();
    await start._initializingProcess;
    const bclient = start.bclient;
    if (bclient.status !== 'ready' && bclient.status !== 'end') {
      await new Promise<void>((resolve) => {
        bclient.once('ready', resolve);
        bclient.once('end', resolve);
      });
    }
  } catch {
    // A worker that could not start has nothing to wait for; close() tears it down.
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
