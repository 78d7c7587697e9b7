/**
 * Audit records of bus calls, written in batches so auditing costs a call no more than a few array
 * pushes. Records are kept column by column (one array per column, the details already JSON), not
 * as objects: at tens of thousands of calls a second, a buffer of live objects is what the garbage
 * collector would spend its time on. Each batch is one `INSERT … SELECT` with one JSON parameter,
 * sent on a pooled connection without the ORM (whose bind rewriting of thousands of placeholders
 * cost more than the rows). Flushed every second, when a batch fills, and on close;
 * one flush runs at a time. Under a sustained load beyond what the database takes, the buffer is
 * capped and the overflow counted and logged.
 */
import type { CentralDb } from '../data/central-db';
import { withPooledClient } from '../data/pooled-client';
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

/** The buffer, one array per column of audit_log; `at` is epoch milliseconds. */
interface Columns {
  tenant: (string | null)[];
  actorType: string[];
  actorId: (string | null)[];
  action: string[];
  target: (string | null)[];
  status: string[];
  details: (string | null)[];
  at: number[];
}

const emptyColumns = (): Columns => ({ tenant: [], actorType: [], actorId: [], action: [], target: [], status: [], details: [], at: [] });

// The batch travels as one JSON document of eight column arrays: the driver sends it as it is (one
// native JSON.stringify), where eight array parameters had every element escaped in JavaScript.
const INSERT = `INSERT INTO audit_log (tenant_id, actor_type, actor_id, action, target, status, details, created_at)
  SELECT b.c->0->>n, b.c->1->>n, b.c->2->>n, b.c->3->>n, b.c->4->>n, b.c->5->>n, (b.c->6->>n)::jsonb, to_timestamp((b.c->7->>n)::float8 / 1000)
    FROM (SELECT $1::jsonb AS c) AS b, generate_series(0, jsonb_array_length(b.c->0) - 1) AS n
   ORDER BY n`;

export class AuditWriter {
  private buffer = emptyColumns();
  /** Records taken by the flush in progress and not yet written: they count against the cap. */
  private draining = 0;
  private running: Promise<void> | undefined;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly central: CentralDb,
    private readonly logger: Logger,
    private readonly batchSize = 1000,
    private readonly maxBuffered = 200_000,
    intervalMs = 1000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  write(record: AuditRecord): void {
    const b = this.buffer;
    if (b.at.length + this.draining >= this.maxBuffered) {
      this.dropped++;
      return;
    }
    b.tenant.push(record.tenant_id);
    b.actorType.push(record.actor_type);
    b.actorId.push(record.actor_id);
    b.action.push(record.action);
    b.target.push(record.target ?? null);
    b.status.push(record.status);
    b.details.push(record.details ? JSON.stringify(record.details) : null);
    b.at.push(record.created_at.getTime());
    if (b.at.length >= this.batchSize && !this.running) void this.flush();
  }

  /** Writes everything buffered so far; resolves when it is in the database. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (!this.buffer.at.length) return this.reportDropped();
    this.running = this.drain().finally(() => (this.running = undefined));
    await this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.buffer.at.length) {
      // Take the whole buffer at once (writes meanwhile start a new one) and send it in batches.
      const taken = this.buffer;
      this.buffer = emptyColumns();
      this.draining = taken.at.length;
      for (let from = 0; from < taken.at.length; from += this.batchSize) {
        const to = Math.min(from + this.batchSize, taken.at.length);
        try {
          await this.insert(taken, from, to);
        } catch (err) {
          this.logger.error({ err, lost: to - from }, 'audit batch could not be written');
        }
        this.draining = taken.at.length - to;
      }
    }
    this.reportDropped();
  }

  private async insert(c: Columns, from: number, to: number): Promise<void> {
    const batch = JSON.stringify([c.tenant, c.actorType, c.actorId, c.action, c.target, c.status, c.details, c.at].map((col) => col.slice(from, to)));
    await withPooledClient(this.central.sequelize, (client) => client.query(INSERT, [batch]));
  }

  private reportDropped(): void {
    if (!this.dropped) return;
    this.logger.warn({ dropped: this.dropped }, 'audit buffer full: records dropped (the database is not keeping up)');
    this.dropped = 0;
  }
}
