/**
 * Tenants and their domains: creation (rows + database, all or nothing) and resolution of a
 * subdomain, id or alias to a tenant. The central database is the authority; the in-process cache
 * only saves a query per request and expires quickly (spec 1, Tenant domain). It also remembers
 * names that match no tenant, so a new tenant's domains are dropped from it on every node when the
 * tenant is created: its alias answers at once even where it was asked for just before.
 */
import { LRUCache } from 'lru-cache';
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import type { CentralDb } from '../data/central-db';
import type { PubSub } from '../drivers';
import type { TenantDatabases } from '../data/tenant-databases';
import type { TenantRef } from '../context';
import { ValidationError } from '../errors';
import { ALIAS_PATTERN, RESERVED_ALIASES, newTenantId, normaliseSubdomain } from './tenant-id';
import { ResellerApplications, type Contact } from './reseller-applications';
import { TenantNetwork } from './tenant-network';

export interface CreateTenantInput {
  name: string;
  alias?: string;
  ring?: string;
  /**
   * Its place in the reseller network (./tenant-network.ts), written in the same transaction as
   * its rows: the level-0 tenant, a child of a linked tenant (whose depth is checked there), or an
   * application to one, linked only once that tenant approves it (./reseller-applications.ts).
   */
  network?: { root: true } | { parentId: string; field: string } | { applyingTo: string; contact: Contact };
}

export interface TenantWithDomains extends TenantRef {
  domains: string[];
  created_at: string;
}

const DOMAINS_CHANNEL = 'mandi:tenancy:domains-changed';

export class TenantService {
  private readonly cache = new LRUCache<string, TenantRef | false>({ max: 10_000, ttl: 30_000 });
  /** Bumped by every invalidation: a lookup that started before one must not cache what it read. */
  private generation = 0;
  readonly network: TenantNetwork;
  readonly applications: ResellerApplications;

  constructor(private readonly central: CentralDb, private readonly databases: TenantDatabases, private readonly pubsub: PubSub) {
    this.network = new TenantNetwork(central);
    this.applications = new ResellerApplications(central, this.network);
  }

  /** Listens for domain changes made on any node. */
  async start(): Promise<void> {
    await this.pubsub.subscribe(DOMAINS_CHANNEL, (msg) => this.forget((msg as { domains: string[] }).domains));
  }

  validateCreate(input: CreateTenantInput): void {
    const errors: Record<string, string[]> = {};
    if (typeof input.name !== 'string' || !input.name.trim()) errors.name = ['The name field is required.'];
    else if (input.name.length > 255) errors.name = ['The name may not be greater than 255 characters.'];
    if (input.alias !== undefined) {
      const alias = typeof input.alias === 'string' ? normaliseSubdomain(input.alias) : '';
      if (!ALIAS_PATTERN.test(alias)) {
        errors.alias = ['The subdomain may only contain letters, numbers, dashes and underscores, at most 63 characters.'];
      } else if (RESERVED_ALIASES.has(alias)) errors.alias = ['This subdomain is reserved.'];
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  /**
   * Creates the tenant's rows and its database. If the database cannot be created the rows are
   * removed again, so a failed creation leaves nothing behind.
   */
  async create(input: CreateTenantInput, field = 'alias'): Promise<TenantWithDomains> {
    this.validateCreate(input);
    // A tenant in a ring that does not exist could install nothing; refuse it up front.
    if (input.ring !== undefined && !(await this.ringExists(input.ring))) throw new ValidationError({ ring: [`The ring "${input.ring}" does not exist.`] });
    const { Tenant, Domain } = this.central.models;
    const id = await this.freeId();
    const alias = input.alias ? normaliseSubdomain(input.alias) : undefined;
    try {
      await this.central.sequelize.transaction(async (transaction) => {
        await Tenant.create({ id, name: input.name.trim(), ring: input.ring ?? 'stable' }, { transaction });
        await Domain.create({ tenant_id: id, domain: id, kind: 'id' }, { transaction });
        // Every tenant has a human-readable alias; without a chosen one, a readable one is made from the name.
        await Domain.create({ tenant_id: id, domain: alias ?? (await this.aliasFromName(input.name, id)), kind: 'alias' }, { transaction });
        const place = input.network;
        if (place && 'root' in place) await this.network.addRoot(id, transaction);
        else if (place && 'applyingTo' in place) await this.applications.submit(id, place.applyingTo, place.contact, transaction);
        else if (place) await this.network.addChild(id, place.parentId, transaction, place.field);
      });
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw new ValidationError({ [field]: ['This subdomain has already been taken.'] });
      throw err;
    }
    try {
      await this.databases.create(id);
    } catch (err) {
      await Tenant.destroy({ where: { id } });
      await this.databases.drop(id).catch(() => undefined);
      throw err;
    }
    const created = (await this.describe(id))!;
    await this.domainsChanged(created.domains);
    return created;
  }

  /** Drops the domains from the cache of this node and of every other (they were unknown, or meant another tenant). */
  async domainsChanged(domains: readonly string[]): Promise<void> {
    this.forget(domains);
    // A failed publish does not fail the change: other nodes then catch up within the 30 s TTL.
    await this.pubsub.publish(DOMAINS_CHANNEL, { domains }).catch(() => undefined);
  }

  private async ringExists(name: string): Promise<boolean> {
    const rows = await this.central.sequelize.query('SELECT 1 FROM rings WHERE name = $1', { bind: [name], type: QueryTypes.SELECT });
    return rows.length > 0;
  }

  /** Looks a tenant up by its id or any alias, case-insensitively. */
  async resolve(subdomain: string): Promise<TenantRef | undefined> {
    const key = normaliseSubdomain(subdomain);
    if (!ALIAS_PATTERN.test(key)) return undefined;
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached || undefined;
    const generation = this.generation;
    const row = await this.central.models.Domain.findOne({ where: { domain: key }, attributes: ['tenant_id'] });
    const tenant = row ? await this.central.models.Tenant.findByPk(row.tenant_id) : null;
    const ref: TenantRef | false = tenant ? { id: tenant.id, name: tenant.name, status: tenant.status, ring: tenant.ring } : false;
    if (generation === this.generation) this.cache.set(key, ref);
    return ref || undefined;
  }

  async describe(id: string): Promise<TenantWithDomains | undefined> {
    const tenant = await this.central.models.Tenant.findByPk(id);
    if (!tenant) return undefined;
    const domains = await this.central.models.Domain.findAll({ where: { tenant_id: id }, order: [['id', 'ASC']] });
    return {
      id: tenant.id,
      name: tenant.name,
      status: tenant.status,
      ring: tenant.ring,
      domains: domains.map((d) => d.domain),
      created_at: tenant.created_at.toISOString(),
    };
  }

  /** Forget cached resolutions (after a domain or status change). */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
  }

  private forget(domains: readonly string[]): void {
    this.generation++;
    for (const d of domains) this.cache.delete(normaliseSubdomain(d));
  }

  private async freeId(): Promise<string> {
    for (;;) {
      const id = newTenantId();
      const taken = await this.central.models.Domain.count({ where: { domain: id } });
      if (!taken) return id;
    }
  }

  private async aliasFromName(name: string, id: string): Promise<string> {
    const base = normaliseSubdomain(name).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 50) || `t-${id}`;
    const taken = await this.central.models.Domain.count({ where: { domain: base } });
    return taken || RESERVED_ALIASES.has(base) ? `${base}-${id}`.slice(0, 63) : base;
  }
}
