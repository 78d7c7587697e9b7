/**
 * In-process rate limits (REDIS_URL unset): fixed windows counted in this node's memory. The same
 * rules as the Redis driver (a window starts with the first point spent and lasts the policy's
 * duration; points spent past the limit still count), but answered synchronously: the bus spends a
 * point on every call, and a promise per check was a measurable share of its per-call cost.
 */
import { PerPolicy } from './per-policy';
import { checkPolicy, policyResult } from './policy';
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from './types';

interface Window {
  consumed: number;
  /** Date.now() at which the window closes. */
  endsAt: number;
}

/** How often expired windows are swept out, so keys seen once do not stay forever. */
const SWEEP_EVERY_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new PerPolicy<Window>();
  private nextSweep = Date.now() + SWEEP_EVERY_MS;

  consumeSync(key: string, policy: RateLimitPolicy, cost = 1): RateLimitResult {
    checkPolicy(policy);
    const now = Date.now();
    if (now >= this.nextSweep) this.sweep(now);
    const counters = this.windows.of(policy);
    let w = counters.get(key);
    if (w === undefined || w.endsAt <= now) {
      w = { consumed: 0, endsAt: now + policy.durationSeconds * 1000 };
      counters.set(key, w);
    }
    w.consumed += cost;
    return policyResult(policy, w.consumed, w.endsAt - now, w.consumed <= policy.points, now);
  }

  async consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitResult> {
    return this.consumeSync(key, policy, cost);
  }

  async peek(key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
    checkPolicy(policy);
    const now = Date.now();
    const w = this.windows.of(policy).get(key);
    if (w === undefined || w.endsAt <= now) return policyResult(policy, 0, policy.durationSeconds * 1000, true, now);
    return policyResult(policy, w.consumed, w.endsAt - now, w.consumed < policy.points, now);
  }

  async refund(key: string, policy: RateLimitPolicy, cost = 1): Promise<void> {
    checkPolicy(policy);
    const w = this.windows.of(policy).get(key);
    if (w !== undefined && w.endsAt > Date.now()) w.consumed = Math.max(0, w.consumed - cost);
  }

  async reset(key: string, policy: RateLimitPolicy): Promise<void> {
    checkPolicy(policy);
    this.windows.of(policy).delete(key);
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const counters of this.windows.maps()) {
      for (const [key, w] of counters) if (w.endsAt <= now) counters.delete(key);
    }
  }
}
