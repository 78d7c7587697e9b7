/**
 * Group commit for a tenant's execution writes (spec 2, Execution: a checkpoint after each node; a
 * run's row before it starts). Each write costs a commit, and a commit waits for the disk; one
 * tenant's concurrent runs would queue for its few pooled connections (TENANT_POOL_MAX) and, as they
 * finish, for their workflow's row (its counters). So per tenant at most two statements are out at a
 * time (one commits while the next is sent); a write that comes while both are out waits for the
 * next, which carries every write that came meanwhile. Alone, a write goes out at once; each is still
 * committed before its caller goes on, and its caller learns the row it wrote (or none). One write
 * per execution per statement: a second one (a duplicate job) waits for the next, so it finds the
 * first's rows, as it would have in its own statement.
 */
import type { ExecutionRow } from './workflow';

interface Waiting<C> {
  executionId: string;
  item: C;
  resolve(row: ExecutionRow | undefined): void;
  reject(err: unknown): void;
}

/** Writes a batch of one tenant's writes in one statement; answers the rows it wrote, by execution id. */
export type WriteBatch<C> = (tenantId: string, batch: { executionId: string; item: C }[]) => Promise<Map<string, ExecutionRow>>;

interface Tenant<C> {
  waiting: Waiting<C>[];
  /** Statements out. */
  writers: number;
  /** Executions with a write in a statement out. */
  writing: Set<string>;
}

export class GroupCommit<C> {
  private readonly tenants = new Map<string, Tenant<C>>();

  constructor(
    private readonly write: WriteBatch<C>,
    /** Statements out at once per tenant: one commits while the next is sent. */
    private readonly maxWriters = 2,
    private readonly maxBatch = 100,
  ) {}

  add(tenantId: string, executionId: string, item: C): Promise<ExecutionRow | undefined> {
    return new Promise((resolve, reject) => {
      let t = this.tenants.get(tenantId);
      if (!t) this.tenants.set(tenantId, (t = { waiting: [], writers: 0, writing: new Set() }));
      t.waiting.push({ executionId, item, resolve, reject });
      if (t.writers < this.maxWriters) {
        t.writers++;
        void this.drain(tenantId, t);
      }
    });
  }

  private async drain(tenantId: string, t: Tenant<C>): Promise<void> {
    for (let batch = this.take(t); batch.length; batch = this.take(t)) {
      try {
        await this.settle(tenantId, batch);
      } finally {
        for (const w of batch) t.writing.delete(w.executionId);
      }
    }
    // What is left waits for a writer still out, which takes it when its statement returns.
    if (--t.writers === 0) this.tenants.delete(tenantId);
  }

  /** Writes a batch; if it fails, each write alone, so one that cannot be written (bad data, say) fails only its own run. */
  private async settle(tenantId: string, batch: Waiting<C>[]): Promise<void> {
    try {
      const rows = await this.write(tenantId, batch);
      for (const w of batch) w.resolve(rows.get(w.executionId));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const w of batch) await this.settle(tenantId, [w]);
    }
  }

  private take(t: Tenant<C>): Waiting<C>[] {
    const batch: Waiting<C>[] = [];
    for (let i = 0; i < t.waiting.length && batch.length < this.maxBatch; ) {
      const w = t.waiting[i];
      if (t.writing.has(w.executionId)) i++;
      else {
        t.writing.add(w.executionId);
        batch.push(...t.waiting.splice(i, 1));
      }
    }
    return batch;
  }
}
