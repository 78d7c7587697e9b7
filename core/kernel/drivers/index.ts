/**
 * The drivers (DESIGN.md, Drivers): job queue, cache, rate limiter and pub/sub behind small
 * interfaces. REDIS_URL unset: in-process, for one node. Set: Redis, so several nodes share one
 * queue, one cache, one set of rate-limit counters and one message bus. Realtime (socket.io) is made
 * separately (createRealtime) and served on an HTTP server.
 */
import type { Logger } from '../logger';
import { MemoryCache } from './cache/memory';
import { RedisCache } from './cache/redis';
import type { Cache } from './cache/types';
import { MemoryPubSub } from './pubsub/memory';
import { RedisPubSub } from './pubsub/redis';
import type { PubSub } from './pubsub/types';
import { MemoryJobQueue } from './queue/memory';
import { RedisJobQueue } from './queue/redis';
import type { JobQueue } from './queue/types';
import { MemoryRateLimiter } from './rate-limit/memory';
import { createRedisRateLimiter } from './rate-limit/redis';
import type { RateLimiter } from './rate-limit/types';
import { closeRedisClient, createRedisClient, pingRedis } from './redis-connection';

export type { Cache } from './cache/types';
export type { MessageHandler, PubSub } from './pubsub/types';
export type { AddOptions, Backoff, Job, JobEvents, JobHandler, JobInfo, JobQueue, JobState, ProcessOptions, Repeat } from './queue/types';
export type { RateLimiter, RateLimitPolicy, RateLimitResult } from './rate-limit/types';
export { rateLimit, type RateLimitOptions } from './rate-limit/middleware';
export { attachRealtime, createRealtime, type Authenticate, type Authorize, type AuthorizeResult, type Realtime, type RealtimeIdentity, type RealtimeOptions } from './realtime';

export interface DriversOptions {
  /** config.redisUrl: unset for in-process drivers. */
  redisUrl?: string;
  /** Namespaces every Redis key and channel (default `mandi`), so deployments or test runs can share a Redis. */
  prefix?: string;
  logger: Logger;
  /** bull's job lock and stalled-job check (see queue/redis.ts); unset: its defaults there. */
  queue?: { lockMs?: number; stalledCheckMs?: number };
}

export interface DriversHealth {
  redis: 'up' | 'down' | 'not_configured';
}

export interface Drivers {
  kind: 'memory' | 'redis';
  prefix: string;
  logger: Logger;
  redisUrl: string | undefined;
  queue: JobQueue;
  cache: Cache;
  rateLimiter: RateLimiter;
  pubsub: PubSub;
  health(): Promise<DriversHealth>;
  /** Waits for this node's active jobs, then closes every connection. Safe to call twice. */
  close(): Promise<void>;
}

export function createDrivers(opts: DriversOptions): Drivers {
  const prefix = opts.prefix ?? 'mandi';
  const logger = opts.logger.child({ part: 'drivers' });
  return opts.redisUrl ? redisDrivers(opts.redisUrl, prefix, logger, opts.queue) : memoryDrivers(prefix, logger);
}

function memoryDrivers(prefix: string, logger: Logger): Drivers {
  const queue = new MemoryJobQueue(logger);
  const pubsub = new MemoryPubSub(logger);
  return {
    kind: 'memory',
    prefix,
    logger,
    redisUrl: undefined,
    queue,
    cache: new MemoryCache(logger),
    rateLimiter: new MemoryRateLimiter(),
    pubsub,
    health: async () => ({ redis: 'not_configured' }),
    close: once(async () => {
      await queue.close();
      await pubsub.close();
    }),
  };
}

function redisDrivers(redisUrl: string, prefix: string, logger: Logger, queueSettings: DriversOptions['queue'] = {}): Drivers {
  // One command connection for cache, rate limits and publishing; bull and the subscriber open their own.
  const client = createRedisClient(redisUrl, logger, { name: `${prefix}:main` });
  const queue = new RedisJobQueue({ redisUrl, prefix: `${prefix}:bull`, logger, ...queueSettings });
  const pubsub = new RedisPubSub(
    client,
    createRedisClient(redisUrl, logger, { name: `${prefix}:sub`, subscriber: true }),
    `${prefix}:ps:`,
    logger,
  );
  return {
    kind: 'redis',
    prefix,
    logger,
    redisUrl,
    queue,
    cache: new RedisCache(client, `${prefix}:cache:`, logger),
    rateLimiter: createRedisRateLimiter(client, `${prefix}:rl`),
    pubsub,
    health: async () => ({ redis: (await pingRedis(client)) ? 'up' : 'down' }),
    close: once(async () => {
      await queue.close();
      await pubsub.close();
      await closeRedisClient(client);
    }),
  };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
