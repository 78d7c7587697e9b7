/**
 * The leases of the runs this node is running (spec 2, Execution: a run continues after its worker
 * dies). While a run is in a worker here, its `lease_until` is renewed every third of the lease, one
 * statement per tenant for all of them; a run whose node was killed stops being renewed, and once
 * its lease has expired the sweeper (run-sweeper.ts) queues it again from its last checkpoint.
 */
import type { Logger } from '../../kernel/logger';

export class RunLeases {
  /** Per tenant, the runs in a worker here, with how many workers hold each (a test run and its job may overlap). */
  private readonly held = new Map<string, Map<string, number>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly renew: (tenantId: string, ids: string[]) => Promise<void>,
    private readonly leaseMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.renewAll(), Math.max(100, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  hold(tenantId: string, id: string): void {
    let runs = this.held.get(tenantId);
    if (!runs) this.held.set(tenantId, (runs = new Map()));
    runs.set(id, (runs.get(id) ?? 0) + 1);
  }

  release(tenantId: string, id: string): void {
    const runs = this.held.get(tenantId);
    const n = runs?.get(id) ?? 0;
    if (n > 1) return void runs!.set(id, n - 1);
    runs?.delete(id);
    if (runs?.size === 0) this.held.delete(tenantId);
  }

  private async renewAll(): Promise<void> {
    await Promise.all(
      [...this.held].map(([tenantId, runs]) =>
        this.renew(tenantId, [...runs.keys()]).catch((err: unknown) => this.logger.warn({ err, tenantId }, 'workflow run leases not renewed')),
      ),
    );
  }
}
