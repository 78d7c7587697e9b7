/**
 * Persisted queries of a tenant (spec 1, Persisted query), in the tenant database table
 * graphql_persisted_queries, keyed by the SHA-256 (hex) of the exact operation text. Lookups by
 * hash are on the hot path of every persisted request, so they are cached per node; a change is
 * announced on pub/sub so every node drops its copy at once.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { QueryTypes } from 'sequelize';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import type { PubSub } from '../../kernel/drivers';

const CHANGED = 'mandi:graphql:persisted:changed';

export interface PersistedQuery {
  hash: string;
  name: string;
  query: string;
  created_at: string;
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
export const HASH_PATTERN = /^[a-f0-9]{64}$/;

export class PersistedQueries {
  // false = known to be absent, so unknown hashes sent over and over do not each reach the database.
  private readonly cache = new LRUCache<string, PersistedQuery | false>({ max: 20_000, ttl: 300_000 });

  constructor(private readonly deps: { tenantDbs: TenantDatabases; pubsub: PubSub }) {}

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED, (msg) => {
      const { tenantId, hash } = msg as { tenantId: string; hash: string };
      this.cache.delete(`${tenantId}:${hash}`);
    });
  }

  async find(tenantId: string, hash: string): Promise<PersistedQuery | undefined> {
    if (!HASH_PATTERN.test(hash)) return undefined;
    const key = `${tenantId}:${hash}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached || undefined;
    const [row] = await this.deps.tenantDbs.with(tenantId, (db) =>
      db.query<PersistedQuery>(`SELECT hash, name, query, created_at FROM graphql_persisted_queries WHERE hash = $1`, { bind: [hash], type: QueryTypes.SELECT }),
    );
    const found = row ? this.present(row) : undefined;
    this.cache.set(key, found ?? false);
    return found;
  }

  async list(tenantId: string): Promise<PersistedQuery[]> {
    const rows = await this.deps.tenantDbs.with(tenantId, (db) =>
      db.query<PersistedQuery>(`SELECT hash, name, query, created_at FROM graphql_persisted_queries ORDER BY name, hash`, { type: QueryTypes.SELECT }),
    );
    return rows.map((r) => this.present(r));
  }

  /** Registers the query (or renames it when it is already registered); `created` tells which. */
  async save(tenantId: string, input: { query: string; name: string; userId: number | null }): Promise<{ query: PersistedQuery; created: boolean }> {
    const hash = sha256Hex(input.query);
    const [row] = await this.deps.tenantDbs.with(tenantId, (db) =>
      db.query<PersistedQuery & { created: boolean }>(
        `INSERT INTO graphql_persisted_queries (hash, name, query, created_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (hash) DO UPDATE SET name = EXCLUDED.name
         RETURNING hash, name, query, created_at, (xmax = 0) AS created`,
        { bind: [hash, input.name, input.query, input.userId], type: QueryTypes.SELECT },
      ),
    );
    await this.changed(tenantId, hash);
    return { query: this.present(row), created: row.created };
  }

  async remove(tenantId: string, hash: string): Promise<boolean> {
    if (!HASH_PATTERN.test(hash)) return false;
    const rows = await this.deps.tenantDbs.with(tenantId, (db) =>
      db.query<{ hash: string }>(`DELETE FROM graphql_persisted_queries WHERE hash = $1 RETURNING hash`, { bind: [hash], type: QueryTypes.SELECT }),
    );
    await this.changed(tenantId, hash);
    return rows.length > 0;
  }

  private async changed(tenantId: string, hash: string): Promise<void> {
    this.cache.delete(`${tenantId}:${hash}`);
    await this.deps.pubsub.publish(CHANGED, { tenantId, hash });
  }

  private present(row: PersistedQuery): PersistedQuery {
    const created = row.created_at as unknown;
    return { hash: row.hash, name: row.name, query: row.query, created_at: created instanceof Date ? created.toISOString() : String(created) };
  }
}
