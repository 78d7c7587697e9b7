/** The catalogs part (core/parts): screens, workflow nodes and AI tools the installed modules offer. */
import { platformPart } from '../parts/platform-parts';
import { ActingGrants } from './acting-grants';
import { createCatalogs } from './index';

export const catalogsPart = platformPart({
  id: 'catalogs',
  deps: ['rings', 'kernel', 'drivers', 'config', 'logger', 'keys', 'auth', 'clock'],
  init: ({ rings, kernel, drivers, config, logger, keys, auth, clock }) =>
    createCatalogs({
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
    }),
});
