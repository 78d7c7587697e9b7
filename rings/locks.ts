/**
 * Locks that keep lifecycle operations on one module from interleaving (issue 4 item 4: concurrent
 * lifecycle operations on the same module and ring are refused, not interleaved). They are rows in
 * the central database, so they hold across nodes and are visible to operators, and they are taken
 * when the operation is requested, so the second request gets 409 at once instead of queueing.
 *
 * Keys: `ring:<ring>:<alias>` for promotions and ring rollbacks, `tenant:<tenant>:<alias>` for one
 * tenant's lifecycle, `tenant:<tenant>:*` while a tenant moves to another ring. A tenant lock and a ring lock on the same module conflict when the tenant is in
 * (or moving to) that ring. Each side inserts its rows first and then looks for the other side, so of
 * two racing requests at least one sees the other and is refused.
 *
 * A lock whose heartbeat stopped (its node died) is taken over after `staleMs`, and its operation is
 * marked failed as abandoned.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { ringErrors } from './errors';
import type { Logger } from '../core/kernel/logger';
import type { RingModels } from './ring-models';

export interface LockClaim {
  key: string;
  alias: string;
  /** For tenant claims: the rings whose operations on `alias` must not run at the same time. */
  rings: string[];
  tenantId: string | null;
}

export const ringClaim = (ring: string, alias: string): LockClaim => ({ key: `ring:${ring}:${alias}`, alias, rings: [ring], tenantId: null });
export const tenantClaim = (tenantId: string, alias: string, rings: string[]): LockClaim => ({
  key: `tenant:${tenantId}:${alias}`,
  alias,
  rings: [...new Set(rings)],
  tenantId,
});


export class LifecycleLocks {
  constructor(
    private readonly deps: { sequelize: Sequelize; models: RingModels; logger: Logger; staleMs: number },
  ) {}

  /** Takes every claim for the operation, or none of them and throws 409 naming the holder. */
  async acquire(operationId: string, claims: LockClaim[]): Promise<void> {
    if (!claims.length) return;
    await this.clearStale();
    const { sequelize } = this.deps;
    const inserted = await sequelize.query<{ key: string }>(
      `INSERT INTO lifecycle_locks (key, operation_id, ring, tenant_id, alias)
       SELECT c->>'key', $1::uuid, c->>'ring', c->>'tenant_id', c->>'alias' FROM jsonb_array_elements($2::jsonb) AS c
       ON CONFLICT (key) DO NOTHING RETURNING key`,
      {
        bind: [operationId, JSON.stringify(claims.map((c) => ({ key: c.key, ring: c.rings[c.rings.length - 1] ?? null, tenant_id: c.tenantId, alias: c.alias })))],
        type: QueryTypes.SELECT,
      },
    );
    const got = new Set(inserted.map((r) => r.key));
    const missing = claims.find((c) => !got.has(c.key));
    if (missing) {
      const holder = await this.deps.models.Lock.findByPk(missing.key);
      await this.release(operationId);
      throw ringErrors.operationInProgress(describe(missing), holder?.operation_id ?? 'unknown');
    }
    for (const claim of claims) {
      const other = await this.crossing(operationId, claim);
      if (other) {
        await this.release(operationId);
        throw ringErrors.operationInProgress(describe(claim), other);
      }
    }
  }

  async release(operationId: string): Promise<void> {
    await this.deps.models.Lock.destroy({ where: { operation_id: operationId } });
  }

  /** Refreshes the locks of operations this node looks after; returns the ids that still hold locks. */
  async heartbeat(operationIds: string[]): Promise<Set<string>> {
    if (!operationIds.length) return new Set();
    const rows = await this.deps.sequelize.query<{ operation_id: string }>(
      `UPDATE lifecycle_locks SET heartbeat_at = now() WHERE operation_id = ANY($1::uuid[]) RETURNING operation_id`,
      { bind: [operationIds], type: QueryTypes.SELECT },
    );
    return new Set(rows.map((r) => r.operation_id));
  }

  async list(): Promise<Array<{ key: string; operation_id: string; acquired_at: string }>> {
    const rows = await this.deps.models.Lock.findAll({ order: [['acquired_at', 'ASC']] });
    return rows.map((r) => ({ key: r.key, operation_id: r.operation_id, acquired_at: r.acquired_at.toISOString() }));
  }

  /** The operation on the other side of a ring/tenant conflict with `claim`, if any. */
  private async crossing(operationId: string, claim: LockClaim): Promise<string | undefined> {
    const { sequelize } = this.deps;
    if (claim.tenantId === null) {
      // A ring claim: any tenant lock on the module for a tenant in, or moving to, the ring.
      const rows = await sequelize.query<{ operation_id: string }>(
        `SELECT l.operation_id FROM lifecycle_locks l LEFT JOIN tenants t ON t.id = l.tenant_id
         WHERE l.alias = $1 AND l.tenant_id IS NOT NULL AND l.operation_id <> $2::uuid AND (l.ring = $3 OR t.ring = $3) LIMIT 1`,
        { bind: [claim.alias, operationId, claim.rings[0]], type: QueryTypes.SELECT },
      );
      return rows[0]?.operation_id;
    }
    // A tenant claim: the module's ring locks, and a ring move of the whole tenant (`tenant:<id>:*`).
    const keys = claim.rings.map((r) => `ring:${r}:${claim.alias}`);
    if (claim.alias !== '*') keys.push(`tenant:${claim.tenantId}:*`);
    const rows = await sequelize.query<{ operation_id: string }>(
      `SELECT operation_id FROM lifecycle_locks WHERE key = ANY($1::text[]) AND operation_id <> $2::uuid LIMIT 1`,
      { bind: [keys, operationId], type: QueryTypes.SELECT },
    );
    return rows[0]?.operation_id;
  }

  private async clearStale(): Promise<void> {
    const rows = await this.deps.sequelize.query<{ operation_id: string }>(
      `DELETE FROM lifecycle_locks WHERE heartbeat_at < now() - ($1::int * interval '1 millisecond') RETURNING operation_id`,
      { bind: [this.deps.staleMs], type: QueryTypes.SELECT },
    );
    const ids = [...new Set(rows.map((r) => r.operation_id))];
    if (!ids.length) return;
    this.deps.logger.warn({ operations: ids }, 'lifecycle locks of stopped nodes taken over; their operations are marked abandoned');
    await this.deps.sequelize.query(
      `UPDATE lifecycle_operations SET status = 'failed', finished_at = now(),
         error = jsonb_build_object('code', 'OPERATION_ABANDONED', 'status', 500,
           'message', 'The node running this operation stopped before it finished; check the tenants it lists in progress.')
       WHERE id = ANY($1::uuid[]) AND status IN ('queued', 'running')`,
      { bind: [ids] },
    );
  }
}

function describe(claim: LockClaim): string {
  return claim.tenantId ? `module ${claim.alias} in tenant ${claim.tenantId}` : `module ${claim.alias} in ring ${claim.rings[0]}`;
}
