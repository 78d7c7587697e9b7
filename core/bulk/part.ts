/** The bulk part (core/parts): CSV imports and exports as queued jobs. */
import { platformPart } from '../parts/platform-parts';
import { createBulk } from './index';

export const bulkPart = platformPart({
  id: 'bulk',
  deps: ['config', 'kernel', 'drivers', 'realtime', 'logger'],
  init: ({ config, kernel, drivers, realtime, logger }) =>
    createBulk({ dataDir: config.dataDir, bus: kernel.bus, queue: drivers.queue, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload), logger }),
  stop: (bulk) => bulk.stop(),
});
