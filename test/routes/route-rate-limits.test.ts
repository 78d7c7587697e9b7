/**
 * Spec 3, Limits (reseller read endpoints 100 a minute, writes 30 a minute, per user) as a general
 * host capability: an authenticated module route declaring `rate_limit` (points/seconds) is limited
 * per signed-in user in the tenant, with X-RateLimit-* headers; the module's routes declaring the
 * same limit share one counter; past it, 429 with Retry-After in the route's error shape. Fixtures
 * test/routes/fixtures/limited and limited-twin, real HTTP on a real platform.
 */
import { limitedPlatform, type LimitedPlatform } from './limited-platform';

let l: LimitedPlatform;

beforeAll(async () => {
  l = await limitedPlatform();
}, 240_000);
afterAll(() => l?.tp.close());

describe('spec 3, Limits: per-user limits on authenticated module routes (http.routes[].rate_limit)', () => {
  test('routes declaring the same limit share one budget per user; the next request is 429 in the route\'s error shape, with headers', async () => {
    const answers = [];
    for (const p of ['/limited/read', '/limited/other-read', '/limited/read']) answers.push(await l.call(l.acme, 'GET', p));
    expect(answers.map((a) => [a.status, a.headers.get('x-ratelimit-limit'), a.headers.get('x-ratelimit-remaining')])).toEqual([
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
    ]);
    expect(Number(answers[0].headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    const over = await l.call(l.acme, 'GET', '/limited/other-read');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body).toEqual({ error: 'Too Many Requests.', code: 'RATE_LIMITED', details: expect.objectContaining({ retry_after: expect.any(Number) }) });
  });

  test('another declared limit is another budget; a route without rate_limit has only the platform-wide limit', async () => {
    expect((await l.call(l.acme, 'POST', '/limited/write')).status).toBe(201);
    expect((await l.call(l.acme, 'POST', '/limited/write')).status).toBe(201);
    expect((await l.call(l.acme, 'POST', '/limited/write')).status).toBe(429);
    for (let i = 0; i < 10; i++) {
      const free = await l.call(l.acme, 'GET', '/limited/free');
      expect(free.status).toBe(200);
      expect(free.headers.get('x-ratelimit-limit')).not.toMatch(/^[23]$/);
    }
  });

  test('each user has their own budget: another member of the tenant is not limited by the first', async () => {
    expect((await l.call(l.acme, 'GET', '/limited/read')).status).toBe(429);
    const other = await l.call(l.acmeMember, 'GET', '/limited/read');
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
