import { newTokenString } from '../../core/kernel/auth/token-format';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

/** A bearer string of the token format that no token has. */
const madeUpToken = newTokenString;

describe('DESIGN Drivers: rate-limited routes send X-RateLimit-* and 429 past the limit', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    tp = await startTestPlatform({ API_RATE_LIMIT: '4/60' });
    owner = await tp.install('acme');
  });
  afterAll(() => tp.close());

  test('headers count down, then 429 with retry_after and Retry-After', async () => {
    const seen: Array<{ status: number; remaining: string | null }> = [];
    for (let i = 0; i < 5; i++) {
      const res = await tp.api('/auth/me', { token: owner.token, tenant: 'acme' });
      seen.push({ status: res.status, remaining: res.headers.get('x-ratelimit-remaining') });
      expect(res.headers.get('x-ratelimit-limit')).toBe('4');
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      if (res.status === 429) {
        expect(res.body).toEqual({ message: 'Too Many Requests.', retry_after: expect.any(Number) });
        expect(res.body.retry_after).toBeGreaterThanOrEqual(1);
        expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
      }
    }
    // install used one point of the token's budget? No: install had no token, so it counted for the address.
    expect(seen).toEqual([
      { status: 200, remaining: '3' },
      { status: 200, remaining: '2' },
      { status: 200, remaining: '1' },
      { status: 200, remaining: '0' },
      { status: 429, remaining: '0' },
    ]);
  });

  test('another client (no token, its own address budget) is not affected', async () => {
    const res = await tp.api('/install/status');
    expect(res.status).toBe(200);
  });

  test('a client rotating made-up bearer strings spends its address budget; only a token that authenticates has its own', async () => {
    // The loopback test client may name its address in X-Forwarded-For (TRUST_PROXY's default).
    const from = (ip: string, token?: string) => tp.api('/auth/me', { tenant: 'acme', token, headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (const token of [madeUpToken(), madeUpToken(), 'not-even-a-token', madeUpToken(), madeUpToken(), madeUpToken()]) statuses.push((await from('198.51.100.20', token)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await from('198.51.100.20')).status).toBe(429);
    // A real token, used from that same address, spends its own budget.
    const login = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'ada@acme.example', password: 'correct-horse-battery' }, headers: { 'x-forwarded-for': '198.51.100.21' } });
    expect(login.status).toBe(200);
    expect((await from('198.51.100.20', login.body.token)).status).toBe(200);
  });

  test('an IPv6 client spends one budget for its whole /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await tp.api('/install/status', { headers: { 'x-forwarded-for': `2001:db8:9:9::${i}` } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await tp.api('/install/status', { headers: { 'x-forwarded-for': '2001:db8:9:a::1' } })).status).toBe(200);
  });
});
