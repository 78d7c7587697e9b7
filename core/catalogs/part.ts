/** The catalogs part (core/parts): screens, workflow nodes and AI tools the installed modules offer. */
import { platformPart } from '../parts/platform-parts';
import { createCatalogs } from './index';

export const catalogsPart = platformPart({
  id: 'catalogs',
  deps: ['rings', 'kernel', 'drivers', 'config', 'logger'],
  init: ({ rings, kernel, drivers, config, logger }) =>
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
    }),
});
