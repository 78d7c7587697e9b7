/**
 * The reseller network (spec 3): tenants linked in a chain under the super admin's tenant (level 0,
 * the tenant POST /install/owner made), at most `max_chain_depth` 10 levels below it (spec 3,
 * Limits). The central table tenant_links (migration 0030) holds each tenant's parent, level and
 * link status; its constraints keep one root, the depth and the absence of cycles even under
 * concurrent writers, and this class only reads and adds to it.
 *
 * Nothing here is cached: whether two tenants are related is asked on every related call and every
 * context switch, so a suspension takes effect on the next request on every node.
 */
import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import { ValidationError, conflict } from '../errors';
import { ALIAS_PATTERN, normaliseSubdomain } from './tenant-id';

/** spec 3, Limits: `max_chain_depth`. The migration's CHECK holds the same number. */
export const MAX_CHAIN_DEPTH = 10;

export const LINK_STATUSES = ['active', 'suspended'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export interface TenantLink {
  tenant_id: string;
  parent_id: string | null;
  level: number;
  status: LinkStatus;
}

/** How `other` stands to `self`: its direct parent, or below it (every link on the way active). */
export type Relation = 'parent' | 'descendant';

export interface SubReseller extends TenantLink {
  name: string;
  tenant_status: string;
  /** The tenant's readable alias. */
  alias: string | null;
  status_changed_at: string | null;
  created_at: string;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** The field blamed when a parent cannot take one more level (apply's body field, by default). */
const tooDeep = (field: string, parentLevel: number) =>
  new ValidationError({
    [field]: [`This tenant is at level ${parentLevel} of the reseller chain; the chain may be at most ${MAX_CHAIN_DEPTH} levels deep, so it cannot take sub-resellers.`],
  });

export class TenantNetwork {
  constructor(private readonly central: CentralDb) {}

  private query<T extends object>(sql: string, bind: unknown[], transaction?: Transaction): Promise<T[]> {
    return this.central.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction });
  }

  /** The level-0 tenant's id, or undefined before the platform is installed. */
  async rootId(): Promise<string | undefined> {
    const [row] = await this.query<{ tenant_id: string }>('SELECT tenant_id FROM tenant_links WHERE parent_id IS NULL', []);
    return row?.tenant_id;
  }

  async link(tenantId: string): Promise<TenantLink | undefined> {
    const [row] = await this.query<TenantLink>('SELECT tenant_id, parent_id, level, status FROM tenant_links WHERE tenant_id = $1', [tenantId]);
    return row;
  }

  /** A tenant by id or alias, as the central database has it now (no cache: related calls ask on every call). */
  async find(ref: string): Promise<{ id: string; name: string; status: string } | undefined> {
    const key = normaliseSubdomain(ref);
    if (!ALIAS_PATTERN.test(key)) return undefined;
    const [row] = await this.query<{ id: string; name: string; status: string }>(
      'SELECT t.id, t.name, t.status FROM domains d JOIN tenants t ON t.id = d.tenant_id WHERE d.domain = $1',
      [key],
    );
    return row;
  }

  /** Makes `tenantId` the level-0 tenant; refused by the database when there already is one. */
  async addRoot(tenantId: string, transaction: Transaction): Promise<void> {
    try {
      await this.central.sequelize.query('INSERT INTO tenant_links (tenant_id, parent_id, level) VALUES ($1, NULL, 0)', { bind: [tenantId], transaction });
    } catch (err) {
      // Not the alias conflict the caller reports for unique violations: the network already has its top.
      if (err instanceof UniqueConstraintError) throw conflict('The reseller network already has its level-0 tenant.');
      throw err;
    }
  }

  /**
   * Links a new tenant under `parentId` in one statement (the parent's level read and the row
   * written together, the CHECK on level as the last word), so concurrent applications under one
   * parent can never go deeper than the limit. A new tenant is always a leaf: no cycle can form.
   */
  async addChild(tenantId: string, parentId: string, transaction: Transaction, field = 'parent_tenant'): Promise<void> {
    const [parent] = await this.query<{ level: number }>('SELECT level FROM tenant_links WHERE tenant_id = $1 FOR KEY SHARE', [parentId], transaction);
    if (!parent) throw new ValidationError({ [field]: ['The parent tenant is not part of the reseller network.'] });
    if (parent.level >= MAX_CHAIN_DEPTH) throw tooDeep(field, parent.level);
    await this.central.sequelize.query(
      `INSERT INTO tenant_links (tenant_id, parent_id, level) SELECT $1, tenant_id, level + 1 FROM tenant_links WHERE tenant_id = $2`,
      { bind: [tenantId, parentId], transaction },
    );
  }

  /**
   * How `other` stands to `self`, or undefined when they are not related. Related means `other` is
   * `self`'s direct parent (and `self`'s own link is active: a suspended sub-reseller's calls up
   * the chain are refused), or `other` is below `self` with every link from `other` up to (not
   * including) `self` active: a suspended sub-reseller, and everything under it, is cut off.
   */
  async relation(self: string, other: string): Promise<Relation | undefined> {
    if (self === other) return undefined;
    const [row] = await this.query<{ relation: Relation }>(
      `WITH RECURSIVE up AS (
         SELECT tenant_id, parent_id, status, 0 AS hops FROM tenant_links WHERE tenant_id = $2
         UNION ALL
         SELECT l.tenant_id, l.parent_id, l.status, up.hops + 1 FROM tenant_links l JOIN up ON l.tenant_id = up.parent_id
          WHERE up.tenant_id <> $1 AND up.hops < ${MAX_CHAIN_DEPTH}
       )
       SELECT 'descendant' AS relation FROM up
        WHERE up.parent_id = $1 AND NOT EXISTS (SELECT 1 FROM up u WHERE u.tenant_id <> $1 AND u.status <> 'active')
       UNION ALL
       SELECT 'parent' FROM tenant_links WHERE tenant_id = $1 AND parent_id = $2 AND status = 'active'`,
      [self, other],
    );
    return row?.relation;
  }

  /** The tenants below `parentId`: direct ones, or the whole subtree (or just `only` among them); oldest first, a page at a time. */
  async subResellers(parentId: string, o: { subtree: boolean; status?: LinkStatus; tenantActive?: boolean; only?: string; page: number; perPage: number }): Promise<Page<SubReseller>> {
    const scope = o.subtree
      ? `WITH RECURSIVE below AS (
           SELECT tenant_id FROM tenant_links WHERE parent_id = $1
           UNION ALL SELECT l.tenant_id FROM tenant_links l JOIN below b ON l.parent_id = b.tenant_id
         )`
      : 'WITH below AS (SELECT tenant_id FROM tenant_links WHERE parent_id = $1)';
    const bind: unknown[] = [parentId];
    const filters = ['true'];
    if (o.status) filters.push(`l.status = $${bind.push(o.status)}`);
    if (o.only) filters.push(`l.tenant_id = $${bind.push(o.only)}`);
    if (o.tenantActive) filters.push(`t.status = 'active'`);
    const from = `FROM below b JOIN tenant_links l ON l.tenant_id = b.tenant_id JOIN tenants t ON t.id = l.tenant_id WHERE ${filters.join(' AND ')}`;
    const [{ n }] = await this.query<{ n: string }>(`${scope} SELECT count(*) AS n ${from}`, bind);
    const rows = await this.query<SubReseller>(
      `${scope}
       SELECT l.tenant_id, l.parent_id, l.level, l.status, l.status_changed_at, l.created_at, t.name, t.status AS tenant_status,
              (SELECT d.domain FROM domains d WHERE d.tenant_id = l.tenant_id AND d.kind = 'alias' ORDER BY d.id LIMIT 1) AS alias
         ${from}
        ORDER BY l.level, l.created_at, l.tenant_id
        LIMIT $${bind.length + 1} OFFSET $${bind.length + 2}`,
      [...bind, o.perPage, (o.page - 1) * o.perPage],
    );
    return { items: rows.map((r) => ({ ...r, created_at: iso(r.created_at), status_changed_at: r.status_changed_at && iso(r.status_changed_at) })), total: Number(n) };
  }

  /** Sets the link status of a direct child; false when `childId` is not directly under `parentId`. */
  async setStatus(parentId: string, childId: string, status: LinkStatus): Promise<boolean> {
    const rows = await this.query<{ tenant_id: string }>(
      `UPDATE tenant_links SET status = $3::varchar,
              status_changed_at = CASE WHEN status = $3::varchar THEN status_changed_at ELSE CURRENT_TIMESTAMP END
        WHERE tenant_id = $2 AND parent_id = $1
        RETURNING tenant_id`,
      [parentId, childId, status],
    );
    return rows.length > 0;
  }
}

const iso = (v: string | Date) => new Date(v).toISOString();
