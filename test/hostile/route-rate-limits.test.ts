/**
 * Hostile callers against per-user limits on authenticated module routes (spec 3, Limits;
 * core/kernel/modules/module-routes.ts): a user flooding one module must not spend another module's
 * budget, another user's, or another tenant's; anonymous floods spend no one's; a super admin
 * switching tenants is counted in the tenant acted in. Fixtures test/routes/fixtures/limited and
 * limited-twin declare the same limits.
 */
import { limitedPlatform, type LimitedPlatform } from '../routes/limited-platform';

let l: LimitedPlatform;

beforeAll(async () => {
  l = await limitedPlatform();
}, 240_000);
afterAll(() => l?.tp.close());

const exhaust = async (who: Parameters<LimitedPlatform['call']>[0], p: string, headers: Record<string, string> = {}) => {
  let last = 0;
  for (let i = 0; i < 5; i++) last = (await l.call(who, 'GET', p, headers)).status;
  expect(last).toBe(429);
};

describe('hostile: resource exhaustion through declared route limits', () => {
  test("a flood of one module's routes leaves another module's identical limit untouched (cross-module)", async () => {
    await exhaust(l.acme, '/limited/read');
    const twin = await l.call(l.acme, 'GET', '/limited_twin/read');
    expect(twin.status).toBe(200);
    expect(twin.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test("one tenant's flood does not starve another tenant's users (cross-tenant)", async () => {
    await exhaust(l.acme, '/limited_twin/other-read');
    const globex = await l.call(l.globex, 'GET', '/limited_twin/read');
    expect(globex.status).toBe(200);
    expect(globex.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test('anonymous and forged requests are refused before any budget is spent', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await l.call({ token: 'forged.token.value', tenant: 'acme' }, 'GET', '/limited/other-read')).status).toBe(401);
      expect((await l.call({ token: l.globex.token, tenant: 'acme' }, 'GET', '/limited/other-read')).status).toBeGreaterThanOrEqual(401);
    }
    const member = await l.call(l.acmeMember, 'GET', '/limited/other-read');
    expect(member.status).toBe(200);
    expect(member.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  test('a super admin switching tenants is counted in the tenant acted in, and cannot reset a spent budget by switching back', async () => {
    const inGlobex = await l.call(l.acme, 'GET', '/limited/read', { 'x-effective-tenant': 'globex' });
    expect(inGlobex.status).toBe(200);
    expect(inGlobex.headers.get('x-ratelimit-remaining')).toBe('2');
    expect((await l.call(l.acme, 'GET', '/limited/read')).status).toBe(429);
  });
});
