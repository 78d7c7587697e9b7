import { startTestPlatform, type TestPlatform } from '../support/test-platform';

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
});
