/**
 * The catalog one tenant sees: what its ring releases AND it has installed. The installed modules
 * come from the module host (core/kernel/modules/tenant-modules.ts, the same set the bus and the GraphQL
 * gateway use). A module enters the tenant's catalog when the tenant's ring releases its alias; its
 * entries are those of the version the tenant runs, which is the ring's version except while a
 * tenant is held on an earlier release (a tenant rollback), so the catalog never offers an operation,
 * node or screen its modules do not have. Development modules (MODULE_PATHS, tests) are outside ring
 * control everywhere else, so here too: installed means shown.
 *
 * Views are cached by (ring catalog key, fingerprint of the tenant's alias@version set): tenants with
 * the same installs in one ring share one view, and any release change, install or ring move
 * changes the key, so no per-tenant invalidation is needed.
 */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../kernel/logger';
import type { TenantModules } from '../../kernel/modules/tenant-modules';
import { Catalog } from './catalog';
import type { ModuleParts, RingCatalogs } from './ring-catalogs';

export interface TenantCatalogDeps {
  rings: RingCatalogs;
  parts: ModuleParts;
  modulesFor(tenantId: string): Promise<TenantModules>;
  isDevelopment(alias: string): boolean;
  logger: Logger;
}

export class TenantCatalogs {
  private readonly views = new LRUCache<string, Catalog>({ max: 5_000 });

  constructor(private readonly deps: TenantCatalogDeps) {}

  /** The tenant's catalog and the `<ring>:<fingerprint>` key of its ring's catalog. */
  async forTenant(tenant: { id: string; ring: string }): Promise<{ catalog: Catalog; ringKey: string }> {
    const [ringCatalog, installed] = await Promise.all([this.ringCatalog(tenant.ring), this.deps.modulesFor(tenant.id)]);
    const ringKey = ringCatalog?.key ?? `${tenant.ring}:unavailable`;
    const viewKey = `${ringKey}/${installed.fingerprint}`;
    let catalog = this.views.get(viewKey);
    if (!catalog) {
      const parts = installed.list
        .filter((m) => this.deps.isDevelopment(m.alias) || ringCatalog?.part(m.alias))
        .map((m) => {
          const released = ringCatalog?.part(m.alias);
          return released && released.version === m.manifest.version ? released : this.deps.parts.of(m.manifest);
        });
      catalog = new Catalog(viewKey, parts);
      this.views.set(viewKey, catalog);
    }
    return { catalog, ringKey };
  }

  /** A ring whose release cannot be read (a package failing its check) leaves only development modules. */
  private async ringCatalog(ring: string): Promise<Catalog | undefined> {
    try {
      return await this.deps.rings.forRing(ring);
    } catch (err) {
      this.deps.logger.error({ ring, err }, 'ring catalog could not be assembled');
      return undefined;
    }
  }
}
