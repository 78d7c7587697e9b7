/**
 * Rings assembled (DESIGN.md, Rings and the registry; issue 4 items 2-4): the ring service, the
 * lifecycle operations and their jobs, per-tenant lifecycle, promotion, ring rollback and ring moves,
 * and the adapter the tenant-facing module routes (core/kernel/modules/module-admin-routes.ts) use.
 */
import type { RequestHandler, Router } from 'express';
import type { CentralDb } from '../core/kernel/data/central-db';
import type { Drivers } from '../core/kernel/drivers';
import type { Logger } from '../core/kernel/logger';
import type { ModuleKernel } from '../core/kernel/modules/kernel';
import type { ModuleLifecycle } from '../core/kernel/modules/module-admin-routes';
import type { TenantService } from '../core/kernel/tenancy/tenant-service';
import type { Registry } from '../registry';
import { RingAssignments } from './assign';
import { manifestReader, type LifecycleDeps } from './deps';
import { ringErrors } from './errors';
import { LifecycleLocks } from './locks';
import { Operations, type Broadcast } from './operations';
import { Promotions } from './promotion';
import { publishRefusals } from './release-checks';
import { defineRingModels, type RingModels } from './ring-models';
import { RingRollbacks } from './ring-rollback';
import { registerRingRoutes } from './ring-routes';
import { RingService } from './ring-service';
import { TenantLifecycle } from './tenant-lifecycle';

export { RingService, releaseFingerprint, type ReleaseManifests, type ReleaseView, type RingView } from './ring-service';
export type { OperationView } from './operations';

export interface Rings {
  models: RingModels;
  service: RingService;
  operations: Operations;
  locks: LifecycleLocks;
  lifecycle: TenantLifecycle;
  promotions: Promotions;
  rollbacks: RingRollbacks;
  assignments: RingAssignments;
  /** For core/kernel/modules/module-admin-routes.ts. */
  moduleLifecycle: ModuleLifecycle;
  registerRoutes(api: Router, adminAuthenticated: RequestHandler): void;
  stop(): void;
}

export interface RingsOptions {
  /** Lifecycle jobs one node runs at once (default 2). */
  concurrency?: number;
  /** A lock not refreshed for this long belongs to a dead node (default 60 s). */
  lockStaleMs?: number;
}

export async function createRings(
  deps: { central: CentralDb; kernel: ModuleKernel; registry: Registry; drivers: Drivers; tenants: TenantService; broadcast: Broadcast; logger: Logger },
  options: RingsOptions = {},
): Promise<Rings> {
  const logger = deps.logger.child({ part: 'rings' });
  const { sequelize } = deps.central;
  const models = defineRingModels(sequelize);
  const service = new RingService({ sequelize, models, central: deps.central, registry: deps.registry.service, pubsub: deps.drivers.pubsub });
  const locks = new LifecycleLocks({ sequelize, models, logger, staleMs: options.lockStaleMs ?? 60_000 });
  const operations = new Operations({ models, drivers: deps.drivers, locks, broadcast: deps.broadcast, logger, concurrency: options.concurrency ?? 2 });
  const shared: LifecycleDeps = {
    central: deps.central,
    modules: deps.kernel.modules,
    source: deps.kernel.source,
    registry: deps.registry.service,
    rings: service,
    operations,
    tenants: deps.tenants,
    logger,
  };
  const lifecycle = new TenantLifecycle(shared);
  const promotions = new Promotions(shared);
  const rollbacks = new RingRollbacks(shared);
  const assignments = new RingAssignments(shared);
  await operations.start();
  // A package whose routes overlap a released module's is refused at publish already (release-checks.ts).
  deps.registry.service.addPublishCheck(async (manifest) => {
    const releases = (await service.list()).map((r) => ({ ring: r.name, modules: r.release.modules }));
    const reasons = await publishRefusals(manifest, releases, manifestReader(shared));
    if (reasons.length) throw ringErrors.routesOverlap(`Cannot publish ${manifest.name}@${manifest.version}`, reasons);
  });
  // Last of the checks, so that a refused package claims nothing: its public prefix is recorded at its first publish.
  deps.registry.service.addPublishCheck((manifest) => deps.kernel.modules.prefixes.claim(manifest));
  // Request contexts carry the tenant's ring from TenantService's cache: drop it on every node.
  await service.onTenantMoved(() => deps.tenants.invalidate());

  const moduleLifecycle: ModuleLifecycle = {
    overview: async (tenantId) => {
      const tenant = await deps.central.models.Tenant.findByPk(tenantId, { attributes: ['ring'] });
      const ring = tenant?.ring ?? null;
      const release = ring ? ((await service.current(ring).catch(() => undefined))?.modules ?? {}) : {};
      const set = await deps.kernel.modules.modulesFor(tenantId);
      const source = (alias: string) => (deps.kernel.source.isLocal(alias) ? 'development' : 'ring');
      return {
        ring,
        installed: set.list.map((m) => ({
          alias: m.alias,
          version: m.manifest.version,
          description: m.manifest.description ?? null,
          ring_version: release[m.alias] ?? null,
          source: source(m.alias),
        })),
        available: [
          ...Object.entries(release)
            .filter(([alias]) => !deps.kernel.source.isLocal(alias))
            .map(([alias, version]) => ({ alias, versions: [version], ring_version: version, source: 'ring' })),
          ...deps.kernel.source.catalog().map((c) => ({ ...c, ring_version: null, source: 'development' })),
        ],
      };
    },
    request: (req) =>
      lifecycle.request({ ...req, requestedBy: { kind: 'user', id: req.requestedBy.userId, tenant_id: req.requestedBy.tenantId } }),
    wait: (id, timeoutMs) => operations.wait(id, timeoutMs),
    operation: (id, tenantId) => operations.require(id, { tenantId }),
    operations: (tenantId, limit) => operations.list({ tenantId, limit }),
  };

  return {
    models,
    service,
    operations,
    locks,
    lifecycle,
    promotions,
    rollbacks,
    assignments,
    moduleLifecycle,
    registerRoutes: (api, adminAuthenticated) =>
      registerRingRoutes(api, {
        rings: service,
        operations,
        locks,
        promotions,
        rollbacks,
        assignments,
        lifecycle,
        tenants: deps.tenants,
        central: deps.central,
        adminAuthenticated,
      }),
    stop: () => operations.stop(),
  };
}
