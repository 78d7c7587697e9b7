/**
 * Rate limits shared by every node (REDIS_URL set): one counter per key in Redis, updated atomically,
 * with points far from the limit leased to nodes in blocks (leasing.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { LEASE_RULES, LeasingRateLimiter } from './leasing';
import { MemoryRateLimiter } from './memory';
import { RedisCounters } from './redis-counters';

export function createRedisRateLimiter(client: Redis, keyPrefix: string): LeasingRateLimiter {
  // This process is one node, named at random in the per-window sets of nodes that lease a key.
  const counters = new RedisCounters(client, keyPrefix, randomUUID(), LEASE_RULES);
  // When a Redis command fails (server unreachable), each node limits on its own instead of failing
  // the request. Commands sent while the connection is still being opened at boot wait for it.
  return new LeasingRateLimiter(counters, new MemoryRateLimiter());
}
