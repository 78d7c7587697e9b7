/**
 * The workflow engine (spec 2, Execution; States and transitions). A run is a job on the
 * `workflow-runs` queue; it walks the graph one node at a time and never runs node logic itself:
 * every non-trigger node is a bus operation, called with the caller edge `workflow` as the
 * workflow's owner, so permissions, schemas, rate limits and audit apply to each step. After each
 * node a checkpoint (log row + execution row, one statement, committed before the next node starts)
 * records the outcome and the nodes still to run, so a redelivered job (a killed worker) continues
 * where the last checkpoint left off and writes each node's outcome once. The idempotency key of a step, `<execution>:<node>:<attempt>`,
 * travels as the call's request id. A Delay node or retry backoff suspends the run with resume_at
 * set and a delayed job (deduplicated by id) wakes it; so does a call the bus refused for its rate
 * limit (back-pressure: the run waits for the budget, it does not fail). A run in a worker holds a
 * lease (run-leases.ts); the sweeper (run-sweeper.ts) queues again the runs nobody holds.
 */
import { LRUCache } from 'lru-cache';
import type { Bus } from '../../kernel/bus/bus';
import type { EventBus } from '../../kernel/bus/events';
import type { Catalog } from '../contributions/catalog';
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';
import type { Clock } from '../../kernel/clock';
import type { JobQueue } from '../../kernel/drivers';
import { MandiError, RateLimitedError } from '../../kernel/errors';
import { workflowErrors } from './errors';
import { isObject } from '../../kernel/is-object';
import type { Logger } from '../../kernel/logger';
import { errorRunOf, type RunFailure } from './error-workflow';
import { FoldedCheckpoints } from './folded-checkpoints';
import { readyFirst, withMergeInputs } from './merge';
import { nodeInput } from './node-input';
import type { Actor } from './node-permissions';
import { chainRefusal } from './run-chain';
import { RunLeases } from './run-leases';
import { awaitedChild, childOutcome, WAIT_RECHECK_SECONDS } from './sub-workflow';
import type { ConnectionRow, ExecutionRow, Graph, NodeRow, RunContext } from './workflow';
import type { Checkpoint, WorkflowStore } from './workflow-store';

export const RUNS_QUEUE = 'workflow-runs';
/** The prefix of the lifecycle events every finished run emits (`.completed`, `.failed`). */
export const LIFECYCLE_EVENTS = 'workflow.execution.';
/** A graph cached for the runs pinned to its version. */
const graphKey = (tenantId: string, workflowId: string, version: number | null) => `${tenantId}:${workflowId}:${version}`;
/** Times a node's call is made again after its module restarted under it. */
const RESTART_RETRIES = 3;
/** Retries of a node whose retry_count is 0 in a workflow with settings.retry_on_failure true (README, Node retries). */
export const DEFAULT_NODE_RETRIES = 3;

/** The retries a node gets (spec 2: settings.retry_on_failure, the node's retry_count). */
export function retriesOf(settings: Record<string, unknown>, node: NodeRow): number {
  if (settings.retry_on_failure === false) return 0;
  return settings.retry_on_failure === true && node.retry_count === 0 ? DEFAULT_NODE_RETRIES : node.retry_count;
}

interface RunJob {
  tenantId: string;
  executionId: string;
  /** A wake-up's position (runPosition): a run found elsewhere has moved on without it. */
  at?: string;
}

/** Where a run stands: nodes done, the first queued node's attempt and its rate-limit waits. */
const runPosition = (e: Pick<ExecutionRow, 'nodes_executed' | 'scheduler'>) =>
  `${e.nodes_executed}:${e.scheduler.attempt ?? 0}${e.scheduler.waits ? `:w${e.scheduler.waits}` : ''}`;

/** The id of a suspended run's wake-up: a sub-workflow's wait is checked again each WAIT_RECHECK_SECONDS, each check its own job. */
const wakeJobId = (e: Pick<ExecutionRow, 'id' | 'nodes_executed' | 'scheduler' | 'resume_at'>) =>
  e.scheduler.waiting_for ? `${e.id}:wait:${e.resume_at?.getTime()}` : `${e.id}:${runPosition(e)}`;

export interface EngineDeps {
  store: WorkflowStore;
  queue: JobQueue;
  bus: Bus;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  catalogFor(tenantId: string): Promise<Catalog>;
  /** The owner as a request of theirs would act now; undefined when no longer an active member (./owner-inactive.ts). */
  acting(tenantId: string, ownerId: number): Promise<Actor | undefined>;
  /** Pauses a workflow whose owner is no longer an active member and tells its admins. */
  ownerInactive(tenantId: string, g: Graph): Promise<void>;
  /** A run just finished (completed or failed): webhook calls waiting for it wake (run-waiters.ts). */
  finished(tenantId: string, run: ExecutionRow): void;
  workers: number;
  /** Workers one tenant's runs may hold while another tenant's runs are due (fair-share.ts). */
  tenantWorkers: number;
  /** WORKFLOW_MAX_CHAIN_DEPTH (./run-chain.ts). */
  maxChainDepth: number;
  /** How long a run's lease lasts unless its worker renews it (WORKFLOW_RUN_LEASE_SECONDS). */
  leaseMs: number;
}

export interface Trigger {
  type: string;
  data: unknown;
  triggeredBy: number | null;
  /** One execution per workflow and key (an event id, a schedule slot). */
  key?: string;
  /** The workflows of the runs that led to this one (./run-chain.ts). */
  chain?: readonly string[];
  /** The run whose sub-workflow node waits for this one (./sub-workflow.ts). */
  parentExecutionId?: string;
  /** The run starts at the trigger nodes of this type only (an error run: error-workflow.ts); at every trigger without. */
  entryType?: string;
}

/** The values placeholders resolve against: the trigger data at the root, and trigger, nodes, variables. */
export function placeholderValues(triggerData: unknown, triggerType: string, ctx: RunContext): Record<string, unknown> {
  return { ...(isObject(triggerData) ? triggerData : {}), trigger: { type: triggerType, data: triggerData }, nodes: ctx.nodes, variables: ctx.variables };
}

/** The nodes a finished node leads to: every connection, or with a `branch` output only the matching ones. */
export function successors(g: Graph, nodeId: string, output: unknown): string[] {
  const branch = isObject(output) && typeof output.branch === 'string' ? output.branch : undefined;
  const matches = (c: ConnectionRow) => {
    const path = c.condition_path ?? (c.source_handle !== 'output' ? c.source_handle : null);
    return path === null || branch === undefined || path === branch;
  };
  return g.connections.filter((c) => c.source_node_id === nodeId && matches(c)).map((c) => c.target_node_id);
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A trigger, or a node whose type declares no effects (folded-checkpoints.ts). */
const effectFree = (catalog: Catalog, node: NodeRow) => node.node_category === 'trigger' || catalog.node(node.node_type)?.effects === 'none';

export class WorkflowEngine {
  private readonly logger: Logger;
  /** Graphs (per version) this node started runs of lately, so their jobs need not read them again. */
  private readonly graphs = new LRUCache<string, Graph>({ max: 1_000, ttl: 10_000 });
  /**
   * Runs this node created whose job has not started yet, so it need not read them again (taken by
   * another node, they expire here). Bounded by their trigger data (up to 512 KB each).
   */
  private readonly created = new LRUCache<string, ExecutionRow>({ max: 10_000, ttl: 10_000, maxSize: 32 << 20, sizeCalculation: (e) => JSON.stringify(e.trigger_data).length + 1 });

  private readonly leases: RunLeases;

  constructor(private readonly deps: EngineDeps) {
    this.logger = deps.logger.child({ part: 'workflows' });
    this.leases = new RunLeases((tenantId, ids) => deps.store.renewLeases(tenantId, ids), deps.leaseMs, this.logger);
  }

  start(): void {
    this.leases.start();
    // Tenants share the workers as module jobs do (fair-share.ts): one tenant's burst of runs holds
    // at most tenantWorkers of them while another tenant's runs are due.
    this.deps.queue.process<RunJob, void>(RUNS_QUEUE, this.deps.workers, (job) => this.run(job.data.tenantId, job.data.executionId, job.data.at), { groupCap: this.deps.tenantWorkers });
  }

  /** This node takes no further run and waits for those it runs, renewing their leases until they end. */
  async stop(): Promise<void> {
    await this.deps.queue.stopProcessing(RUNS_QUEUE);
    this.leases.stop();
  }

  /** A new execution (pending) queued to run; undefined when the trigger key already ran. */
  async execute(tenantId: string, g: Graph, t: Trigger): Promise<ExecutionRow | undefined> {
    const entries = g.nodes.filter((n) => n.node_category === 'trigger' && (!t.entryType || n.node_type === t.entryType)).map((n) => n.id);
    const row = await this.deps.store.createExecution(tenantId, g, {
      trigger_type: t.type, trigger_data: t.data, triggered_by: t.triggeredBy, trigger_key: t.key, queue: entries, chain: t.chain, parent_execution_id: t.parentExecutionId,
    });
    return this.queued(tenantId, g, row);
  }

  /**
   * A retry of a finished run on graph `g` (README, Retry): from its trigger with fresh context, or
   * (`fromFailedNode`) from the node it failed at with the outputs its other nodes had; undefined
   * when `once` and the run was retried already. 409 when the node it failed at is not in `g`.
   */
  async retry(tenantId: string, g: Graph, of: ExecutionRow, r: { fromFailedNode: boolean; triggeredBy: number; once: boolean }): Promise<ExecutionRow | undefined> {
    let queue = g.nodes.filter((n) => n.node_category === 'trigger').map((n) => n.id);
    let context: RunContext = { variables: {}, nodes: {} };
    if (r.fromFailedNode) {
      const left = of.scheduler.queue ?? [];
      if (!left.length) throw workflowErrors.nothingLeft();
      if (!g.nodes.some((n) => n.id === left[0])) {
        throw workflowErrors.nodeRemoved(left[0], g.workflow.version);
      }
      queue = left.filter((id) => g.nodes.some((n) => n.id === id));
      context = { variables: of.context.variables ?? {}, nodes: of.context.nodes ?? {} };
    }
    const row = await this.deps.store.createRetry(tenantId, g, of, { queue, context, triggered_by: r.triggeredBy, once: r.once });
    return this.queued(tenantId, g, row);
  }

  private async queued(tenantId: string, g: Graph, row: ExecutionRow | undefined): Promise<ExecutionRow | undefined> {
    // The graph as triggered, for this node's worker; another node reads it from the database.
    this.graphs.set(graphKey(tenantId, g.workflow.id, g.workflow.version), g);
    if (row) {
      this.created.set(row.id, row);
      await this.enqueue(tenantId, row.id, row.id);
    }
    return row;
  }

  async enqueue(tenantId: string, executionId: string, jobId: string, delayMs = 0, at?: string): Promise<void> {
    await this.deps.queue.add<RunJob>(RUNS_QUEUE, 'run', { tenantId, executionId, at }, { jobId, group: tenantId, delay: delayMs, attempts: 5, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: true });
  }

  /**
   * A run the sweeper claimed (run-sweeper.ts), queued under the id of the job that should be moving
   * it: a pending run's first job, or the wake-up of where it stands, so a copy of a job that is
   * still queued or running is absorbed by the queue's deduplication.
   */
  async requeue(tenantId: string, e: Pick<ExecutionRow, 'id' | 'status' | 'nodes_executed' | 'scheduler' | 'resume_at'>): Promise<void> {
    if (e.status === 'pending') return this.enqueue(tenantId, e.id, e.id);
    await this.enqueue(tenantId, e.id, wakeJobId(e), 0, runPosition(e));
  }

  /** Runs (or continues) one execution until it finishes, suspends, pauses or is cancelled, holding its lease meanwhile. */
  async run(tenantId: string, executionId: string, at?: string): Promise<void> {
    this.leases.hold(tenantId, executionId);
    try {
      await this.runHeld(tenantId, executionId, at);
    } finally {
      this.leases.release(tenantId, executionId);
    }
  }

  private async runHeld(tenantId: string, executionId: string, at: string | undefined): Promise<void> {
    const { store, clock } = this.deps;
    // A run this node created starts with its first checkpoint (the trigger's); another new run starts
    // (one statement); any other is read where its last checkpoint left it. Both take its lease.
    const created = this.created.get(executionId);
    this.created.delete(executionId);
    let e = created ?? (await this.markRunning(tenantId, executionId)) ?? (await store.takeUp(tenantId, executionId, new Date(clock.now())));
    if (!e || (e.status !== 'running' && e !== created)) return;
    // Woken early (a duplicate job): the delayed job that is due will come. A wake-up for a position
    // the run has left (its job ran meanwhile): that job moves it.
    if (e.resume_at && e.resume_at.getTime() > clock.now()) return;
    if (at !== undefined && at !== runPosition(e)) return;
    // The run walks the version it started on, whatever was saved since (README, Versions).
    const g = this.graphs.get(graphKey(tenantId, e.workflow_id, e.workflow_version)) ?? (await store.graphAt(tenantId, e.workflow_id, e.workflow_version));
    if (!g) return void (await this.finish(tenantId, e, 'failed', null, 'The workflow was deleted, or the version this run started on is no longer kept.'));
    // A run that would loop is refused before its first node, and announces nothing: its event would start the next refusal.
    const refused = e.status === 'pending' && e.nodes_executed === 0 ? chainRefusal(g.workflow.id, e.chain ?? [], this.deps.maxChainDepth) : undefined;
    if (refused) return void (await this.finish(tenantId, e, 'failed', null, refused.message, undefined, false));
    const acting = await this.deps.acting(tenantId, Number(g.workflow.owner_id));
    // Effect-free nodes' checkpoints the run has not written yet (folded-checkpoints.ts).
    const folds = new FoldedCheckpoints();
    folds.written(e.nodes_executed);
    if (!acting) {
      // The workflow is paused before the run is seen failed, so whoever reads the failed run finds it paused.
      await this.deps.ownerInactive(tenantId, g);
      const { message, code } = workflowErrors.ownerInactive(g.workflow.owner_id);
      return void (await this.finish(tenantId, e, 'failed', null, message, { g, message, code }));
    }
    for (;;) {
      const failed = e.scheduler.failed;
      if (failed) {
        const node = g.nodes.find((n) => n.id === failed.node_id);
        return void (await this.finish(tenantId, e, 'failed', null, `Node "${node?.label ?? failed.node_id}" failed: ${failed.message}`, { g, node, message: failed.message, code: failed.code }));
      }
      if (e.pause_requested) {
        await store.transition(tenantId, e.id, ['running'], 'status = $3, pause_requested = false, resume_at = NULL', ['paused']);
        return;
      }
      const queue = e.scheduler.queue ?? [];
      if (queue.length === 0) return void (await this.finish(tenantId, e, 'completed', this.lastOutput(e.context, g), null));
      const node = g.nodes.find((n) => n.id === queue[0]);
      if (!node) {
        const removed = 'A node of this run was removed from the workflow.';
        return void (await this.finish(tenantId, e, 'failed', null, removed, { g, message: removed }));
      }
      // Only a trigger (no effects) runs before its run is marked running.
      if (e.status === 'pending' && node.node_category !== 'trigger') {
        e = (await this.markRunning(tenantId, executionId)) ?? (await store.execution(tenantId, executionId));
        if (!e || e.status !== 'running') return;
        folds.written(e.nodes_executed);
        continue;
      }
      const next = await this.step(tenantId, e, g, node, acting, folds);
      if (!next) {
        // Someone else moved the run (a cancel, a pause, another worker's checkpoint): read where it is.
        e = await store.execution(tenantId, executionId);
        if (!e || e.status !== 'running') return;
        folds.written(e.nodes_executed);
        continue;
      }
      e = next;
      if (e.status === 'completed') return void (await this.announce(tenantId, e));
      if (e.status !== 'running' || e.resume_at) {
        if (e.status === 'running' && e.resume_at) await this.enqueue(tenantId, e.id, wakeJobId(e), Math.max(0, e.resume_at.getTime() - clock.now()), runPosition(e));
        return;
      }
    }
  }

  private markRunning(tenantId: string, executionId: string): Promise<ExecutionRow | undefined> {
    const { store } = this.deps;
    return store.transition(tenantId, executionId, ['pending'], `status = $3, started_at = COALESCE(started_at, $4), ${store.takesLease}`, ['running', new Date(this.deps.clock.now())]);
  }

  private lastOutput(context: RunContext, g: Graph): unknown {
    const done = g.nodes.filter((n) => context.nodes?.[n.label] !== undefined);
    return done.length ? (context.nodes[done[done.length - 1].label].output ?? null) : null;
  }

  /**
   * One attempt of one node, and its checkpoint: written, or folded into the next node's (the run
   * as it will be once written is answered then). Undefined when the checkpoint was not ours to write.
   */
  private async step(tenantId: string, e: ExecutionRow, g: Graph, node: NodeRow, acting: Actor, folds: FoldedCheckpoints): Promise<ExecutionRow | undefined> {
    const { store, clock } = this.deps;
    const write = (c: Omit<Checkpoint, 'at'>) => this.checkpoint(tenantId, e.id, folds, c);
    const attempt = e.scheduler.attempt ?? 0;
    const context: RunContext = { variables: e.context.variables ?? {}, nodes: e.context.nodes ?? {} };
    const started = new Date(clock.now());
    const t0 = performance.now();
    let input: unknown = node.node_category === 'trigger' ? e.trigger_data : null;
    let output: unknown;
    let failure: string | undefined;
    let code: string | undefined;
    let limited: RateLimitedError | undefined;
    let operation = node.node_type;
    const catalog = await this.deps.catalogFor(tenantId);
    try {
      if (node.node_category === 'trigger') output = e.trigger_data;
      else {
        const entry = catalog.node(node.node_type);
        operation = entry?.operation ?? operation;
        input = withMergeInputs(g, node, context, nodeInput(node.config, placeholderValues(e.trigger_data, e.trigger_type, context), entry));
        // A sub-workflow node waits for the run it started without holding this worker (./sub-workflow.ts).
        const waitingFor = e.scheduler.waiting_for;
        if (!waitingFor) output = await this.callNode(tenantId, e, node, entry, input, attempt, acting);
        const child = waitingFor ?? awaitedChild(entry, output);
        if (child) {
          const outcome = await childOutcome(store, tenantId, child);
          if (!outcome.done) return this.awaitChild(tenantId, e, child);
          output = outcome.output;
        }
      }
    } catch (err) {
      if (err instanceof RateLimitedError) limited = err;
      else {
        failure = errorText(err);
        code = err instanceof MandiError ? err.code : undefined;
      }
    }
    if (limited) return this.waitForBudget(e, node, operation, input, started, limited, write);
    const log = {
      node_id: node.id, node_type: node.node_type, node_label: node.label, status: failure === undefined ? 'completed' : 'failed',
      input_data: input ?? null, output_data: failure === undefined ? (output ?? null) : null, error_message: failure ?? null, retry_attempt: attempt,
      started_at: started, completed_at: new Date(clock.now()), duration_ms: Math.round(performance.now() - t0),
    };
    const queue = e.scheduler.queue ?? [];
    if (failure === undefined) {
      context.nodes[node.label] = { output: output ?? null };
      if (isObject(output) && isObject(output.variables) && node.node_type.startsWith('workflows:')) Object.assign(context.variables, output.variables);
      const done = new Set(g.nodes.filter((n) => context.nodes[n.label] !== undefined).map((n) => n.id));
      const next = queue.slice(1);
      for (const id of successors(g, node.id, output)) if (!next.includes(id) && !done.has(id)) next.push(id);
      // A merge whose other branches can still run waits behind them (merge.ts): it runs once, last.
      const rest = readyFirst(g, next, done);
      const suspend = isObject(output) && typeof output.suspend_seconds === 'number' && output.suspend_seconds > 0 ? output.suspend_seconds : 0;
      const resumeAt = suspend ? new Date(clock.now() + suspend * 1000) : null;
      // The last node's checkpoint also ends the run, and the first's of a run not started yet starts it.
      const complete = rest.length === 0 && !resumeAt ? { result: this.lastOutput(context, g), at: new Date(clock.now()) } : undefined;
      const start = e.status === 'pending' ? started : undefined;
      const nextNode = rest.length && !resumeAt ? g.nodes.find((n) => n.id === rest[0]) : undefined;
      if (nextNode && effectFree(catalog, node) && effectFree(catalog, nextNode) && folds.mayFold(t0)) {
        // Both effect-free: the next node runs before this one's outcome is committed, which is written with the next (folded-checkpoints.ts).
        folds.fold({ log, start, context }, t0);
        return { ...e, status: 'running', context, scheduler: { queue: rest, attempt: 0 }, resume_at: null, nodes_executed: e.nodes_executed + 1 };
      }
      return write({ log, context, scheduler: { queue: rest, attempt: 0 }, resume_at: resumeAt, executed: 1, start, complete });
    }
    if (attempt < retriesOf(g.workflow.settings, node)) {
      // Retry with exponential backoff (spec 2, Execution: retry_count, retry_delay_seconds; settings.retry_on_failure); suspended meanwhile.
      const delay = node.retry_delay_seconds * 2 ** attempt;
      return write({ log, scheduler: { queue, attempt: attempt + 1 }, resume_at: delay ? new Date(clock.now() + delay * 1000) : null });
    }
    // The failure goes in the checkpoint, so a worker that finds the run still running after a crash ends it (and starts its error workflow) instead of running the node again.
    const failed = await write({ log, failed: 1, scheduler: { queue, attempt, failed: { node_id: node.id, message: failure, code } } });
    if (failed) await this.finish(tenantId, failed, 'failed', null, `Node "${node.label}" failed: ${failure}`, { g, node, message: failure, code });
    return failed && { ...failed, status: 'failed' };
  }

  /**
   * Back-pressure: the bus refused the node's call for the rate limit of its (tenant, caller,
   * operation), so the operation never ran. That is not the node's failure and costs no attempt: the
   * run is suspended until the budget frees (the limit's retry-after), with a `waiting` log row.
   */
  private waitForBudget(
    e: ExecutionRow, node: NodeRow, operation: string, input: unknown, started: Date, err: RateLimitedError, write: (c: Omit<Checkpoint, 'at'>) => Promise<ExecutionRow | undefined>,
  ): Promise<ExecutionRow | undefined> {
    const now = this.deps.clock.now();
    const resumeAt = new Date(now + Math.max(1, err.retryAfterSeconds) * 1000);
    const attempt = e.scheduler.attempt ?? 0;
    return write({
      log: {
        node_id: node.id, node_type: node.node_type, node_label: node.label, status: 'waiting', input_data: input ?? null,
        output_data: { waited_for: 'rate_limit', operation, resume_at: resumeAt.toISOString() },
        error_message: `Waited for the rate limit of ${operation}: the node runs at ${resumeAt.toISOString()}.`,
        retry_attempt: attempt, started_at: started, completed_at: new Date(now), duration_ms: 0,
      },
      scheduler: { ...e.scheduler, waits: (e.scheduler.waits ?? 0) + 1 }, resume_at: resumeAt,
    });
  }

  /** Writes a checkpoint with the effect-free nodes' folded before it; the run's row as written, undefined when it was not ours to write. */
  private async checkpoint(tenantId: string, executionId: string, folds: FoldedCheckpoints, c: Omit<Checkpoint, 'at'>): Promise<ExecutionRow | undefined> {
    const row = await this.deps.store.checkpoint(tenantId, executionId, folds.with(c));
    if (row) folds.written(row.nodes_executed);
    return row;
  }

  private async callNode(tenantId: string, e: ExecutionRow, node: NodeRow, entry: NodeEntry | undefined, input: unknown, attempt: number, acting: Actor): Promise<unknown> {
    if (!entry) throw workflowErrors.nodeUnavailable(node.node_type);
    if (!entry.operation) throw workflowErrors.nodeNotRunnable(node.node_type);
    const key = `${e.id}:${node.id}:${attempt}`;
    // The chain with this run's workflow goes with the call, so what it emits or starts knows it (./run-chain.ts).
    const ctx = { tenantId, user: acting.user, permissions: acting.permissions, requestId: key, idempotencyKey: key, workflowChain: [...(e.chain ?? []), e.workflow_id], workflowExecutionId: e.id };
    const call = (async () => {
      // A call interrupted because its module's isolate was rebuilt (another run's runaway code node,
      // say) is not this node's failure: it runs again, with the same idempotency key.
      for (let interrupted = 0; ; interrupted++) {
        try {
          return await this.deps.bus.call({ kind: 'edge', via: 'workflow' }, entry.operation!, input ?? {}, ctx);
        } catch (err) {
          if (!(err instanceof MandiError && err.code === 'MODULE_RESTARTED' && interrupted < RESTART_RETRIES)) throw err;
        }
      }
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(workflowErrors.nodeTimeout(node.timeout_seconds)), node.timeout_seconds * 1000);
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The first queued node waits for `child`: recorded with a recheck at WAIT_RECHECK_SECONDS (a wake
   * the child's end could not send, a restart), and the child's end wakes it sooner. A child that
   * ended meanwhile is read at once.
   */
  private async awaitChild(tenantId: string, e: ExecutionRow, child: string): Promise<ExecutionRow | undefined> {
    const { store, clock } = this.deps;
    // Suspended, it releases its lease (a sweep takes the recheck once due); going on here, it takes it again.
    const waiting = await store.transition(tenantId, e.id, ['running'], 'scheduler = $3::jsonb, resume_at = $4, lease_until = NULL', [JSON.stringify({ ...e.scheduler, waiting_for: child }), new Date(clock.now() + WAIT_RECHECK_SECONDS * 1000)]);
    if (!waiting || !(await childOutcome(store, tenantId, child)).done) return waiting;
    return store.transition(tenantId, e.id, ['running'], `resume_at = NULL, ${store.takesLease}`);
  }

  /**
   * The run's end: its status, result and duration, the workflow's counters, and its lifecycle event
   * (none for a refused run: `emit` false); a failure also starts the workflow's error workflow
   * (error-workflow.ts), once per failed run, with the failed run's chain (./run-chain.ts).
   */
  private async finish(tenantId: string, e: ExecutionRow, status: 'completed' | 'failed', result: unknown, error: string | null, failure?: RunFailure & { g: Graph }, emit = true): Promise<void> {
    const { store, clock } = this.deps;
    const now = new Date(clock.now());
    const done = await store.finish(tenantId, e.id, status, result, error, now);
    if (!done) return;
    await this.announce(tenantId, done, emit);
    if (!failure) return;
    try {
      const errorRun = await errorRunOf(store, tenantId, failure.g, done, failure, now);
      if (errorRun) await this.execute(tenantId, errorRun.graph, { ...errorRun.trigger, chain: [...(done.chain ?? []), done.workflow_id] });
    } catch (err) {
      // The failed run is written; an error run that could not be started is logged, never this run's failure.
      this.logger.error({ err, execution: done.id }, 'error workflow not started');
    }
  }

  /**
   * A run just finished: the run waiting for it as a sub-workflow wakes, so do webhook calls waiting
   * for it, and its lifecycle event lets other workflows follow it (spec 2, event trigger), with its
   * chain (./run-chain.ts).
   */
  private async announce(tenantId: string, done: ExecutionRow, emit = true): Promise<void> {
    if (done.parent_execution_id) await this.wakeParent(tenantId, done).catch((err) => this.logger.error({ err }, 'parent run not woken'));
    this.deps.finished(tenantId, done);
    if (!emit) return;
    const payload = { execution_id: done.id, workflow_id: done.workflow_id, workflow_name: done.workflow_name, status: done.status, error_message: done.error_message, duration_ms: done.duration_ms };
    const chain = [...(done.chain ?? []), done.workflow_id];
    await this.deps.events.emit(tenantId, `${LIFECYCLE_EVENTS}${done.status}`, payload, 'workflows', chain).catch((err) => this.logger.error({ err }, 'workflow lifecycle event not emitted'));
  }

  /** Wakes the run whose sub-workflow node waits for `child`, if it still does (a paused one reads the child when resumed). */
  private async wakeParent(tenantId: string, child: ExecutionRow): Promise<void> {
    const { store } = this.deps;
    // Its wake-up job holds it from here: the lease keeps a sweep from queuing it a second time meanwhile.
    const parent = await store.transition(tenantId, child.parent_execution_id!, ['running'], `resume_at = NULL, ${store.takesLease}`, [child.id], "scheduler->>'waiting_for' = $3");
    if (parent) await this.enqueue(tenantId, parent.id, `${parent.id}:child:${child.id}`);
  }
}
