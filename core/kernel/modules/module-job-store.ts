/**
 * The records of module jobs in the central database (migration 0030-module-jobs). The queue only
 * carries a job's id; what the job is, whose it is and how far it got lives here, so any node can
 * answer jobs.get and every bound (pending jobs per module, one pending job per key) holds across
 * nodes.
 */
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import type { CentralDb } from '../data/central-db';

export type ModuleJobStatus = 'pending' | 'active' | 'completed' | 'failed' | 'cancelled' | 'dropped';

export interface ModuleJobRow {
  id: string;
  tenant_id: string;
  alias: string;
  job: string;
  key: string | null;
  data: unknown;
  status: ModuleJobStatus;
  attempts: number;
  progress: unknown;
  result: unknown;
  error: string | null;
  run_at: Date;
  created_at: Date;
  finished_at: Date | null;
}

export interface NewModuleJob {
  tenantId: string;
  alias: string;
  job: string;
  key: string | undefined;
  /** The running job that enqueues this one, if any: its own key does not count against it. */
  from: string | undefined;
  data: unknown;
  runAt: Date;
}

/** Pending or running: what counts against the limit and what a key deduplicates against. */
const OPEN = `status IN ('pending', 'active')`;

// pg_advisory_xact_lock(namespace, key): one enqueue per module and tenant at a time, so the pending
// count and the key check cannot both pass for two racing enqueues. Any constant unlike the others.
const LOCK_NAMESPACE = 0x6a6f6273; // "jobs"

export class ModuleJobStore {
  constructor(private readonly central: CentralDb) {}

  /**
   * Records a new pending job unless the module already has an open one with the same key (then
   * that one's id, deduplicated), or `maxOpen` open ones (then undefined). A job that enqueues its
   * own next run under its own key (a sweep every minute) is not deduplicated against itself.
   */
  async insert(job: NewModuleJob, maxOpen: number): Promise<{ id: string; deduplicated: boolean } | undefined> {
    return this.central.sequelize.transaction(async (transaction) => {
      await this.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE, `${job.tenantId}:${job.alias}`], transaction);
      if (job.key !== undefined) {
        const [same] = await this.query<{ id: string }>(
          `SELECT id FROM module_jobs WHERE tenant_id = $1 AND alias = $2 AND key = $3 AND ${OPEN} AND id IS DISTINCT FROM $4`,
          [job.tenantId, job.alias, job.key, job.from ?? null],
          transaction,
        );
        if (same) return { id: same.id, deduplicated: true };
      }
      const [{ open }] = await this.query<{ open: number }>(`SELECT count(*)::int AS open FROM module_jobs WHERE tenant_id = $1 AND alias = $2 AND ${OPEN}`, [job.tenantId, job.alias], transaction);
      if (open >= maxOpen) return undefined;
      const id = randomUUID();
      await this.query(
        `INSERT INTO module_jobs (id, tenant_id, alias, job, key, data, status, run_at) VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)`,
        [id, job.tenantId, job.alias, job.job, job.key ?? null, JSON.stringify(job.data), job.runAt],
        transaction,
      );
      return { id, deduplicated: false };
    });
  }

  /** A job of this module in this tenant; another's id is simply not found. */
  async get(tenantId: string, alias: string, id: string): Promise<ModuleJobRow | undefined> {
    const [row] = await this.query<ModuleJobRow>('SELECT * FROM module_jobs WHERE id = $1 AND tenant_id = $2 AND alias = $3', [id, tenantId, alias]);
    return row;
  }

  async byId(id: string): Promise<ModuleJobRow | undefined> {
    const [row] = await this.query<ModuleJobRow>('SELECT * FROM module_jobs WHERE id = $1', [id]);
    return row;
  }

  /** Cancels an open job; the returned row says what it is now (undefined: not this module's). */
  async cancel(tenantId: string, alias: string, id: string, at: Date): Promise<ModuleJobRow | undefined> {
    await this.query(`UPDATE module_jobs SET status = 'cancelled', finished_at = $4 WHERE id = $1 AND tenant_id = $2 AND alias = $3 AND ${OPEN}`, [id, tenantId, alias, at]);
    return this.get(tenantId, alias, id);
  }

  /**
   * Marks the job running as attempt `attempt`, unless it is no longer open, or `concurrency`
   * (when given) others of the same job already run in the tenant ('busy'). With `reclaim`, a job
   * already marked running is taken over too (bull re-delivers one only once its node has died).
   */
  async claim(id: string, attempt: number, concurrency: number | undefined, reclaim: boolean): Promise<ModuleJobRow | 'busy' | undefined> {
    return this.central.sequelize.transaction(async (transaction) => {
      const [row] = await this.query<ModuleJobRow>('SELECT * FROM module_jobs WHERE id = $1 FOR UPDATE', [id], transaction);
      if (!row || !(row.status === 'pending' || (reclaim && row.status === 'active'))) return undefined;
      if (concurrency !== undefined && (await this.running(row, transaction)) >= concurrency) return 'busy';
      await this.query(`UPDATE module_jobs SET status = 'active', attempts = $2 WHERE id = $1`, [id, attempt], transaction);
      return { ...row, status: 'active', attempts: attempt };
    });
  }

  /** Others of the same job running in the tenant; the lock makes two claims count one after the other. */
  private async running(row: ModuleJobRow, transaction: Transaction): Promise<number> {
    await this.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_NAMESPACE + 1, `${row.tenant_id}:${row.alias}:${row.job}`], transaction);
      const [{ running }] = await this.query<{ running: number }>(
        `SELECT count(*)::int AS running FROM module_jobs WHERE tenant_id = $1 AND alias = $2 AND job = $3 AND status = 'active' AND id <> $4`,
        [row.tenant_id, row.alias, row.job, row.id],
        transaction,
      );
    return running;
  }

  /**
   * Records how a claimed attempt ended (a completed job keeps the error of its last failed attempt);
   * a job cancelled meanwhile stays cancelled. Returns whether it was still open.
   */
  async finish(id: string, outcome: { status: 'completed'; result: unknown } | { status: 'pending' | 'failed' | 'dropped'; error: string }, at: Date): Promise<boolean> {
    const done = outcome.status === 'pending' ? null : at;
    const [, count] = (await this.central.sequelize.query(
      `UPDATE module_jobs SET status = $2, result = $3, error = COALESCE($4, error), finished_at = $5 WHERE id = $1 AND status IN ('active', 'pending')`,
      { bind: [id, outcome.status, outcome.status === 'completed' ? JSON.stringify(outcome.result ?? null) : null, 'error' in outcome ? outcome.error : null, done], type: QueryTypes.UPDATE },
    )) as unknown as [unknown, number];
    return count > 0;
  }

  async progress(id: string, value: unknown): Promise<boolean> {
    const [, count] = (await this.central.sequelize.query(`UPDATE module_jobs SET progress = $2 WHERE id = $1 AND status = 'active'`, {
      bind: [id, JSON.stringify(value)],
      type: QueryTypes.UPDATE,
    })) as unknown as [unknown, number];
    return count > 0;
  }

  /**
   * Open jobs, oldest first: what an in-process node queues again at boot. A job marked running was
   * cut off with the node that ran it, so it is pending again.
   */
  async reopen(): Promise<ModuleJobRow[]> {
    await this.query(`UPDATE module_jobs SET status = 'pending' WHERE status = 'active'`, []);
    return this.query<ModuleJobRow>(`SELECT * FROM module_jobs WHERE ${OPEN} ORDER BY created_at`, []);
  }

  /** Open jobs due by `at`, oldest first (a test host runs them). */
  async due(tenantId: string, at: Date): Promise<ModuleJobRow[]> {
    return this.query<ModuleJobRow>(`SELECT * FROM module_jobs WHERE tenant_id = $1 AND status = 'pending' AND run_at <= $2 ORDER BY run_at, created_at`, [tenantId, at]);
  }

  /** Forgets jobs that ended before `before`; returns how many. */
  async prune(before: Date): Promise<number> {
    const [{ pruned }] = await this.query<{ pruned: number }>(
      `WITH gone AS (DELETE FROM module_jobs WHERE finished_at < $1 AND NOT ${OPEN} RETURNING 1) SELECT count(*)::int AS pruned FROM gone`,
      [before],
    );
    return pruned;
  }

  private query<T extends object>(sql: string, bind: unknown[], transaction?: Transaction): Promise<T[]> {
    return this.central.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction });
  }
}
