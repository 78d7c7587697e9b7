/**
 * What host.fetch may reach for a tenant (DESIGN.md, Sandbox): the tenant settings
 * `modules.fetch_origins` (each origin granted to one module, ./fetch-grants.ts) and
 * `webhooks.allow_private_networks` (a super admin's call, core/kernel/tenancy/private-networks.ts).
 *
 * When a change takes effect:
 * - **Narrowing (an origin removed, private networks turned off): at once, on every node.** Only a
 *   refusal is ever answered from the cache: a fetch by a module the cached settings grant at least
 *   one origin reads the tenant row again, so nothing a grant no longer allows is reached on a copy.
 *   That read costs one primary-key lookup beside an outbound request.
 * - **Widening (an origin added, private networks turned on): at once on the node that made it**
 *   (its copy is dropped before the answer), **and on the others as soon as the announcement on
 *   `mandi:fetch-access:changed` (the platform pub/sub, Redis across nodes) arrives**; a lost
 *   announcement is outlived by the cache's 30 seconds. The cache keeps a module that is granted
 *   nothing (one fetching in a loop) from reading the tenant row for every refused fetch.
 */
import { LRUCache } from 'lru-cache';
import type { FetchAccess } from '../bus/sandbox-invoker';
import type { CentralDb } from '../data/central-db';
import type { PubSub } from '../drivers';
import { privateNetworksAllowed } from '../tenancy/private-networks';
import { grantsIn } from './fetch-grants';

const CHANGED_CHANNEL = 'mandi:fetch-access:changed';

/** Longest another node may refuse what a grant allows, should the announcement be lost. */
export const FETCH_ACCESS_CACHE_MS = 30_000;

export class FetchAccessCache {
  private readonly cache = new LRUCache<string, FetchAccess>({ max: 10_000, ttl: FETCH_ACCESS_CACHE_MS });

  constructor(private readonly deps: { central: CentralDb; pubsub: PubSub }) {}

  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANGED_CHANNEL, (msg) => {
      this.cache.delete((msg as { tenantId: string }).tenantId);
    });
  }

  /** The tenant's access for `alias`'s fetch: a cached copy only when it grants the module nothing. */
  async forModule(tenantId: string, alias: string): Promise<FetchAccess> {
    const cached = this.cache.get(tenantId);
    if (cached && !cached.grants.some((g) => g.module === alias)) return cached;
    return this.read(tenantId);
  }

  /** Drops this node's copy at once and announces the change to the other nodes. */
  async changed(tenantId: string): Promise<void> {
    this.cache.delete(tenantId);
    await this.deps.pubsub.publish(CHANGED_CHANNEL, { tenantId });
  }

  private async read(tenantId: string): Promise<FetchAccess> {
    const tenant = await this.deps.central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
    const found = { grants: grantsIn(tenant?.settings), allowPrivateNetworks: privateNetworksAllowed(tenant?.settings) };
    this.cache.set(tenantId, found);
    return found;
  }
}
