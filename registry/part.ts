/** The registry part (core/parts): published module packages, their publishers and blobs. */
import { adminAuthRef } from '../core/auth/part';
import { configRef } from '../core/config';
import { centralRef } from '../core/data/parts';
import { loggerRef } from '../core/logger';
import { definePart, partRef } from '../core/parts';
import { publisherTokens } from './admin-auth';
import { createRegistry, type Registry } from './index';

export const registryRef = partRef<Registry>('registry');

export const registryPart = definePart({
  ref: registryRef,
  deps: { central: centralRef, config: configRef, logger: loggerRef, adminAuth: adminAuthRef },
  init: ({ central, config, logger, adminAuth }) => {
    const registry = createRegistry({ sequelize: central.sequelize, dataDir: config.dataDir, logger, maxMemoryMb: config.sandboxMaxMemoryMb });
    adminAuth.contribute(publisherTokens(registry.publishers));
    return registry;
  },
});
