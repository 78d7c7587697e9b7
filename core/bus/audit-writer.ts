/**
 * Audit records of bus calls, written in batches: one INSERT per flush instead of one per call,
 * so auditing costs the caller nothing but an array push. Flushed every second, when the buffer
 * fills, and on close.
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

export class AuditWriter {
  private buffer: AuditRecord[] = [];
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly central: CentralDb, private readonly logger: Logger, private readonly maxBatch = 500, intervalMs = 1000) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  write(record: AuditRecord): void {
    this.buffer.push(record);
    if (this.buffer.length >= this.maxBatch) void this.flush();
  }

  /** Writes what is buffered; resolves when it is in the database. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (!this.buffer.length) return;
      const batch = this.buffer;
      this.buffer = [];
      try {
        await this.central.models.AuditEntry.bulkCreate(batch);
      } catch (err) {
        this.logger.error({ err, lost: batch.length }, 'audit batch could not be written');
      }
    });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
