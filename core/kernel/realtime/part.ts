/** The realtime part (core/kernel/parts): sockets, with the channels modules declare and the visitor grants they issue. */
import { authRef } from '../auth/part';
import { socketPrincipal } from '../auth/socket-principal';
import { clockRef } from '../clock-part';
import { configRef } from '../../config';
import { createRealtime, type Realtime } from '../drivers';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { defaultChannelPolicy } from './channel-policy';
import { definePart, partRef } from '../parts';
import { keysRef } from '../secrets/part';
import { tenantsRef } from '../tenancy/part';
import { recheckOnAccessChange } from './access-changes';
import { ModuleChannels } from './module-channels';
import { registerRealtimeOperations } from './realtime-operations';
import { VisitorGrants } from './visitor-grants';

export const realtimeRef = partRef<Realtime>('realtime');

export const realtimePart = definePart({
  ref: realtimeRef,
  deps: { config: configRef, logger: loggerRef, drivers: driversRef, auth: authRef, tenants: tenantsRef, keys: keysRef, kernel: kernelRef, clock: clockRef },
  init: async ({ config, logger, drivers, auth, tenants, keys, kernel, clock }) => {
    const grants = new VisitorGrants(keys, clock);
    const channels = new ModuleChannels(kernel.modules);
    const realtime = createRealtime(drivers, socketPrincipal(auth, tenants, grants), {
      authorize: defaultChannelPolicy(auth, channels, clock).authorize,
      now: () => clock.now(),
      recheckEveryMs: config.realtimeRecheckSeconds * 1000,
      // The socket's long-polling transport is plain HTTP: the same origins as the API (websocket is not bound by CORS).
      server: config.corsOrigins ? { cors: { origin: config.corsOrigins, credentials: false } } : {},
    });
    // Broadcasts from other nodes reach this one only once the Redis adapter has subscribed.
    await withTimeout(realtime.ready(), 5_000, () => logger.warn('realtime adapter not ready after 5 s; continuing'));
    recheckOnAccessChange(auth, realtime);
    registerRealtimeOperations(kernel.bus, { channels, grants, realtime, rateLimiter: drivers.rateLimiter, clock, broadcastRate: config.realtimeBroadcastRate });
    return realtime;
  },
  stop: (realtime) => realtime.close(),
});

async function withTimeout(p: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
  });
  await Promise.race([p.then(() => undefined), timeout]);
  clearTimeout(timer);
}
