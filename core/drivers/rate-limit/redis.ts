/** Rate limits shared by every node (REDIS_URL set): one counter per key in Redis, updated atomically. */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { FlexibleRateLimiter } from './flexible';

export function createRedisRateLimiter(client: Redis, keyPrefix: string): FlexibleRateLimiter {
  return new FlexibleRateLimiter(
    (opts) =>
      new RateLimiterRedis({
        ...opts,
        storeClient: client,
        // When a Redis command fails (server unreachable), each node limits on its own instead of
        // failing the request. Not rejectIfRedisNotReady: that would also count locally while the
        // connection is still being opened at boot.
        insuranceLimiter: new RateLimiterMemory(opts),
      }),
    keyPrefix,
  );
}
