/** The rings part (core/kernel/parts): release rings, promotion and the module lifecycle, and their routes. */
import { centralRef } from '../core/kernel/data/parts';
import { driversRef } from '../core/kernel/drivers/parts';
import { routesRef } from '../core/kernel/http/routes';
import { loggerRef } from '../core/kernel/logger';
import { registerModuleAdminRoutes } from '../core/kernel/modules/module-admin-routes';
import { kernelRef } from '../core/kernel/modules/part';
import { definePart, partRef } from '../core/kernel/parts';
import { realtimeRef } from '../core/kernel/realtime/part';
import { tenantsRef } from '../core/kernel/tenancy/part';
import { registryRef } from '../registry/part';
import { createRings, type Rings } from './index';

export const ringsRef = partRef<Rings>('rings');

export const ringsPart = definePart({
  ref: ringsRef,
  deps: { central: centralRef, kernel: kernelRef, registry: registryRef, drivers: driversRef, tenants: tenantsRef, realtime: realtimeRef, logger: loggerRef, routes: routesRef },
  init: async ({ realtime, routes, ...deps }) => {
    const rings = await createRings({ ...deps, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload) });
    // A tenant's own installs, upgrades and removals go through the same lifecycle as a ring's.
    routes.add({ name: 'module-admin', mount: (api, { authenticated }) => registerModuleAdminRoutes(api, { lifecycle: rings.moduleLifecycle, authenticated }) });
    routes.add({ name: 'rings', mount: (api, { adminAuthenticated }) => rings.registerRoutes(api, adminAuthenticated) });
    return rings;
  },
  stop: (rings) => rings.stop(),
});
