/** In-process rate limits (REDIS_URL unset): counters live in this node's memory. */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { FlexibleRateLimiter } from './flexible';

export function createMemoryRateLimiter(keyPrefix: string): FlexibleRateLimiter {
  return new FlexibleRateLimiter((opts) => new RateLimiterMemory(opts), keyPrefix);
}
