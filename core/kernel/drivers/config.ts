/** Redis's and the queue's settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, optionalText, settingsGroup, text, type Setting } from '../config/settings';

/**
 * Workers of a pool of `workers` that one tenant may hold while another tenant's jobs wait
 * (core/kernel/drivers/queue/fair-share.ts): by default half of them, rounded up.
 */
export function tenantShare(name: string, workers: Setting<number>, shown: string, meaning: string): Setting<number> {
  return int(name, { default: (get) => Math.ceil(get(workers) / 2), min: 1, shown }, meaning);
}

export const driverSettings = settingsGroup('drivers', {
  redisUrl: optionalText('REDIS_URL', 'Redis for the job queue (bull), cache, rate limits, pub/sub and the socket.io adapter; several nodes then share one load. Unset: in-process drivers (one node).'),
  redisPrefix: text('REDIS_PREFIX', { default: 'mandi' }, 'Namespace of every Redis key and channel, so several deployments (or test runs) can share one Redis.'),
  // Floors: a bull lock or check interval of 0 would make every running job look stalled.
  queueLockMs: int('QUEUE_LOCK_MS', { default: 30_000, min: 1000 }, "With `REDIS_URL`: how long a running job's lock lasts (renewed every half of it). A node that dies stops renewing; its jobs are taken up by another node once the lock has run out. Keep it well above any event-loop pause of a live node, or a healthy job runs twice."),
  queueStalledCheckMs: int('QUEUE_STALLED_CHECK_MS', { default: 5_000, min: 100 }, "With `REDIS_URL`: how often each node looks for jobs whose lock ran out and puts them back to wait. A dead node's jobs move on within `QUEUE_LOCK_MS` + this (35 s by default)."),
});
