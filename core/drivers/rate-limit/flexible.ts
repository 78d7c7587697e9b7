/**
 * RateLimiter over rate-limiter-flexible, whose memory and Redis limiters share one API: the two
 * drivers differ only in which limiter `make` builds. One limiter instance per policy, reused.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from './types';

export type MakeLimiter = (opts: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  /** keyPrefix namespaces the counters, e.g. `mandi:rl`. */
  constructor(
    private readonly make: MakeLimiter,
    private readonly keyPrefix: string,
  ) {}

  async consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitResult> {
    try {
      return toResult(policy, await this.limiter(policy).consume(key, cost), true);
    } catch (err) {
      // The library rejects with the counter's state when the limit is passed, with an Error otherwise.
      if (err instanceof RateLimiterRes) return toResult(policy, err, false);
      throw err;
    }
  }

  async peek(key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
    const res = await this.limiter(policy).get(key);
    if (!res) return toResult(policy, new RateLimiterRes(policy.points, policy.durationSeconds * 1000, 0), true);
    return toResult(policy, res, res.consumedPoints < policy.points);
  }

  async reset(key: string, policy: RateLimitPolicy): Promise<void> {
    await this.limiter(policy).delete(key);
  }

  private limiter(policy: RateLimitPolicy): RateLimiterAbstract {
    const { points, durationSeconds } = policy;
    if (!(Number.isInteger(points) && points > 0)) throw new Error('rate limit points must be a positive integer');
    if (!(Number.isInteger(durationSeconds) && durationSeconds > 0)) throw new Error('rate limit durationSeconds must be a positive integer');
    const id = `${points}:${durationSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.make({ points, duration: durationSeconds, keyPrefix: `${this.keyPrefix}:${id}` });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

function toResult(policy: RateLimitPolicy, res: RateLimiterRes, allowed: boolean): RateLimitResult {
  const ms = Math.max(0, res.msBeforeNext);
  const resetSeconds = Math.ceil(ms / 1000);
  return {
    allowed,
    limit: policy.points,
    remaining: Math.max(0, policy.points - res.consumedPoints),
    resetSeconds,
    resetAt: new Date(Date.now() + ms),
    retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
  };
}
