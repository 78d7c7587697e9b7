/**
 * Group commit for checkpoints (spec 2, Execution: a checkpoint after each node). Each checkpoint
 * costs a commit, and a commit waits for the disk; one tenant's concurrent runs would queue for its
 * few pooled connections and, as they finish, for their workflow's row (its counters). So per tenant
 * one statement writes at a time: a checkpoint that comes while it is out waits for the next, which
 * carries every checkpoint that came meanwhile. Alone, a checkpoint is written at once; each is still
 * committed before its run goes on to the next node, and its caller learns whether it was its own
 * write. One checkpoint per execution per statement: a second one (a duplicate job) waits for the
 * next, so it finds the first's log row, as it would have in its own statement.
 */
import type { ExecutionRow } from './workflow';

interface Waiting<C> {
  executionId: string;
  checkpoint: C;
  resolve(row: ExecutionRow | undefined): void;
  reject(err: unknown): void;
}

/** Writes a tenant's checkpoints in one statement; answers the rows it moved, by execution id. */
export type WriteCheckpoints<C> = (tenantId: string, batch: { executionId: string; checkpoint: C }[]) => Promise<Map<string, ExecutionRow>>;

export class CheckpointBatches<C> {
  /** Per tenant with a statement out: the checkpoints waiting for the next one. */
  private readonly waiting = new Map<string, Waiting<C>[]>();

  constructor(
    private readonly write: WriteCheckpoints<C>,
    private readonly maxBatch = 100,
  ) {}

  add(tenantId: string, executionId: string, checkpoint: C): Promise<ExecutionRow | undefined> {
    return new Promise((resolve, reject) => {
      const item = { executionId, checkpoint, resolve, reject };
      const queue = this.waiting.get(tenantId);
      if (queue) return void queue.push(item);
      this.waiting.set(tenantId, [item]);
      void this.drain(tenantId);
    });
  }

  private async drain(tenantId: string): Promise<void> {
    const queue = this.waiting.get(tenantId)!;
    while (queue.length) {
      const batch: Waiting<C>[] = [];
      const ids = new Set<string>();
      for (let i = 0; i < queue.length && batch.length < this.maxBatch; ) {
        if (ids.has(queue[i].executionId)) i++;
        else {
          ids.add(queue[i].executionId);
          batch.push(...queue.splice(i, 1));
        }
      }
      try {
        const rows = await this.write(tenantId, batch);
        for (const w of batch) w.resolve(rows.get(w.executionId));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.waiting.delete(tenantId);
  }
}
