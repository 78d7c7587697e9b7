/**
 * One database per tenant (`tenant<id>`). Pools are opened on first use, the total number of
 * connections across pools is capped (the least recently used idle pools make room), and pools
 * unused for `idleMs` are closed by a sweeper.
 */
import { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import { databaseErrors } from './errors';
import { databaseUrl, dropDatabase, ensureDatabase } from './pg-admin';
import { withPooledClient } from './pooled-client';
import { migrateTenant } from './migrator';

export interface TenantDatabasesOptions {
  serverUrl: string;
  maxTotal: number;
  maxPerTenant: number;
  idleMs: number;
  logger: Logger;
  /**
   * Bring core's tenant tables up to date when a pool opens (default true). False only where the
   * databases hold module schemas alone, e.g. tests of the module data layer run as a restricted user.
   */
  coreMigrations?: boolean;
}

interface OpenPool {
  sequelize: Sequelize;
  lastUsed: number;
  /** Requests currently holding this pool (never closed while > 0). */
  inUse: number;
}

export const tenantDbName = (tenantId: string) => `tenant${tenantId.toLowerCase()}`;

export class TenantDatabases {
  private readonly pools = new Map<string, OpenPool>();
  private readonly opening = new Map<string, Promise<OpenPool>>();
  /** Tenants whose core migrations this process has brought up to date. */
  private readonly migrated = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: TenantDatabasesOptions) {
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(1000, Math.floor(opts.idleMs / 2)));
    this.sweeper.unref();
  }

  /** Creates and migrates the tenant's database (idempotent). */
  async create(tenantId: string): Promise<void> {
    await ensureDatabase(this.opts.serverUrl, tenantDbName(tenantId));
    await this.acquire(tenantId); // opening a pool runs the core tenant migrations
  }

  async drop(tenantId: string): Promise<void> {
    await this.closePool(tenantId);
    await dropDatabase(this.opts.serverUrl, tenantDbName(tenantId));
  }

  /** Runs fn with the tenant's connection pool, keeping the pool open while fn runs. */
  async with<T>(tenantId: string, fn: (db: Sequelize) => Promise<T>): Promise<T> {
    const pool = await this.acquire(tenantId);
    pool.inUse++;
    try {
      return await fn(pool.sequelize);
    } finally {
      pool.inUse--;
      pool.lastUsed = Date.now();
    }
  }

  /**
   * One statement on a pooled connection of the tenant, without the ORM's query pipeline (a hot
   * path: it costs several times less per call). Not for statements inside a transaction. With a
   * `name`, the statement is prepared once per connection and planned once; its result columns must
   * then be listed, not `*`, or a migration that adds a column breaks it on open connections.
   */
  async query<R>(tenantId: string, sql: string, params: unknown[] = [], name?: string): Promise<R[]> {
    const pool = await this.acquire(tenantId);
    pool.inUse++;
    try {
      return await withPooledClient(pool.sequelize, async (client) => (await (name ? client.query({ name, text: sql, values: params }) : client.query(sql, params))).rows as R[]);
    } finally {
      pool.inUse--;
      pool.lastUsed = Date.now();
    }
  }

  /** The tenant's pool for long-lived holders; prefer `with`, which protects it from eviction. */
  async get(tenantId: string): Promise<Sequelize> {
    return (await this.acquire(tenantId)).sequelize;
  }

  stats() {
    return { openPools: this.pools.size, maxConnections: this.pools.size * this.opts.maxPerTenant, cap: this.opts.maxTotal };
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.opening.values()]);
    await Promise.all([...this.pools.keys()].map((id) => this.closePool(id)));
  }

  private async acquire(tenantId: string): Promise<OpenPool> {
    const open = this.pools.get(tenantId);
    if (open) {
      open.lastUsed = Date.now();
      return open;
    }
    let pending = this.opening.get(tenantId);
    if (!pending) {
      pending = this.open(tenantId).finally(() => this.opening.delete(tenantId));
      this.opening.set(tenantId, pending);
    }
    return pending;
  }

  private async open(tenantId: string): Promise<OpenPool> {
    await this.makeRoom();
    const sequelize = new Sequelize(databaseUrl(this.opts.serverUrl, tenantDbName(tenantId)), {
      dialect: 'postgres',
      logging: false,
      pool: { max: this.opts.maxPerTenant, min: 0, idle: Math.min(this.opts.idleMs, 10_000) },
    });
    // A platform upgrade brings new core tenant migrations: each tenant gets them on its first use
    // by this process (a no-op check afterwards), so no tenant runs on an older schema.
    if (this.opts.coreMigrations !== false && !this.migrated.has(tenantId)) {
      try {
        await migrateTenant(sequelize);
      } catch (err) {
        await sequelize.close();
        throw err;
      }
      this.migrated.add(tenantId);
    }
    const pool: OpenPool = { sequelize, lastUsed: Date.now(), inUse: 0 };
    this.pools.set(tenantId, pool);
    return pool;
  }

  /** Closes least-recently-used idle pools until one more pool fits under the cap. */
  private async makeRoom(): Promise<void> {
    const fits = () => (this.pools.size + 1) * this.opts.maxPerTenant <= this.opts.maxTotal;
    if (fits()) return;
    const idle = [...this.pools.entries()].filter(([, p]) => p.inUse === 0).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [id] of idle) {
      if (fits()) return;
      await this.closePool(id);
    }
    if (!fits()) {
      throw databaseErrors.busy();
    }
  }

  private async closeIdle(): Promise<void> {
    const cutoff = Date.now() - this.opts.idleMs;
    for (const [id, p] of this.pools) {
      if (p.inUse === 0 && p.lastUsed < cutoff) await this.closePool(id);
    }
  }

  private async closePool(tenantId: string): Promise<void> {
    const p = this.pools.get(tenantId);
    if (!p) return;
    this.pools.delete(tenantId);
    await p.sequelize.close().catch((err) => this.opts.logger.warn({ err, tenantId }, 'closing tenant pool failed'));
  }
}
