/** The bulk part (core/kernel/parts): CSV imports and exports as queued jobs. */
import { configRef } from '../../config';
import { driversRef } from '../../kernel/drivers/parts';
import { loggerRef } from '../../kernel/logger';
import { fileTransfersRef } from '../../kernel/modules/file-transfers';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { realtimeRef } from '../../kernel/realtime/part';
import { createBulk, type Bulk } from './index';

export const bulkRef = partRef<Bulk>('bulk');

export const bulkPart = definePart({
  ref: bulkRef,
  deps: { config: configRef, kernel: kernelRef, drivers: driversRef, realtime: realtimeRef, logger: loggerRef, files: fileTransfersRef },
  init: ({ config, kernel, drivers, realtime, logger, files }) => {
    const bulk = createBulk({ dataDir: config.dataDir, bus: kernel.bus, queue: drivers.queue, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload), logger });
    files.provide(bulk);
    return bulk;
  },
  stop: (bulk) => bulk.stop(),
});
