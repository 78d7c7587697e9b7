/**
 * The sweeper (spec 2, Execution: a suspended run wakes at resume_at; a run continues from its last
 * checkpoint). A run's wake-up is a job, and jobs of the in-process queue die with their process; a
 * bull job can also fail for good. So on start and every WORKFLOW_SWEEP_SECONDS each node claims, per
 * tenant with `workflows` installed, the runs nobody holds (workflow-store.ts claimUnheld: due or
 * overdue suspended runs, pending or running runs whose lease expired) and queues each again under
 * the id its own job has, so a job still queued or running absorbs the copy. The claim is one
 * conditional statement that skips rows another node is claiming: two nodes never both take a run.
 */
import type { CentralDb } from '../../kernel/data/central-db';
import type { Logger } from '../../kernel/logger';
import type { WorkflowEngine } from './engine';
import { WORKFLOWS_MODULE } from './route-support';
import type { WorkflowStore } from './workflow-store';

/** Runs claimed per tenant and sweep: the rest are claimed by the next sweep. */
const BATCH = 500;

export interface SweeperDeps {
  central: CentralDb;
  store: WorkflowStore;
  engine: WorkflowEngine;
  logger: Logger;
  now(): number;
  everyMs: number;
}

export class RunSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(private readonly deps: SweeperDeps) {}

  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.deps.everyMs);
    this.timer.unref();
  }

  /** No further sweep; one under way finishes (it may be queuing runs). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** One sweep of every tenant (one at a time on this node); the runs it queued. */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepAll().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepAll(): Promise<number> {
    const { central, store, engine, logger } = this.deps;
    let queued = 0;
    try {
      const installs = await central.models.ModuleInstall.findAll({ where: { alias: WORKFLOWS_MODULE, status: 'installed' }, attributes: ['tenant_id'] });
      for (const tenantId of new Set(installs.map((i) => i.tenant_id))) {
        try {
          const runs = await store.claimUnheld(tenantId, new Date(this.deps.now()), BATCH);
          for (const e of runs) await engine.requeue(tenantId, e);
          queued += runs.length;
          if (runs.length) logger.info({ tenantId, runs: runs.length }, 'workflow runs nobody held queued again');
        } catch (err) {
          logger.warn({ err, tenantId }, 'workflow sweep of a tenant failed');
        }
      }
    } catch (err) {
      logger.warn({ err }, 'workflow sweep failed');
    }
    return queued;
  }
}
