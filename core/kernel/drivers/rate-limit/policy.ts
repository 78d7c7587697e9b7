/**
 * What every rate limit driver does the same way, whatever counts the points: refusing a malformed
 * policy, and turning a window's count into the answer callers see.
 */
import type { RateLimitPolicy, RateLimitResult } from './types';

export function checkPolicy({ points, durationSeconds }: RateLimitPolicy): void {
  if (!(Number.isInteger(points) && points > 0)) throw new Error('rate limit points must be a positive integer');
  if (!(Number.isInteger(durationSeconds) && durationSeconds > 0)) throw new Error('rate limit durationSeconds must be a positive integer');
}

/** consumed: points spent in the window so far; msLeft: until it closes (a late clock reads as 0). */
export function policyResult(policy: RateLimitPolicy, consumed: number, msLeft: number, allowed: boolean, now = Date.now()): RateLimitResult {
  const ms = Math.max(0, msLeft);
  const resetSeconds = Math.ceil(ms / 1000);
  return {
    allowed,
    limit: policy.points,
    remaining: Math.max(0, policy.points - consumed),
    resetSeconds,
    resetAt: new Date(now + ms),
    retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
  };
}
