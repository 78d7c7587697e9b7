/**
 * Audit records of bus calls, written in batches: one multi-row INSERT per 500 records instead of
 * one per call, so auditing costs a call no more than an array push. Flushed every second, when a
 * batch fills, and on close. One flush runs at a time and takes at most one batch per statement,
 * so a burst never builds one giant statement that would stall the event loop. Under a sustained
 * load beyond what the database takes, the buffer is capped and the overflow counted and logged.
 */
import type { CentralDb } from '../data/central-db';
import type { Logger } from '../logger';

export interface AuditRecord {
  tenant_id: string | null;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target?: string | null;
  status: 'ok' | 'error';
  details?: Record<string, unknown> | null;
  created_at: Date;
}

const COLUMNS = ['tenant_id', 'actor_type', 'actor_id', 'action', 'target', 'status', 'details', 'created_at'] as const;

export class AuditWriter {
  private buffer: AuditRecord[] = [];
  private running: Promise<void> | undefined;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly central: CentralDb,
    private readonly logger: Logger,
    private readonly batchSize = 500,
    private readonly maxBuffered = 200_000,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  write(record: AuditRecord): void {
    if (this.buffer.length >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    this.buffer.push(record);
    if (this.buffer.length >= this.batchSize && !this.running) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is in the database. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (!this.buffer.length) return this.reportDropped();
    this.running = this.drain().finally(() => (this.running = undefined));
    await this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, this.batchSize);
      try {
        await this.insert(batch);
      } catch (err) {
        this.logger.error({ err, lost: batch.length }, 'audit batch could not be written');
      }
    }
    this.reportDropped();
  }

  private insert(batch: AuditRecord[]): Promise<unknown> {
    const values: unknown[] = [];
    const rows = batch.map((r, i) => {
      values.push(r.tenant_id, r.actor_type, r.actor_id, r.action, r.target ?? null, r.status, r.details ? JSON.stringify(r.details) : null, r.created_at);
      return `(${COLUMNS.map((_, c) => `$${i * COLUMNS.length + c + 1}`).join(', ')})`;
    });
    return this.central.sequelize.query(`INSERT INTO audit_log (${COLUMNS.join(', ')}) VALUES ${rows.join(', ')}`, { bind: values });
  }

  private reportDropped(): void {
    if (!this.dropped) return;
    this.logger.warn({ dropped: this.dropped }, 'audit buffer full: records dropped (the database is not keeping up)');
    this.dropped = 0;
  }
}
