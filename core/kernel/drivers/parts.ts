/** The drivers part (core/kernel/parts): queue, cache, pub/sub and rate limits. */
import { configRef } from '../../config';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { createDrivers, type Drivers } from './index';

export const driversRef = partRef<Drivers>('drivers');

export const driversPart = definePart({
  ref: driversRef,
  deps: { config: configRef, logger: loggerRef },
  init: ({ config, logger }, lifecycle) => {
    const drivers = createDrivers({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger, queue: { lockMs: config.queueLockMs, stalledCheckMs: config.queueStalledCheckMs } });
    // Every part that handles queued jobs starts after this one, so this drain runs after theirs
    // (the workflow workers stop first: their runs add to the queue as they end); then this node's
    // running jobs finish before any part's stop closes what they use.
    lifecycle.onDrain(() => drivers.queue.close());
    return drivers;
  },
  stop: (drivers) => drivers.close(),
});
