/** The catalogs part (core/kernel/parts): screens, workflow nodes and AI tools the installed modules offer, and their routes. */
import { ringsRef } from '../../../rings/part';
import { authRef } from '../../kernel/auth/part';
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { keysRef } from '../../kernel/secrets/part';
import { ActingGrants } from './acting-grants';
import { createCatalogs, type Catalogs } from './index';

export const catalogsRef = partRef<Catalogs>('catalogs');

export const catalogsPart = definePart({
  ref: catalogsRef,
  deps: { rings: ringsRef, kernel: kernelRef, drivers: driversRef, config: configRef, logger: loggerRef, keys: keysRef, auth: authRef, clock: clockRef, routes: routesRef },
  init: async ({ rings, kernel, drivers, config, logger, keys, auth, clock, routes }) => {
    const catalogs = await createCatalogs({
      releases: rings.service,
      modules: kernel.modules,
      isDevelopment: (alias) => kernel.source.isLocal(alias),
      bus: kernel.bus,
      cache: drivers.cache,
      rateLimiter: drivers.rateLimiter,
      workflowRateLimit: config.workflowRateLimit,
      screenDefinitionTtlSeconds: config.screenDefinitionTtlSeconds,
      logger,
      grants: new ActingGrants(keys, clock),
      clock,
      actingUser: (tenantId, userId) => auth.actingUser(tenantId, userId),
    });
    routes.add({ name: 'catalogs', mount: (api, { authenticated }) => catalogs.registerRoutes(api, authenticated) });
    return catalogs;
  },
});
