/** The bulk part (core/parts): CSV imports and exports as queued jobs. */
import { configRef } from '../config';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { realtimeRef } from '../realtime/part';
import { createBulk, type Bulk } from './index';

export const bulkRef = partRef<Bulk>('bulk');

export const bulkPart = definePart({
  ref: bulkRef,
  deps: { config: configRef, kernel: kernelRef, drivers: driversRef, realtime: realtimeRef, logger: loggerRef },
  init: ({ config, kernel, drivers, realtime, logger }) =>
    createBulk({ dataDir: config.dataDir, bus: kernel.bus, queue: drivers.queue, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload), logger }),
  stop: (bulk) => bulk.stop(),
});
