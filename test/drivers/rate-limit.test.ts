/** The rate limiter contract, run against the in-process driver and the Redis one (leases far from the limit). */
import type { RateLimiter, RateLimitPolicy, RateLimitResult } from '../../core/kernel/drivers';
import { LEASE_FLOOR, MAX_LEASE, REFILL_BELOW } from '../../core/kernel/drivers/rate-limit/leasing';
import { describeRedis, kinds, makeDrivers, sleep, useDrivers, waitFor } from './support';

describe.each(kinds())('rate limiter (%s)', (kind) => {
  const drivers = useDrivers(kind, 'rl');

  it('allows up to the limit, then refuses with a retry time', async () => {
    const policy = { points: 3, durationSeconds: 60 };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await drivers().rateLimiter.consume('tenant:a', policy));
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    for (const r of results) {
      expect(r.limit).toBe(3);
      expect(r.resetSeconds).toBeGreaterThan(58);
      expect(r.resetSeconds).toBeLessThanOrEqual(60);
      expect(Math.abs(r.resetAt.getTime() - (Date.now() + r.resetSeconds * 1000))).toBeLessThan(2000);
    }
    expect(results[0].retryAfterSeconds).toBe(0);
    expect(results[3].retryAfterSeconds).toBeGreaterThan(58);
    expect(results[3].retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('starts a new window after the duration', async () => {
    const policy = { points: 1, durationSeconds: 1 };
    expect((await drivers().rateLimiter.consume('k', policy)).allowed).toBe(true);
    expect((await drivers().rateLimiter.consume('k', policy)).allowed).toBe(false);
    await sleep(1100);
    expect((await drivers().rateLimiter.consume('k', policy)).allowed).toBe(true);
  });

  it('keeps separate counters per key and per policy, and charges a cost', async () => {
    const small = { points: 2, durationSeconds: 60 };
    const large = { points: 10, durationSeconds: 60 };
    expect((await drivers().rateLimiter.consume('user:1', small, 2)).remaining).toBe(0);
    expect((await drivers().rateLimiter.consume('user:2', small)).remaining).toBe(1);
    expect((await drivers().rateLimiter.consume('user:1', large)).remaining).toBe(9);
    expect((await drivers().rateLimiter.consume('user:1', small)).allowed).toBe(false);
  });

  it('peeks without spending and resets a key', async () => {
    const policy = { points: 2, durationSeconds: 60 };
    expect(await drivers().rateLimiter.peek('ip:1', policy)).toMatchObject({ allowed: true, remaining: 2 });
    await drivers().rateLimiter.consume('ip:1', policy);
    await drivers().rateLimiter.consume('ip:1', policy);
    expect(await drivers().rateLimiter.peek('ip:1', policy)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await drivers().rateLimiter.peek('ip:1', policy)).toMatchObject({ allowed: false, remaining: 0 });
    await drivers().rateLimiter.reset('ip:1', policy);
    expect(await drivers().rateLimiter.consume('ip:1', policy)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('answers consumes issued together as if they came one by one, in order', async () => {
    const policy = { points: 3, durationSeconds: 60 };
    const together = await Promise.all(Array.from({ length: 5 }, () => drivers().rateLimiter.consume('burst', policy)));
    expect(together.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(together[4].retryAfterSeconds).toBeGreaterThan(58);
    const costly = await Promise.all([drivers().rateLimiter.consume('burst-cost', policy, 2), drivers().rateLimiter.consume('burst-cost', policy, 2)]);
    expect(costly.map((r) => r.allowed)).toEqual([true, false]);
    expect(await drivers().rateLimiter.peek('burst', policy)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('refunds points to the open window, atomically under parallel reservations, never below zero', async () => {
    const limiter = drivers().rateLimiter;
    const policy = { points: 5, durationSeconds: 60 };
    // Reserve-then-settle: 20 parallel reservations, 5 admitted; the refused give theirs back.
    const reserved = await Promise.all(Array.from({ length: 20 }, () => limiter.consume('reserve', policy)));
    expect(reserved.filter((r) => r.allowed)).toHaveLength(5);
    await Promise.all(reserved.filter((r) => !r.allowed).map(() => limiter.refund('reserve', policy)));
    expect(await limiter.peek('reserve', policy)).toMatchObject({ allowed: false, remaining: 0 });
    // Two of the admitted settle as not counting: two points come back, exactly.
    await Promise.all([limiter.refund('reserve', policy), limiter.refund('reserve', policy)]);
    expect(await limiter.peek('reserve', policy)).toMatchObject({ allowed: true, remaining: 2 });
    const again = await Promise.all(Array.from({ length: 6 }, () => limiter.consume('reserve', policy)));
    expect(again.filter((r) => r.allowed)).toHaveLength(2);
    // Never below zero: refunding more than was spent leaves a full budget, not more.
    await limiter.refund('reserve', policy, 100);
    expect(await limiter.peek('reserve', policy)).toMatchObject({ allowed: true, remaining: 5 });
    expect((await Promise.all(Array.from({ length: 6 }, () => limiter.consume('reserve', policy)))).filter((r) => r.allowed)).toHaveLength(5);
  });

  it('a refund with no window open does nothing: it opens no window and grants no extra points', async () => {
    const limiter = drivers().rateLimiter;
    const policy = { points: 2, durationSeconds: 1 };
    await limiter.refund('never-spent', policy, 3);
    expect(await limiter.peek('never-spent', policy)).toMatchObject({ allowed: true, remaining: 2 });
    expect((await Promise.all([1, 2, 3].map(() => limiter.consume('never-spent', policy)))).map((r) => r.allowed)).toEqual([true, true, false]);
    // After the window closes, a late refund does not carry into the next one.
    await sleep(1100);
    await limiter.refund('never-spent', policy);
    expect((await Promise.all([1, 2, 3].map(() => limiter.consume('never-spent', policy)))).map((r) => r.allowed)).toEqual([true, true, false]);
  });

  it('rejects a malformed policy', async () => {
    await expect(drivers().rateLimiter.consume('k', { points: 0, durationSeconds: 60 })).rejects.toThrow(/points/);
    await expect(drivers().rateLimiter.consume('k', { points: 5, durationSeconds: 0.5 })).rejects.toThrow(/durationSeconds/);
  });
});

describe('DESIGN Bus: the memory driver counts synchronously, on the same counters', () => {
  const drivers = useDrivers('memory', 'rl-sync');

  it('consumeSync answers without a promise and shares its windows with consume, peek and reset', async () => {
    const limiter = drivers().rateLimiter;
    const policy = { points: 2, durationSeconds: 60 };
    const first = limiter.consumeSync!('bus:t:edge:http:a.b', policy);
    expect(first).toMatchObject({ allowed: true, remaining: 1, limit: 2, retryAfterSeconds: 0 });
    expect(await limiter.consume('bus:t:edge:http:a.b', policy)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = limiter.consumeSync!('bus:t:edge:http:a.b', policy);
    expect(refused?.allowed).toBe(false);
    expect(refused?.retryAfterSeconds).toBeGreaterThan(58);
    expect(await limiter.peek('bus:t:edge:http:a.b', policy)).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.reset('bus:t:edge:http:a.b', policy);
    expect(limiter.consumeSync!('bus:t:edge:http:a.b', policy)).toMatchObject({ allowed: true, remaining: 1 });
    expect(() => limiter.consumeSync!('k', { points: 1.5, durationSeconds: 60 })).toThrow(/points/);
  });
});


/** Spends the way the bus does: from this node's lease when it covers the call, else a round trip. */
function spend(limiter: RateLimiter, key: string, policy: RateLimitPolicy): RateLimitResult | Promise<RateLimitResult> {
  return limiter.consumeSync?.(key, policy) ?? limiter.consume(key, policy);
}

/** Lets pending I/O (a background lease top-up) land between calls. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describeRedis('DESIGN Drivers, issue 3: Redis leases points to nodes far from the limit and stays exact near it', () => {
  const drivers = useDrivers('redis', 'rl-lease');
  let other: ReturnType<typeof makeDrivers>;
  // Two driver instances are two nodes: a is this one, b the other.
  const a = () => drivers().rateLimiter;
  const b = () => other.rateLimiter;
  beforeAll(() => {
    other = makeDrivers('redis', drivers().prefix);
  });
  afterAll(() => other.close());

  it('serves calls from a lease without a promise, the leased points counted on the shared counter at once', async () => {
    const policy = { points: 1000, durationSeconds: 60 };
    expect(a().consumeSync!('lease', policy)).toBeUndefined(); // nothing leased yet: the server must answer
    expect(await a().consume('lease', policy)).toMatchObject({ allowed: true, remaining: 999 });
    // One round trip spent the call and leased MAX_LEASE more: the other node sees them as spent.
    expect(await b().peek('lease', policy)).toMatchObject({ remaining: 1000 - 1 - MAX_LEASE });
    for (let i = 1; i <= 10; i++) {
      const served = a().consumeSync!('lease', policy);
      expect(served).toMatchObject({ allowed: true, limit: 1000, remaining: 999 - i, retryAfterSeconds: 0 });
      expect(served!.resetSeconds).toBeGreaterThan(58);
    }
    expect(await b().peek('lease', policy)).toMatchObject({ remaining: 1000 - 1 - MAX_LEASE }); // no round trip
    // Below REFILL_BELOW left, one background round trip tops the lease up to MAX_LEASE again.
    for (let i = 11; i <= 20; i++) expect(a().consumeSync!('lease', policy)).toMatchObject({ allowed: true, remaining: 999 - i });
    const held = MAX_LEASE - 20;
    await waitFor(async () => (await b().peek('lease', policy)).remaining === 1000 - 1 - MAX_LEASE - (MAX_LEASE - held), 'the lease top-up');
    expect(a().consumeSync!('lease', policy)).toMatchObject({ allowed: true, remaining: 999 - 21 });
    // This node's own peek counts what it holds as not spent yet.
    expect(await a().peek('lease', policy)).toMatchObject({ allowed: true, remaining: 999 - 21 });
    expect(() => a().consumeSync!('lease', { points: 0, durationSeconds: 60 })).toThrow(/points/);
  });

  it('counts X-RateLimit-Remaining down by one per call on a node alone, across lease top-ups', async () => {
    const policy = { points: 500, durationSeconds: 60 };
    const remaining: number[] = [];
    for (let i = 0; i < 300; i++) {
      remaining.push((await spend(a(), 'countdown', policy)).remaining);
      if (i % 3 === 0) await turn();
    }
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => 499 - i));
  });

  it('bursts on two nodes never pass the limit together, and every point of the window is admitted by one of them', async () => {
    const policy = { points: 1000, durationSeconds: 60 };
    const admitted = { a: 0, b: 0 };
    let answeredSync = 0;
    // Each node runs four workers mixing bursts (many calls in one tick) and lone calls; a worker stops at its first refusal.
    const worker = async (node: 'a' | 'b', seed: number) => {
      const limiter = node === 'a' ? a() : b();
      for (let round = 0; ; round++) {
        const size = (round * 7 + seed) % 5 === 0 ? 1 + ((round + seed) % 40) : 1;
        const calls = Array.from({ length: size }, () => spend(limiter, 'two-nodes', policy));
        answeredSync += calls.filter((c) => !(c instanceof Promise)).length;
        const results = await Promise.all(calls);
        admitted[node] += results.filter((r) => r.allowed).length;
        if (results.some((r) => !r.allowed)) return;
        await turn();
      }
    };
    await Promise.all([1, 2, 3, 4].flatMap((seed) => [worker('a', seed), worker('b', seed * 3)]));
    expect(admitted.a + admitted.b).toBe(1000);
    expect(admitted.a).toBeGreaterThan(0);
    expect(admitted.b).toBeGreaterThan(0);
    // Leases were in play: calls were answered without waiting for Redis.
    expect(answeredSync).toBeGreaterThan(MAX_LEASE);
    expect(await b().peek('two-nodes', policy)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('falls back to exact consumption near the limit: one round trip per call, each node seeing the other spend', async () => {
    const policy = { points: 100, durationSeconds: 60 };
    // 40 points remain, fewer than LEASE_FLOOR: no node gets a lease.
    expect(40).toBeLessThan(LEASE_FLOOR);
    expect(await b().consume('near', policy, 60)).toMatchObject({ allowed: true, remaining: 40 });
    const seen: Array<[boolean, number]> = [];
    for (let i = 0; i < 44; i++) {
      const node = i % 2 === 0 ? a() : b();
      expect(node.consumeSync!('near', policy)).toBeUndefined();
      const r = await node.consume('near', policy);
      seen.push([r.allowed, r.remaining]);
    }
    expect(seen).toEqual([...Array.from({ length: 40 }, (_, i): [boolean, number] => [true, 39 - i]), [false, 0], [false, 0], [false, 0], [false, 0]]);
  });

  it('refuses a node early only while another holds leased points, which that node still admits: the window ends at the limit', async () => {
    const policy = { points: 200, durationSeconds: 60 };
    expect(await a().consume('early', policy)).toMatchObject({ allowed: true, remaining: 199 });
    // a now holds MAX_LEASE points; b spends everything else and is refused while a still holds them.
    expect(await b().consume('early', policy, 200 - 1 - MAX_LEASE)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await b().consume('early', policy)).toMatchObject({ allowed: false, remaining: 0 });
    // a spends them without asking Redis; its X-RateLimit-Remaining knows b's spend only after its
    // next round trip (the top-up, declined now, once fewer than REFILL_BELOW are left).
    const first = Array.from({ length: MAX_LEASE - REFILL_BELOW + 1 }, () => a().consumeSync!('early', policy));
    expect(first.map((r) => r?.allowed)).toEqual(Array(first.length).fill(true));
    expect(first.at(-1)).toMatchObject({ remaining: 200 - 1 - MAX_LEASE + (REFILL_BELOW - 1) });
    await sleep(50);
    const rest = Array.from({ length: REFILL_BELOW - 1 }, () => a().consumeSync!('early', policy));
    // Now a shows exactly what it can still admit: 14, 13, … 0.
    expect(rest.map((r) => [r?.allowed, r?.remaining])).toEqual(rest.map((_, i) => [true, REFILL_BELOW - 2 - i]));
    expect(await spend(a(), 'early', policy)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await spend(b(), 'early', policy)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('lets a lease lapse with its window: the next window starts afresh on every node', async () => {
    const policy = { points: 100, durationSeconds: 1 };
    expect(await a().consume('window', policy)).toMatchObject({ allowed: true, remaining: 99 });
    expect(a().consumeSync!('window', policy)).toMatchObject({ allowed: true, remaining: 98 });
    const leased = 100 - 1 - (await b().peek('window', policy)).remaining;
    expect(leased).toBeGreaterThan(0);
    await sleep(1100);
    expect(a().consumeSync!('window', policy)).toBeUndefined(); // what was left of the lease lapsed
    expect(await b().peek('window', policy)).toMatchObject({ allowed: true, remaining: 100 });
    expect(await a().consume('window', policy)).toMatchObject({ allowed: true, remaining: 99 });
    // The new window counts its own lease only, nothing carried over.
    expect(await b().peek('window', policy)).toMatchObject({ remaining: 100 - 1 - leased });
  });

  it('reset forgets the shared counter and this node\'s lease', async () => {
    const policy = { points: 1000, durationSeconds: 60 };
    await a().consume('reset', policy);
    expect(a().consumeSync!('reset', policy)).toBeDefined();
    await a().reset('reset', policy);
    expect(a().consumeSync!('reset', policy)).toBeUndefined();
    expect(await b().peek('reset', policy)).toMatchObject({ allowed: true, remaining: 1000 });
    expect(await b().consume('reset', policy)).toMatchObject({ allowed: true, remaining: 999 });
  });
});
