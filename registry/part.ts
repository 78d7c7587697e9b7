/** The registry part (core/kernel/parts): published module packages, their publishers and blobs, and their routes. */
import { adminAuthRef } from '../core/kernel/auth/part';
import { configRef } from '../core/config';
import { centralRef } from '../core/kernel/data/parts';
import { routesRef } from '../core/kernel/http/routes';
import { loggerRef } from '../core/kernel/logger';
import { definePart, partRef } from '../core/kernel/parts';
import { publisherTokens } from './admin-auth';
import { createRegistry, type Registry } from './index';

export const registryRef = partRef<Registry>('registry');

export const registryPart = definePart({
  ref: registryRef,
  deps: { central: centralRef, config: configRef, logger: loggerRef, adminAuth: adminAuthRef, routes: routesRef },
  init: ({ central, config, logger, adminAuth, routes }) => {
    const registry = createRegistry({ sequelize: central.sequelize, dataDir: config.dataDir, logger, maxMemoryMb: config.sandboxMaxMemoryMb });
    adminAuth.contribute(publisherTokens(registry.publishers));
    routes.add({ name: 'registry', mount: (api, { adminAuthenticated }) => registry.registerRoutes(api, adminAuthenticated) });
    return registry;
  },
});
