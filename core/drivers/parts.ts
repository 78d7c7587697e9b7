/** The driver parts (core/parts): queue, cache, pub/sub and rate limits; realtime sockets; and the jobs drain. */
import { socketPrincipal } from '../auth/socket-principal';
import { defaultChannelPolicy } from '../notifications/channel-policy';
import { platformPart } from '../parts/platform-parts';
import { recheckOnAccessChange } from '../realtime/access-changes';
import { ModuleChannels } from '../realtime/module-channels';
import { registerRealtimeOperations } from '../realtime/realtime-operations';
import { VisitorGrants } from '../realtime/visitor-grants';
import { createDrivers, createRealtime } from './index';

export const driversPart = platformPart({
  id: 'drivers',
  deps: ['config', 'logger'],
  init: ({ config, logger }) =>
    createDrivers({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger, queue: { lockMs: config.queueLockMs, stalledCheckMs: config.queueStalledCheckMs } }),
  // Already closed by `jobs` on a full stop; this covers a start that failed before it.
  stop: (drivers) => drivers.close(),
});

/** Sockets, with the channels modules declare and the visitor grants they issue (core/realtime). */
export const realtimePart = platformPart({
  id: 'realtime',
  deps: ['config', 'logger', 'drivers', 'auth', 'tenants', 'keys', 'kernel', 'clock'],
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

export const jobsPart = platformPart({
  id: 'jobs',
  // Every part that handles queued jobs: this node's running jobs finish before any of them stops.
  // The workflows part is the other way round (it names `jobs`): its runs add to the queue as they
  // end, so it stops its own workers first (JobQueue.stopProcessing) and the queue closes after.
  deps: ['drivers', 'kernel', 'rings', 'notifications', 'bulk', 'accounts'],
  init: ({ drivers }) => ({ drain: () => drivers.close() }),
  stop: (jobs) => jobs.drain(),
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
