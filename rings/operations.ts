/**
 * Lifecycle operations (issue 4 item 3): each install, upgrade, rollback, uninstall, promotion, ring
 * rollback or ring move is a row here and a job on the queue. The row is what the API shows (status,
 * progress, result, the error with its reasons) on every node; progress is also reported to the job
 * and pushed in real time to whoever asked (their `private-user.<id>` channel) and, for one tenant's
 * operations, to that tenant's `modules.operations` channel, as the event `.module.operation`.
 *
 * Locks are taken when the operation is created (see locks.ts) and released when it ends.
 */
import { randomUUID } from 'node:crypto';
import type { Drivers, Job } from '../core/kernel/drivers';
import { MandiError, notFound } from '../core/kernel/errors';
import type { Logger } from '../core/kernel/logger';
import type { LifecycleLocks, LockClaim } from './locks';
import type {
  LifecycleOperation,
  OperationError,
  OperationKind,
  OperationProgress,
  OperationStatus,
  Requester,
  RingModels,
} from './ring-models';

export const LIFECYCLE_QUEUE = 'lifecycle';
const FINISHED_CHANNEL = 'mandi:lifecycle:finished';
export const TENANT_OPERATIONS_CHANNEL = 'modules.operations';
export const OPERATION_EVENT = '.module.operation';
const HEARTBEAT_MS = 10_000;

export interface OperationView {
  id: string;
  kind: OperationKind;
  status: OperationStatus;
  ring: string | null;
  module: string | null;
  version: string | null;
  tenant_id: string | null;
  params: Record<string, unknown>;
  progress: OperationProgress & { percent: number };
  result: Record<string, unknown> | null;
  error: OperationError | null;
  requested_by: Requester;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface NewOperation {
  kind: OperationKind;
  ring?: string | null;
  alias?: string | null;
  version?: string | null;
  tenantId?: string | null;
  params?: Record<string, unknown>;
  requestedBy: Requester;
}

export interface ProgressReporter {
  (done: number, total: number, message: string): Promise<void>;
}

/** Runs one kind of operation; what it returns becomes the operation's result. */
export type Executor = (op: LifecycleOperation, progress: ProgressReporter) => Promise<Record<string, unknown>>;

export type Broadcast = (tenantId: string, channel: string, event: string, payload: unknown) => void;

export const isFinal = (status: OperationStatus) => status === 'completed' || status === 'failed';

export function operationView(op: LifecycleOperation): OperationView {
  const p = op.progress ?? { done: 0, total: 0, message: '' };
  return {
    id: op.id,
    kind: op.kind,
    status: op.status,
    ring: op.ring,
    module: op.alias,
    version: op.version,
    tenant_id: op.tenant_id,
    params: op.params ?? {},
    progress: { ...p, percent: op.status === 'completed' ? 100 : p.total ? Math.floor((p.done / p.total) * 100) : 0 },
    result: op.result ?? null,
    error: op.error ?? null,
    requested_by: op.requested_by,
    created_at: op.created_at.toISOString(),
    started_at: op.started_at?.toISOString() ?? null,
    finished_at: op.finished_at?.toISOString() ?? null,
  };
}

export function toOperationError(err: unknown): OperationError {
  if (err instanceof MandiError) return { code: err.code, message: err.message, status: err.status, ...(err.details ? { details: err.details } : {}) };
  return { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err), status: 500 };
}

export class Operations {
  private readonly executors = new Map<OperationKind, Executor>();
  /** Operations whose locks this node keeps alive: those it created or runs, until they end. */
  private readonly tended = new Set<string>();
  private readonly wakers = new Map<string, Set<() => void>>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: { models: RingModels; drivers: Drivers; locks: LifecycleLocks; broadcast: Broadcast; logger: Logger; concurrency: number },
  ) {}

  async start(): Promise<void> {
    await this.deps.drivers.pubsub.subscribe(FINISHED_CHANNEL, (msg) => {
      const id = (msg as { id: string }).id;
      this.tended.delete(id);
      this.wake(id);
    });
    this.deps.drivers.queue.process<{ operationId: string }, unknown>(LIFECYCLE_QUEUE, this.deps.concurrency, (job) => this.run(job));
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS).unref();
  }

  stop(): void {
    clearInterval(this.heartbeat);
  }

  register(kind: OperationKind, executor: Executor): void {
    this.executors.set(kind, executor);
  }

  /** Records the operation, takes its locks (409 when held) and queues it. */
  async create(fields: NewOperation, claims: LockClaim[]): Promise<OperationView> {
    const { models, locks, drivers } = this.deps;
    const op = await models.Operation.create({
      id: randomUUID(),
      kind: fields.kind,
      ring: fields.ring ?? null,
      alias: fields.alias ?? null,
      version: fields.version ?? null,
      tenant_id: fields.tenantId ?? null,
      params: fields.params ?? {},
      requested_by: fields.requestedBy,
    });
    try {
      await locks.acquire(op.id, claims);
    } catch (err) {
      await op.destroy();
      throw err;
    }
    this.tended.add(op.id);
    try {
      await drivers.queue.add(LIFECYCLE_QUEUE, fields.kind, { operationId: op.id }, { jobId: `op-${op.id}`, removeOnComplete: 100, removeOnFail: 100 });
    } catch (err) {
      await this.finish(op, 'failed', null, toOperationError(err));
      throw err;
    }
    this.push(op);
    return operationView(op);
  }

  async get(id: string): Promise<OperationView | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const op = await this.deps.models.Operation.findByPk(id);
    return op ? operationView(op) : undefined;
  }

  async require(id: string, scope: { tenantId?: string } = {}): Promise<OperationView> {
    const view = await this.get(id);
    if (!view || (scope.tenantId !== undefined && view.tenant_id !== scope.tenantId)) throw notFound(`Operation ${id} not found.`);
    return view;
  }

  async list(filter: { tenantId?: string; ring?: string; limit?: number }): Promise<OperationView[]> {
    const where: Record<string, unknown> = {};
    if (filter.tenantId) where.tenant_id = filter.tenantId;
    if (filter.ring) where.ring = filter.ring;
    const rows = await this.deps.models.Operation.findAll({ where, order: [['created_at', 'DESC']], limit: Math.min(Math.max(filter.limit ?? 20, 1), 100) });
    return rows.map(operationView);
  }

  /** Resolves with the operation once it has ended, or as it stands after `timeoutMs`. */
  async wait(id: string, timeoutMs: number): Promise<OperationView> {
    const deadline = Date.now() + timeoutMs;
    for (let pause = 20; ; pause = Math.min(pause * 2, 1000)) {
      const view = await this.require(id);
      if (isFinal(view.status) || Date.now() >= deadline) return view;
      // Woken by the "finished" message from whichever node ran it; the timer covers a lost message.
      await new Promise<void>((resolve) => {
        const set = this.wakers.get(id) ?? new Set();
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (!set.size) this.wakers.delete(id);
          resolve();
        };
        const timer = setTimeout(done, Math.min(pause, Math.max(deadline - Date.now(), 0)));
        set.add(done);
        this.wakers.set(id, set);
      });
    }
  }

  private async run(job: Job<{ operationId: string }>): Promise<void> {
    const { models, logger } = this.deps;
    const op = await models.Operation.findByPk(job.data.operationId);
    if (!op) return;
    if (op.status !== 'queued') {
      // A job re-run after its node died mid-way: what it did is unknown, so it is not done twice.
      if (op.status === 'running') {
        await this.finish(op, 'failed', op.result ?? null, {
          code: 'OPERATION_ABANDONED',
          status: 500,
          message: 'The node running this operation stopped before it finished; check the tenants it lists in progress.',
        });
      }
      return;
    }
    const executor = this.executors.get(op.kind);
    this.tended.add(op.id);
    await op.update({ status: 'running', started_at: new Date(), progress: { done: 0, total: op.progress?.total ?? 0, message: 'started' } });
    this.push(op);
    const progress: ProgressReporter = async (done, total, message) => {
      await op.update({ progress: { done, total, message } });
      await job.progress({ done, total, message }).catch(() => undefined);
      this.push(op);
    };
    try {
      if (!executor) throw new Error(`no executor for lifecycle operation kind "${op.kind}"`);
      const result = await executor(op, progress);
      await this.finish(op, 'completed', result, null);
    } catch (err) {
      const error = toOperationError(err);
      if (error.status >= 500) logger.error({ err, operation: op.id, kind: op.kind }, 'lifecycle operation failed');
      else logger.warn({ operation: op.id, kind: op.kind, code: error.code, message: error.message }, 'lifecycle operation refused');
      const partial = (err as { operationResult?: Record<string, unknown> }).operationResult ?? null;
      await this.finish(op, 'failed', partial, error);
    } finally {
      // Again in case finish itself failed (e.g. the central database went away mid-way).
      await this.releaseLocks(op.id);
    }
  }

  private async finish(op: LifecycleOperation, status: OperationStatus, result: Record<string, unknown> | null, error: OperationError | null): Promise<void> {
    // The last step's message stays: it says what was done last (or where it failed).
    const progress = status === 'completed' ? { ...op.progress, done: op.progress.total } : op.progress;
    await op.update({ status, result, error, finished_at: new Date(), progress });
    // Locks go before anyone hears the operation ended, so a caller told "completed" can start the next one.
    await this.releaseLocks(op.id);
    this.tended.delete(op.id);
    this.push(op);
    await this.deps.drivers.pubsub.publish(FINISHED_CHANNEL, { id: op.id }).catch(() => undefined);
    this.wake(op.id);
  }

  /** Never throws: a failed release is logged (the locks go stale once no node heartbeats them). */
  private async releaseLocks(operationId: string): Promise<void> {
    await this.deps.locks.release(operationId).catch((err: unknown) => this.deps.logger.error({ err, operation: operationId }, 'could not release lifecycle locks'));
  }

  private push(op: LifecycleOperation): void {
    const view = operationView(op);
    const by = op.requested_by;
    if (by.kind === 'user' && by.tenant_id) this.deps.broadcast(by.tenant_id, `private-user.${by.id}`, OPERATION_EVENT, view);
    if (op.tenant_id) this.deps.broadcast(op.tenant_id, TENANT_OPERATIONS_CHANNEL, OPERATION_EVENT, view);
  }

  private wake(id: string): void {
    for (const done of [...(this.wakers.get(id) ?? [])]) done();
  }

  private async beat(): Promise<void> {
    try {
      const alive = await this.deps.locks.heartbeat([...this.tended]);
      for (const id of [...this.tended]) if (!alive.has(id)) this.tended.delete(id);
    } catch (err) {
      this.deps.logger.warn({ err }, 'lifecycle lock heartbeat failed');
    }
  }
}
