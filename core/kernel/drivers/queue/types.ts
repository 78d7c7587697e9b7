/**
 * The job queue: named queues of jobs, processed at least once. Two implementations with one
 * behaviour: in-process (one node) and bull on Redis (every node shares the queues).
 */

export type JobState = 'waiting' | 'active' | 'completed' | 'failed' | 'delayed';

export interface Backoff {
  type: 'fixed' | 'exponential';
  /** Milliseconds. fixed: every retry waits `delay`; exponential: (2^attemptsMade - 1) * delay. */
  delay: number;
}

/** Exactly one of `every` (milliseconds, aligned to multiples of it) or `cron` (five or six fields). */
export interface Repeat {
  every?: number;
  cron?: string;
  /** IANA time zone of the cron pattern (default: the server's). */
  tz?: string;
}

export interface AddOptions {
  /** Total tries including the first (default 1). */
  attempts?: number;
  backoff?: Backoff;
  /** Milliseconds before the job may run. */
  delay?: number;
  /**
   * Deduplication: adding a job whose id already exists does nothing and returns that id. Must not be
   * a plain integer (bull's own ids are integers).
   */
  jobId?: string;
  /** true: forget the job once completed; a number: keep only that many completed jobs. */
  removeOnComplete?: boolean | number;
  /** Same as removeOnComplete, for jobs that failed for good. */
  removeOnFail?: boolean | number;
  /**
   * Whose job it is (the tenant), for a queue processed with `groupCap`: workers are shared fairly
   * between groups (fair-share.ts). Jobs without a group form one group of their own.
   */
  group?: string;
  /**
   * Runs the job on a schedule. Adding the same (name, repeat, jobId) again does not add a second
   * schedule, so every node may declare its schedules at boot.
   */
  repeat?: Repeat;
}

export interface Job<T = unknown> {
  id: string;
  queue: string;
  name: string;
  data: T;
  /** Failed attempts before this one. */
  attemptsMade: number;
  /** Reports progress (a percentage or any JSON object); listeners of 'progress' receive it. */
  progress(value: number | object): Promise<void>;
}

export type JobHandler<T = unknown, R = unknown> = (job: Job<T>) => Promise<R> | R;

export interface ProcessOptions {
  /**
   * Shares this node's workers fairly between the groups of the jobs (AddOptions.group): round robin
   * between groups with jobs due, and at most this many workers to one group while another waits.
   */
  groupCap?: number;
}

export interface JobInfo {
  id: string;
  name: string;
  data: unknown;
  state: JobState;
  progress: number | object;
  /** What the handler returned, once completed. */
  result: unknown;
  /** Message of the last error, once an attempt failed. */
  failedReason: string | undefined;
  attemptsMade: number;
  /** ISO 8601. */
  createdAt: string;
  finishedAt: string | undefined;
}

export interface JobEvents {
  progress: { queue: string; jobId: string; progress: number | object };
  completed: { queue: string; jobId: string; result: unknown };
  /** Only when the job failed for good (attempts exhausted), not on each retried attempt. */
  failed: { queue: string; jobId: string; failedReason: string };
}

export type Unsubscribe = () => void;

export interface JobQueue {
  /** Whether queued and running jobs outlive this process (bull on Redis: yes; in-process: no). */
  readonly durable: boolean;
  /** Returns the job id (the existing one when `jobId` deduplicates). */
  add<T>(queue: string, name: string, data: T, opts?: AddOptions): Promise<string>;
  /** Starts `concurrency` workers for every job name of `queue` on this node. One handler per queue per node. */
  process<T, R>(queue: string, concurrency: number, handler: JobHandler<T, R>, options?: ProcessOptions): void;
  getJob(queue: string, id: string): Promise<JobInfo | null>;
  /**
   * Listens to events of every job of `queue`, wherever it runs. Resolves once the listener is
   * registered everywhere it needs to be (with Redis: subscribed), so no later event is missed.
   */
  on<E extends keyof JobEvents>(queue: string, event: E, listener: (e: JobEvents[E]) => void): Promise<Unsubscribe>;
  /** Stops a schedule added with `repeat` (same name, repeat and jobId). */
  removeRepeatable(queue: string, name: string, repeat: Repeat, jobId?: string): Promise<void>;
  /**
   * Stops this node's workers of `queue` (none of its jobs is taken here any more) and waits for the
   * ones they run; the queue stays open for adds. A part whose jobs add to the queue stops its own
   * workers this way before the queue closes (core/kernel/drivers/parts.ts).
   */
  stopProcessing(queue: string): Promise<void>;
  /** Stops taking jobs, waits for the active ones on this node to finish, releases connections. */
  close(): Promise<void>;
}
