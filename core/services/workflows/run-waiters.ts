/**
 * Webhook calls waiting for their run's end (`trigger_config.respond: "last_node"`,
 * webhook-respond.ts). A finished webhook run is published once on the pub/sub channel
 * RUN_FINISHED (in-process, or on Redis across nodes), and every node wakes its own waiters of that
 * run, which then read it once; a slow poll (POLL_MS) covers a message lost or a run that ended
 * without the engine (a cancel). Each waiter holds a socket and a timer, so one tenant may have at
 * most `perTenant` waiting on a node (WORKFLOW_WEBHOOK_WAITS_PER_TENANT): beyond it, 429
 * WEBHOOK_WAIT_LIMIT and nothing runs.
 */
import { workflowErrors } from './errors';
import type { PubSub } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import { isObject } from '../../kernel/is-object';
import { FINISHED, type ExecutionRow } from './workflow';
import type { WorkflowStore } from './workflow-store';

export const RUN_FINISHED = 'workflows.run-finished';
const POLL_MS = 5_000;

export class RunWaiters {
  private readonly wakers = new Map<string, Set<() => void>>();
  /** Waiters per tenant on this node; a tenant's entry goes with its last waiter. */
  private readonly held = new Map<string, number>();
  private subscribed: Promise<unknown> | undefined;

  constructor(private readonly deps: { pubsub: PubSub; store: WorkflowStore; logger: Logger; perTenant: number }) {}

  private subscribe(): Promise<unknown> {
    this.subscribed ??= this.deps.pubsub.subscribe(RUN_FINISHED, (m) => {
      if (isObject(m) && typeof m.tenantId === 'string' && typeof m.executionId === 'string') for (const wake of this.wakers.get(`${m.tenantId}:${m.executionId}`) ?? []) wake();
    });
    return this.subscribed;
  }

  /** A run just finished: only webhook runs are waited for, so only they are published. */
  finished(tenantId: string, run: ExecutionRow): void {
    if (run.trigger_type !== 'webhook') return;
    this.deps.pubsub.publish(RUN_FINISHED, { tenantId, executionId: run.id }).catch((err) => this.deps.logger.warn({ err }, 'run-finished not published; waiters fall back to polling'));
  }

  /** A slot to wait in, or 429 when the tenant holds them all on this node; call the returned function once, when done. */
  take(tenantId: string): () => void {
    const held = this.held.get(tenantId) ?? 0;
    if (held >= this.deps.perTenant) {
      throw workflowErrors.waitLimit(held, this.deps.perTenant);
    }
    this.held.set(tenantId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(tenantId) ?? 1) - 1;
      if (left === 0) this.held.delete(tenantId);
      else this.held.set(tenantId, left);
    };
  }

  /** The run once finished, or as it is when `timeoutMs` passed first or `signal` aborted (the caller went away); undefined when it is gone. */
  async wait(tenantId: string, executionId: string, timeoutMs: number, signal: AbortSignal): Promise<ExecutionRow | undefined> {
    const key = `${tenantId}:${executionId}`;
    // A wake that comes while the run is being read is kept for the next wait, not lost.
    let woken = false;
    let wake = () => {};
    const waker = () => {
      woken = true;
      wake();
    };
    const set = this.wakers.get(key) ?? new Set();
    this.wakers.set(key, set.add(waker));
    const deadline = Date.now() + timeoutMs;
    try {
      await this.subscribe();
      for (;;) {
        woken = false;
        // Read after subscribing, so a run that ended before is seen and one that ends later wakes us.
        const run = await this.deps.store.execution(tenantId, executionId);
        if (!run || FINISHED.includes(run.status as never)) return run;
        const left = deadline - Date.now();
        if (left <= 0 || signal.aborted) return run;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, Math.min(POLL_MS, left));
          wake = done;
          signal.addEventListener('abort', done);
        });
      }
    } finally {
      set.delete(waker);
      if (set.size === 0 && this.wakers.get(key) === set) this.wakers.delete(key);
    }
  }
}
