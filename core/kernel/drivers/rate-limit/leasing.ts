/**
 * Rate limits shared by every node through Redis (REDIS_URL set), exact near the limit and batched
 * far from it, so a lone bus call does not wait for a Redis round trip (issue 3).
 *
 * How: a consume that needs the server (RedisCounters.spend) may also lease this node a block of
 * points of that key's current window, counted on the shared counter at once. Later consumes are
 * answered from the lease synchronously (consumeSync); when fewer than REFILL_BELOW points are left
 * of it, one background round trip tops it up again. The server sizes every lease against the
 * counter as it is then: at most MAX_LEASE minus what the node still holds, at most
 * remaining / (NODE_SHARE × nodes that leased the key this window), and none once fewer than
 * LEASE_FLOOR points would remain. From there on every consume is one exact round trip, as is every
 * consume of a limit of LEASE_FLOOR points or less. Consumes that wait for the server and are issued
 * together (in one turn of the event loop, or while the key's previous round trip is out) leave as
 * one spend of their summed cost, answered as if they had come one by one, in order.
 *
 * Invariant: the points admitted in a window, over all nodes, never exceed the limit. Every admitted
 * point is a unit of the shared counter of the window it was admitted in, at a position at or below
 * the limit: an exact consume is admitted only if the counter after it is within the limit; a lease
 * is granted only whole and within the limit (the script checks before it increments, atomically);
 * a node serves its lease only while its window is surely open (until the time it sent the request
 * plus the time left the server reported, which is no later than the window's true end), and keeps
 * leftover points across a top-up only when the answer names the same window (its end on the
 * Redis clock). Leased points never handed out simply lapse with their window.
 *
 * The price: leased points count as spent before they are used, so a node may be refused while
 * other nodes still hold unused leased points of the window. A node holds at most MAX_LEASE (32)
 * points of a key, so when one node is refused, at most 32 × (other nodes) points of the window
 * are not yet admitted; they are still admitted, by the nodes holding them. With the default bus
 * limit (6,000 a minute) and four nodes that is at most 96 calls (1.6 %) spent on other nodes
 * first. X-RateLimit-Remaining is what this node can still admit as far as it knows: the points it
 * holds plus what the shared counter had left when this node last saw it. It counts down by one per
 * call on each node, never rises within a window, and is exact on a node alone; with several, it
 * learns the others' spending at the node's next round trip (a top-up, at least every
 * MAX_LEASE − REFILL_BELOW + 1 calls). A reset() reaches the counter and this node's lease, not the
 * leases other nodes hold (at most 32 points each, and only of limits above LEASE_FLOOR).
 *
 * When a Redis command fails, each node counts on its own (`insurance`) instead of failing the
 * request, as the driver did before.
 */
import type { MemoryRateLimiter } from './memory';
import { PerPolicy } from './per-policy';
import { checkPolicy, policyResult } from './policy';
import type { LeaseRules, RedisCounters, SpendAnswer } from './redis-counters';
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from './types';

/** The most points of one key a node holds at a time. */
export const MAX_LEASE = 32;
/** A lease is topped up when fewer points than this are left of it. */
export const REFILL_BELOW = 16;
/** No lease once fewer points than this would remain in the window. */
export const LEASE_FLOOR = 64;
/** A lease is at most remaining / (NODE_SHARE × nodes that leased the key this window). */
export const NODE_SHARE = 4;
/** What RedisCounters needs to size leases by the rules above. */
export const LEASE_RULES: LeaseRules = { floor: LEASE_FLOOR, share: NODE_SHARE };

/** Two answers name the same window when their window ends differ by less (windows last ≥ 1 s). */
const SAME_WINDOW_MS = 500;
/** How often keys with no open lease and nothing waiting are forgotten. */
const SWEEP_EVERY_MS = 60_000;

interface Waiter {
  cost: number;
  resolve: (r: RateLimitResult) => void;
}

/** What this node knows and holds of one key's window. */
interface KeyState {
  key: string;
  policy: RateLimitPolicy;
  /** Leased points not handed out yet. */
  left: number;
  /** The shared counter at the last answer, this node's lease included. */
  counter: number;
  /** performance.now() until which the lease's window is surely open. */
  endsAt: number;
  /** The lease's window, named by its end on the Redis clock. */
  windowEnd: number;
  /** The last answer granted a lease, so topping it up may succeed. */
  leasing: boolean;
  /** Consumes waiting for the next round trip, in the order they came. */
  queue: Waiter[];
  inFlight: boolean;
  /** Reset while a round trip was out: its answer leases nothing. */
  dropped: boolean;
}

/**
 * The points a lease-served answer counts as spent, so that its remaining is what this node can
 * still admit: what it holds, plus what the shared counter had left when last seen.
 */
function spentFor(s: KeyState): number {
  return Math.min(s.counter, s.policy.points) - s.left;
}

export class LeasingRateLimiter implements RateLimiter {
  private readonly states = new PerPolicy<KeyState>();
  private due = new Set<KeyState>();
  private flushQueued = false;
  private nextSweep = performance.now() + SWEEP_EVERY_MS;

  constructor(
    private readonly counters: RedisCounters,
    private readonly insurance: MemoryRateLimiter,
  ) {}

  /** From this node's lease; undefined when the answer needs the server (then call consume). */
  consumeSync(key: string, policy: RateLimitPolicy, cost = 1): RateLimitResult | undefined {
    checkPolicy(policy);
    const s = this.states.of(policy).get(key);
    if (s === undefined || s.left < cost) return undefined;
    const now = performance.now();
    if (now >= s.endsAt) {
      s.left = 0; // the window may have closed: what is left of the lease lapses
      return undefined;
    }
    s.left -= cost;
    if (s.left < REFILL_BELOW && s.leasing) this.schedule(s);
    return policyResult(policy, spentFor(s), s.endsAt - now, true);
  }

  async consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitResult> {
    const served = this.consumeSync(key, policy, cost);
    if (served !== undefined) return served;
    return new Promise((resolve) => {
      const s = this.stateOf(key, policy);
      s.queue.push({ cost, resolve });
      this.schedule(s);
    });
  }

  async peek(key: string, policy: RateLimitPolicy): Promise<RateLimitResult> {
    checkPolicy(policy);
    let shared: Awaited<ReturnType<RedisCounters['read']>>;
    try {
      shared = await this.counters.read(key, policy);
    } catch {
      return this.insurance.peek(key, policy);
    }
    if (shared === null) return policyResult(policy, 0, policy.durationSeconds * 1000, true);
    // Read after the answer: the lease is still open then, so it belongs to the window just read.
    const s = this.states.of(policy).get(key);
    const held = s !== undefined && performance.now() < s.endsAt ? s.left : 0;
    return policyResult(policy, Math.min(shared.counter, policy.points) - held, shared.ttlMs, held > 0 || shared.counter < policy.points);
  }

  // Straight to the shared counter: points this node holds leased stay leased.
  async refund(key: string, policy: RateLimitPolicy, cost = 1): Promise<void> {
    checkPolicy(policy);
    try {
      await this.counters.refund(key, policy, cost);
    } catch {
      await this.insurance.refund(key, policy, cost);
    }
  }

  async reset(key: string, policy: RateLimitPolicy): Promise<void> {
    checkPolicy(policy);
    const states = this.states.of(policy);
    const s = states.get(key);
    if (s !== undefined) {
      s.left = 0;
      s.dropped = true;
      states.delete(key);
    }
    try {
      await this.counters.remove(key, policy);
    } catch {
      await this.insurance.reset(key, policy);
    }
  }

  private stateOf(key: string, policy: RateLimitPolicy): KeyState {
    const now = performance.now();
    if (now >= this.nextSweep) this.sweep(now);
    const states = this.states.of(policy);
    let s = states.get(key);
    if (s === undefined) {
      s = { key, policy, left: 0, counter: 0, endsAt: 0, windowEnd: 0, leasing: false, queue: [], inFlight: false, dropped: false };
      states.set(key, s);
    }
    return s;
  }

  private schedule(s: KeyState): void {
    this.due.add(s);
    if (this.flushQueued) return;
    this.flushQueued = true;
    // After the microtasks queued so far: the consumes of one burst of continuations leave together.
    process.nextTick(() => this.flush());
  }

  private flush(): void {
    this.flushQueued = false;
    const due = this.due;
    this.due = new Set();
    // A key whose round trip is out sends what waits when that answer is in (one round trip per key at a time).
    for (const s of due) if (!s.inFlight && (s.queue.length > 0 || this.wantsTopUp(s))) void this.send(s);
  }

  private wantsTopUp(s: KeyState): boolean {
    return s.leasing && !s.dropped && s.left < REFILL_BELOW && performance.now() < s.endsAt;
  }

  private async send(s: KeyState): Promise<void> {
    const waiters = s.queue;
    s.queue = [];
    let cost = 0;
    for (const w of waiters) cost += w.cost;
    const sentAt = performance.now();
    const held = sentAt < s.endsAt ? s.left : 0;
    s.inFlight = true;
    let answer: SpendAnswer;
    try {
      answer = await this.counters.spend(s.key, s.policy, cost, s.dropped ? 0 : MAX_LEASE - held);
    } catch {
      s.inFlight = false;
      s.leasing = false;
      for (const w of waiters) w.resolve(this.insurance.consumeSync(s.key, s.policy, w.cost));
      if (s.queue.length > 0) this.schedule(s);
      return;
    }
    s.inFlight = false;
    if (!s.dropped) this.takeLease(s, answer, sentAt);
    // Each waiter's answer as if the consumes had been sent one by one, in order, before the lease.
    const msLeft = sentAt + answer.ttlMs - performance.now();
    let position = answer.counter - answer.leased - cost;
    for (const w of waiters) {
      position += w.cost;
      w.resolve(policyResult(s.policy, position, msLeft, position <= s.policy.points));
    }
    this.serveQueued(s);
    if (s.queue.length > 0 || this.wantsTopUp(s)) this.schedule(s);
  }

  private takeLease(s: KeyState, answer: SpendAnswer, sentAt: number): void {
    s.leasing = answer.leased > 0;
    if (answer.ttlMs === 0) {
      s.left = 0; // no window is open: the lease's window is over
      return;
    }
    const sameWindow = sentAt < s.endsAt && Math.abs(answer.windowEnd - s.windowEnd) < SAME_WINDOW_MS;
    s.left = (sameWindow ? s.left : 0) + answer.leased;
    s.counter = answer.counter;
    s.endsAt = sentAt + answer.ttlMs;
    s.windowEnd = answer.windowEnd;
  }

  /** Consumes that queued while the round trip was out, answered from the fresh lease as far as it goes. */
  private serveQueued(s: KeyState): void {
    const now = performance.now();
    if (now >= s.endsAt) return;
    let served = 0;
    for (const w of s.queue) {
      if (s.left < w.cost) break;
      s.left -= w.cost;
      w.resolve(policyResult(s.policy, spentFor(s), s.endsAt - now, true));
      served++;
    }
    if (served > 0) s.queue = s.queue.slice(served);
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const states of this.states.maps()) {
      for (const [key, s] of states) if (now >= s.endsAt && !s.inFlight && s.queue.length === 0) states.delete(key);
    }
  }
}

