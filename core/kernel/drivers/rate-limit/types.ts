/**
 * Fixed-window rate limits: at most `points` per key in each window of `durationSeconds`. In-process
 * or shared by every node through Redis, where points spent on one node count on all of them (and
 * points a node has leased count as spent: see rate-limit/leasing.ts).
 */

export interface RateLimitPolicy {
  points: number;
  durationSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** The policy's points. */
  limit: number;
  /** Points left in this window after this call (never negative). */
  remaining: number;
  /** Seconds until the window resets (rounded up). */
  resetSeconds: number;
  resetAt: Date;
  /** 0 when allowed; otherwise whole seconds to wait (at least 1). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /**
   * Spends `cost` points (default 1) of key under policy. Keys are counted per policy, so the same
   * key under two policies has two counters; still, name the caller in the key (e.g. `login:<ip>`).
   */
  consume(key: string, policy: RateLimitPolicy, cost?: number): Promise<RateLimitResult>;
  /**
   * `consume` without a promise, for hot paths such as the bus. The memory driver always answers;
   * the Redis driver answers from points this node has leased (far from the limit) and returns
   * undefined when the answer needs a round trip to the server: then call `consume`.
   */
  consumeSync?(key: string, policy: RateLimitPolicy, cost?: number): RateLimitResult | undefined;
  /** The state of key without spending anything; `allowed` says whether one more point would be. */
  peek(key: string, policy: RateLimitPolicy): Promise<RateLimitResult>;
  /**
   * Gives back `cost` points (default 1) spent in key's open window, atomically and never below
   * zero; with no window open it does nothing. For reserve-then-settle limits (the login lockout):
   * a point is consumed before the work, so parallel requests cannot all pass one check, and given
   * back when the work turns out not to count.
   */
  refund(key: string, policy: RateLimitPolicy, cost?: number): Promise<void>;
  /** Forgets what key spent under policy. */
  reset(key: string, policy: RateLimitPolicy): Promise<void>;
}
