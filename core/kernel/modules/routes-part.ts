/**
 * The module routes part (core/kernel/parts): modules' own routes under /api/v1 and their public ones
 * outside it, with the admin routes of the kernel (fetch origins, providers, quarantine). Apart from
 * the kernel part, since a module's routes reach the files bulk provides (./file-transfers.ts),
 * and bulk needs the kernel.
 */
import { configRef } from '../../config';
import { centralRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { tenantsRef } from '../tenancy/part';
import { fileTransfersRef } from './file-transfers';
import { registerFetchOriginRoutes } from './fetch-origins-routes';
import { moduleRoutes } from './module-routes';
import { kernelRef } from './part';
import { registerProviderRoutes } from './provider-routes';
import { publicModuleRoutes } from './public-routes';
import { registerQuarantineRoutes } from './quarantine-routes';
import { StreamSlots } from './stream-slots';

export const moduleRoutesRef = partRef<void>('moduleRoutes');

export const moduleRoutesPart = definePart({
  ref: moduleRoutesRef,
  deps: { routes: routesRef, config: configRef, central: centralRef, tenants: tenantsRef, kernel: kernelRef, drivers: driversRef, files: fileTransfersRef, logger: loggerRef },
  collects: fileTransfersRef,
  init: ({ routes, config, central, tenants, kernel, drivers, files, logger }) => {
    const { modules, bus } = kernel;
    const { rateLimiter } = drivers;
    // One count of open streams per tenant for both kinds of module route (MODULE_STREAMS_PER_TENANT).
    const streams = new StreamSlots(config.moduleStreamsPerTenant);
    routes.add({ name: 'fetch-origins', mount: (api, { authenticated }) => registerFetchOriginRoutes(api, { central, authenticated, changed: kernel.fetchGrantsChanged }) });
    routes.add({ name: 'providers', mount: (api, { authenticated }) => registerProviderRoutes(api, { modules, providers: kernel.providers, authenticated }) });
    routes.add({ name: 'quarantine', mount: (api, { adminAuthenticated }) => registerQuarantineRoutes(api, { quarantine: kernel.quarantine, adminAuthenticated }) });
    routes.add({ name: 'module-routes', mount: (api, { authenticated }) => void api.use(moduleRoutes({ modules, bus, authenticated, rateLimiter, files: files.provided, streams })) });
    routes.add({
      name: 'module-public-routes',
      mount: (router) => void router.use(publicModuleRoutes({ central, tenants, modules, bus, rateLimiter, missRateLimit: config.publicMissRateLimit, logger, streams })),
    });
  },
});
