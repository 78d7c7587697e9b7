/**
 * In-process job queue for one node (REDIS_URL unset). Same behaviour as the bull implementation:
 * at-least-once with retries and backoff, delays, deduplication by jobId, schedules, and events.
 * Data, results and progress are copied through JSON, as they would be through Redis, so code that
 * works here does not break when the jobs start crossing nodes.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '../../logger';
import { FairShare } from './fair-share';
import { validateAddOptions, validateGroupCap } from './options';
import { backoffDelay, nextRun, repeatKey } from './schedule';
import type { AddOptions, Job, JobEvents, JobHandler, JobInfo, JobQueue, JobState, ProcessOptions, Repeat, Unsubscribe } from './types';

/** Finished jobs kept per queue and state when no removeOn* says otherwise; bounds memory. */
const DEFAULT_KEPT = 1000;

interface StoredJob {
  id: string;
  name: string;
  data: unknown;
  opts: AddOptions;
  state: JobState;
  attemptsMade: number;
  progress: number | object;
  result: unknown;
  failedReason: string | undefined;
  createdAt: number;
  finishedAt: number | undefined;
  /** When it is due to run (the schedule slot, for repeated jobs). */
  runAt: number;
  timer: NodeJS.Timeout | undefined;
  schedule: string | undefined;
}

interface Schedule {
  name: string;
  data: unknown;
  opts: AddOptions;
}

interface QueueState {
  name: string;
  jobs: Map<string, StoredJob>;
  /** Jobs due, by group; the order free workers take them in. */
  waiting: FairShare<StoredJob>;
  active: number;
  concurrency: number;
  handler: JobHandler<any, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any -- one queue runs jobs of any payload type
  /** Its workers were stopped (stopProcessing): due jobs wait, none is taken. */
  stopped: boolean;
  /** The jobs its workers run now. */
  running: Set<Promise<void>>;
  lastId: number;
  /** Ids of finished jobs, oldest first, for trimming. */
  finished: { completed: string[]; failed: string[] };
  schedules: Map<string, Schedule>;
}

const copy = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));

export class MemoryJobQueue implements JobQueue {
  readonly durable = false;
  private readonly queues = new Map<string, QueueState>();
  private readonly events = new EventEmitter();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly logger: Logger) {
    this.events.setMaxListeners(0);
  }

  async add<T>(queue: string, name: string, data: T, opts: AddOptions = {}): Promise<string> {
    this.assertOpen();
    validateAddOptions(opts);
    const q = this.state(queue);
    if (!opts.repeat) return this.create(q, name, copy(data), opts, Date.now());
    const key = repeatKey(name, opts.repeat, opts.jobId);
    if (!q.schedules.has(key)) q.schedules.set(key, { name, data: copy(data), opts });
    return this.scheduleNext(q, key, Date.now());
  }

  process<T, R>(queue: string, concurrency: number, handler: JobHandler<T, R>, options: ProcessOptions = {}): void {
    this.assertOpen();
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error('concurrency must be a positive integer');
    validateGroupCap(options.groupCap);
    const q = this.state(queue);
    if (q.handler) throw new Error(`queue "${queue}" already has a handler on this node`);
    q.handler = handler;
    q.concurrency = concurrency;
    q.waiting.cap = options.groupCap ?? Infinity;
    this.pump(q);
  }

  async getJob(queue: string, id: string): Promise<JobInfo | null> {
    const job = this.queues.get(queue)?.jobs.get(id);
    if (!job) return null;
    return {
      id: job.id,
      name: job.name,
      data: copy(job.data),
      state: job.state,
      progress: copy(job.progress),
      result: job.state === 'completed' ? (copy(job.result) ?? null) : null,
      failedReason: job.failedReason,
      attemptsMade: job.attemptsMade,
      createdAt: new Date(job.createdAt).toISOString(),
      finishedAt: job.finishedAt === undefined ? undefined : new Date(job.finishedAt).toISOString(),
    };
  }

  async on<E extends keyof JobEvents>(queue: string, event: E, listener: (e: JobEvents[E]) => void): Promise<Unsubscribe> {
    const name = `${queue}\u0000${event}`;
    // A throwing listener must not break the job that emitted the event.
    const safe = (e: JobEvents[E]) => {
      try {
        listener(e);
      } catch (err) {
        this.logger.error({ err, queue, event }, 'job event listener threw');
      }
    };
    this.events.on(name, safe);
    return () => void this.events.off(name, safe);
  }

  async removeRepeatable(queue: string, name: string, repeat: Repeat, jobId?: string): Promise<void> {
    const q = this.queues.get(queue);
    if (!q) return;
    const key = repeatKey(name, repeat, jobId);
    q.schedules.delete(key);
    for (const job of q.jobs.values()) {
      if (job.schedule === key && job.state === 'delayed') {
        clearTimeout(job.timer);
        q.jobs.delete(job.id);
      }
    }
  }

  async stopProcessing(queue: string): Promise<void> {
    const q = this.queues.get(queue);
    if (!q) return;
    q.stopped = true;
    await Promise.all(q.running);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const q of this.queues.values()) {
      for (const job of q.jobs.values()) clearTimeout(job.timer);
    }
    await Promise.all(this.running);
    this.events.removeAllListeners();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('job queue is closed');
  }

  private state(name: string): QueueState {
    let q = this.queues.get(name);
    if (!q) {
      q = {
        name,
        jobs: new Map(),
        waiting: new FairShare(),
        active: 0,
        concurrency: 1,
        handler: undefined,
        stopped: false,
        running: new Set(),
        lastId: 0,
        finished: { completed: [], failed: [] },
        schedules: new Map(),
      };
      this.queues.set(name, q);
    }
    return q;
  }

  /** Adds the next run of a schedule as a delayed job; its id names the slot, so a slot runs once. */
  private scheduleNext(q: QueueState, key: string, after: number): string {
    const schedule = q.schedules.get(key)!;
    const at = nextRun(schedule.opts.repeat!, after);
    const opts: AddOptions = { ...schedule.opts, repeat: undefined, jobId: `repeat:${key}:${at}`, delay: Math.max(0, at - Date.now()) };
    return this.create(q, schedule.name, schedule.data, opts, at, key);
  }

  private create(q: QueueState, name: string, data: unknown, opts: AddOptions, runAt: number, schedule?: string): string {
    const id = opts.jobId ?? String(++q.lastId);
    if (q.jobs.has(id)) return id;
    const delay = opts.delay ?? 0;
    const job: StoredJob = {
      id,
      name,
      data,
      opts,
      state: 'waiting',
      attemptsMade: 0,
      progress: 0,
      result: undefined,
      failedReason: undefined,
      createdAt: Date.now(),
      finishedAt: undefined,
      runAt: schedule ? runAt : Date.now() + delay,
      timer: undefined,
      schedule,
    };
    q.jobs.set(id, job);
    if (delay > 0) this.delay(q, job, delay);
    else this.enqueue(q, job);
    return id;
  }

  private delay(q: QueueState, job: StoredJob, ms: number): void {
    job.state = 'delayed';
    // unref: a pending delay alone should not keep the process alive; close() clears it anyway.
    job.timer = setTimeout(() => {
      job.timer = undefined;
      this.enqueue(q, job);
    }, ms).unref();
  }

  private enqueue(q: QueueState, job: StoredJob): void {
    job.state = 'waiting';
    q.waiting.add(job.opts.group ?? '', job);
    this.pump(q);
  }

  private pump(q: QueueState): void {
    while (!this.closed && !q.stopped && q.handler && q.active < q.concurrency) {
      const job = q.waiting.take()?.item;
      if (!job) return;
      const run = this.run(q, job, q.handler);
      this.running.add(run);
      q.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        q.running.delete(run);
      });
    }
  }

  private async run(q: QueueState, job: StoredJob, handler: JobHandler<any, any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as QueueState.handler
    job.state = 'active';
    q.active++;
    // Like bull, the next run of a schedule is queued when this one starts.
    if (job.schedule && q.schedules.has(job.schedule)) this.scheduleNext(q, job.schedule, Math.max(Date.now(), job.runAt));
    const api: Job = {
      id: job.id,
      queue: q.name,
      name: job.name,
      data: copy(job.data),
      attemptsMade: job.attemptsMade,
      progress: async (value) => {
        job.progress = copy(value);
        this.emit('progress', { queue: q.name, jobId: job.id, progress: copy(value) });
      },
    };
    try {
      // A result JSON cannot carry fails the attempt, as it does in bull.
      const result = copy(await handler(api));
      this.completed(q, job, result);
    } catch (err) {
      this.failed(q, job, err);
    } finally {
      q.active--;
      q.waiting.done(job.opts.group ?? '');
      this.pump(q);
    }
  }

  private completed(q: QueueState, job: StoredJob, result: unknown): void {
    job.state = 'completed';
    job.result = result;
    job.finishedAt = Date.now();
    this.emit('completed', { queue: q.name, jobId: job.id, result: copy(result) ?? null });
    this.retain(q, job, 'completed', job.opts.removeOnComplete);
  }

  private failed(q: QueueState, job: StoredJob, err: unknown): void {
    job.attemptsMade++;
    job.failedReason = err instanceof Error ? err.message : String(err);
    if (job.attemptsMade < (job.opts.attempts ?? 1)) {
      const wait = backoffDelay(job.opts.backoff, job.attemptsMade);
      if (wait > 0) this.delay(q, job, wait);
      else this.enqueue(q, job);
      return;
    }
    job.state = 'failed';
    job.finishedAt = Date.now();
    this.emit('failed', { queue: q.name, jobId: job.id, failedReason: job.failedReason });
    this.retain(q, job, 'failed', job.opts.removeOnFail);
  }

  private retain(q: QueueState, job: StoredJob, state: 'completed' | 'failed', remove: boolean | number | undefined): void {
    if (remove === true) {
      q.jobs.delete(job.id);
      return;
    }
    const list = q.finished[state];
    list.push(job.id);
    const keep = typeof remove === 'number' ? remove : DEFAULT_KEPT;
    while (list.length > keep) q.jobs.delete(list.shift()!);
  }

  private emit<E extends keyof JobEvents>(event: E, payload: JobEvents[E]): void {
    this.events.emit(`${payload.queue}\u0000${event}`, payload);
  }
}
