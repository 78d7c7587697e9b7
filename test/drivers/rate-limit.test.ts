/** The rate limiter contract, run against rate-limiter-flexible's memory and Redis limiters. */
import { kinds, sleep, useDrivers } from './support';

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

  it('rejects a malformed policy', async () => {
    await expect(drivers().rateLimiter.consume('k', { points: 0, durationSeconds: 60 })).rejects.toThrow(/points/);
    await expect(drivers().rateLimiter.consume('k', { points: 5, durationSeconds: 0.5 })).rejects.toThrow(/durationSeconds/);
  });
});
