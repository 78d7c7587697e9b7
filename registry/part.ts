/** The registry part (core/parts): published module packages, their publishers and blobs. */
import { platformPart } from '../core/parts/platform-parts';
import { createRegistry } from './index';

export const registryPart = platformPart({
  id: 'registry',
  deps: ['central', 'config', 'logger'],
  init: ({ central, config, logger }) => createRegistry({ sequelize: central.sequelize, dataDir: config.dataDir, logger, maxMemoryMb: config.sandboxMaxMemoryMb }),
});
