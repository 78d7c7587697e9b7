/**
 * Attacks on the web console (core/console):
 *  - its page names the tenant from the Host header: markup smuggled into the subdomain comes back
 *    escaped, and the page sets no cookie (the API is bearer-only);
 * and on its first-run seed (POST /platform/seed, core/console/seed-route.ts), which publishes and
 * promotes modules as its caller:
 *  - outside development it does not exist, whatever the token (a production registry is filled by
 *    publishers, never by a button);
 *  - without a token, or with a tenant admin's (of the install's own tenant, or of another tenant), it
 *    is refused, and the registry stays as it was.
 */
import { addMember, httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { tenantIn } from '../rings/support';

describe('hostile: the web console and its seed route', () => {
  let dev: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    dev = await startTestPlatform({ NODE_ENV: 'development' });
    owner = await dev.install('acme');
  }, 120_000);
  afterAll(() => dev?.close());

  const registry = async () => (await dev.api('/registry/modules', { token: owner.token })).body.modules;

  test('markup in the Host header\'s subdomain is escaped in the page; no cookie is set', async () => {
    const evil = '"><img src=x onerror=alert(1)>';
    const res = await httpRequest(`${dev.url}/m/orders/list`, 'GET', { host: `${evil}.${dev.config.rootDomain}` });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<img');
    expect(res.text).toContain('data-tenant="&#34;&#62;&#60;img src=x onerror=alert(1)&#62;"');
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  test('without a token: 401, nothing published', async () => {
    const res = await dev.api('/platform/seed', { tenant: 'acme', body: {} });
    expect(res.status).toBe(401);
    expect(await registry()).toEqual([]);
  });

  test('a tenant admin of the install\'s tenant, or of another tenant, is no super admin: 403, nothing published', async () => {
    const admin = await addMember(dev, owner.token, 'acme', { email: 'eve@acme.example', name: 'Eve', role: 'admin' });
    const asAdmin = await dev.api('/platform/seed', { token: admin.token, tenant: 'acme', body: {} });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body.message).toContain('super admin');
    const shop = await tenantIn(dev, { token: owner.token, alias: 'acme' }, 'mallory', 'stable');
    expect((await dev.api('/platform/seed', { token: shop.token, tenant: shop.alias, body: {} })).status).toBe(403);
    expect(await registry()).toEqual([]);
  });

  test('outside development the route does not exist, even for the super admin', async () => {
    const test = await startTestPlatform();
    try {
      const boss = await test.install('acme');
      const res = await test.api('/platform/seed', { token: boss.token, tenant: 'acme', body: {} });
      expect(res.status).toBe(404);
      expect(res.body.message).toContain('mandi platform seed');
      expect((await test.api('/registry/modules', { token: boss.token })).body.modules).toEqual([]);
    } finally {
      await test.close();
    }
  }, 120_000);
});
