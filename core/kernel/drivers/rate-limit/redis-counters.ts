/**
 * The shared fixed-window counters in Redis, one integer per (policy, key) that expires with its
 * window (the key layout rate-limiter-flexible used, so nodes of the previous release count on the
 * same counters during a rolling deploy). One script spends a consume and, in the same atomic step,
 * may lease points to the asking node: how many is decided on the server, against the counter as it
 * is then, so a lease never reaches past the limit and is never handed out near it.
 */
import type { Redis } from 'ioredis';
import type { RateLimitPolicy } from './types';

/** How leases are sized; see LeasingRateLimiter for why these numbers. */
export interface LeaseRules {
  /** No lease once fewer points than this would remain after the consume. */
  floor: number;
  /** A lease is at most remaining / (share × nodes that leased the key in this window). */
  share: number;
}

export interface SpendAnswer {
  /** The counter after this spend: the consume's cost and the lease both counted. */
  counter: number;
  /** Milliseconds until the window closes, as Redis saw it; 0 when nothing was spent and no window is open. */
  ttlMs: number;
  /** Points leased to this node beyond the cost (0: none). */
  leased: number;
  /** The window's end on the Redis clock (unix ms): the same for every spend of one window, so it names the window. */
  windowEnd: number;
}

// KEYS: counter, the set of nodes that leased in this window. ARGV: cost, lease wanted, limit,
// window ms, node id, floor, share. A spend of nothing at all (a declined lease top-up) writes
// nothing, so it never opens a window: it answers the counter as it is, or ttl 0 when no window is open.
const SPEND_SCRIPT = `
local cost = tonumber(ARGV[1])
local want = tonumber(ARGV[2])
local windowMs = tonumber(ARGV[4])
local counter = tonumber(redis.call('GET', KEYS[1]) or '0')
local open = redis.call('PTTL', KEYS[1])
local ttl = open > 0 and open or windowMs
local remaining = tonumber(ARGV[3]) - counter - cost
local leased = 0
if want > 0 and remaining >= tonumber(ARGV[6]) then
  redis.call('SADD', KEYS[2], ARGV[5])
  if redis.call('PTTL', KEYS[2]) == -1 then redis.call('PEXPIRE', KEYS[2], ttl) end
  leased = math.min(want, math.floor(remaining / (tonumber(ARGV[7]) * redis.call('SCARD', KEYS[2]))))
end
if cost + leased > 0 then
  counter = redis.call('INCRBY', KEYS[1], cost + leased)
  if open <= 0 then redis.call('PEXPIRE', KEYS[1], windowMs) end
elseif open <= 0 then
  return {0, 0, 0, 0}
end
local now = redis.call('TIME')
return {counter, ttl, leased, tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) + ttl}
`;

// KEYS: counter. ARGV: cost. Never below zero, and never on a counter that is absent: a DECRBY
// there would create one with no expiry. DECRBY keeps the window's expiry.
const REFUND_SCRIPT = `
local counter = tonumber(redis.call('GET', KEYS[1]) or '0')
if counter <= 0 then return 0 end
return redis.call('DECRBY', KEYS[1], math.min(tonumber(ARGV[1]), counter))
`;

const COMMAND = 'mandiRateLimitSpend';
const REFUND_COMMAND = 'mandiRateLimitRefund';

type SpendCommand = (counterKey: string, nodesKey: string, ...argv: string[]) => Promise<number[]>;
type RefundCommand = (counterKey: string, cost: string) => Promise<number>;

export class RedisCounters {
  private readonly spendCommand: SpendCommand;
  private readonly refundCommand: RefundCommand;

  /** keyPrefix namespaces the counters (e.g. `mandi:rl`); nodeId names this node in the lease sets. */
  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    private readonly nodeId: string,
    private readonly rules: LeaseRules,
  ) {
    // ioredis sends EVALSHA, and the script itself only when the server does not have it yet.
    client.defineCommand(COMMAND, { numberOfKeys: 2, lua: SPEND_SCRIPT });
    const command = (client as unknown as Record<string, SpendCommand>)[COMMAND];
    this.spendCommand = command.bind(client);
    client.defineCommand(REFUND_COMMAND, { numberOfKeys: 1, lua: REFUND_SCRIPT });
    this.refundCommand = (client as unknown as Record<string, RefundCommand>)[REFUND_COMMAND].bind(client);
  }

  /** Spends cost (every point counts, past the limit too) and leases up to `want` more when far from the limit. */
  async spend(key: string, policy: RateLimitPolicy, cost: number, want: number): Promise<SpendAnswer> {
    const [counter, ttlMs, leased, windowEnd] = await this.spendCommand(
      this.counterKey(key, policy),
      this.nodesKey(key, policy),
      String(cost),
      String(want),
      String(policy.points),
      String(policy.durationSeconds * 1000),
      this.nodeId,
      String(this.rules.floor),
      String(this.rules.share),
    );
    return { counter, ttlMs, leased, windowEnd };
  }

  /** The counter and the ms left in its window; null when no window is open. */
  async read(key: string, policy: RateLimitPolicy): Promise<{ counter: number; ttlMs: number } | null> {
    const k = this.counterKey(key, policy);
    const [[getErr, value], [ttlErr, ttl]] = (await this.client.multi().get(k).pttl(k).exec()) as [[Error | null, string | null], [Error | null, number]];
    if (getErr ?? ttlErr) throw getErr ?? ttlErr;
    return value === null ? null : { counter: Number(value), ttlMs: Math.max(0, ttl) };
  }

  /** Takes cost back off the counter of the open window (not below zero); nothing when no window is open. */
  async refund(key: string, policy: RateLimitPolicy, cost: number): Promise<void> {
    await this.refundCommand(this.counterKey(key, policy), String(cost));
  }

  async remove(key: string, policy: RateLimitPolicy): Promise<void> {
    await this.client.del(this.counterKey(key, policy), this.nodesKey(key, policy));
  }

  // A counter key starts with the policy's digits, a node set with `nodes:`: the two never meet.
  private counterKey(key: string, policy: RateLimitPolicy): string {
    return `${this.keyPrefix}:${policy.points}:${policy.durationSeconds}:${key}`;
  }

  private nodesKey(key: string, policy: RateLimitPolicy): string {
    return `${this.keyPrefix}:nodes:${policy.points}:${policy.durationSeconds}:${key}`;
  }
}
