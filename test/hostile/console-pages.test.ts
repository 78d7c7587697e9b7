/**
 * Attacks on the modules' console pages as the platform serves them (docs/decisions/console-pages.md;
 * core/console/page-routes.ts): the list and a page's bundle answer only in the tenant that installed
 * the module and only to users holding the page's permission; another tenant's token, or a tenant
 * without the module, gets nothing; the frame the bundle runs in is a sandboxed document of no origin.
 * The browser side (a page asking for what is not its module's) is console-pages-browser.test.ts.
 */
import { MODULE_PAGE_CSP } from '../../core/kernel/http/api-answer-headers';
import { fixture, installLocal } from '../console/support';
import { tenantIn } from '../rings/support';
import { addMember, httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';

describe('hostile: console pages are served only where installed and permitted (docs/decisions/console-pages.md)', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let viewer: string;
  let other: { token: string; alias: string };

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    const who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, fixture('pagekit'), 'pagekit');
    expect((await tp.api('/roles', { ...who, body: { name: 'pagekit-viewer', permissions: ['pagekit.view'] } })).status).toBe(201);
    ({ token: viewer } = await addMember(tp, owner.token, 'acme', { email: 'vera@acme.example', name: 'Vera', role: 'pagekit-viewer' }));
    other = await tenantIn(tp, { token: owner.token, alias: 'acme' }, 'mallory', 'stable');
  }, 180_000);
  afterAll(() => tp?.close());

  test('the owner sees both pages, each with its module\'s own authenticated routes and channels only', async () => {
    const res = await tp.api('/console-pages', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        module: 'pagekit', path: 'hello', label: 'Pagekit hello', icon: 'zap',
        routes: [{ method: 'GET', path: '/pagekit/hello' }, { method: 'POST', path: '/pagekit/ping' }, { method: 'GET', path: '/api/v1/members' }],
        channels: ['private-tenant.{tenant_id}.pagekit'],
      },
      expect.objectContaining({ module: 'pagekit', path: 'probe' }),
    ]);
  });

  test('a member without the probe page\'s permission neither sees it nor gets its bundle (403)', async () => {
    const list = await tp.api('/console-pages', { token: viewer, tenant: 'acme' });
    expect(list.body.data.map((p: { path: string }) => p.path)).toEqual(['hello']);
    const probe = await tp.api('/console-pages/pagekit/probe/bundle', { token: viewer, tenant: 'acme' });
    expect(probe.status).toBe(403);
    expect(probe.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'pagekit.probe' } });
    const hello = await tp.api('/console-pages/pagekit/hello/bundle', { token: viewer, tenant: 'acme' });
    expect(hello.status).toBe(200);
    expect(hello.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(String(hello.body)).toContain('Pagekit in');
    // Opened as a document it runs nothing: the API's own sandbox policy.
    expect(hello.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  test('without a token, with another tenant\'s token, or in a tenant without the module: nothing', async () => {
    expect((await tp.api('/console-pages', { tenant: 'acme' })).status).toBe(401);
    expect((await tp.api('/console-pages', { token: owner.token })).status).toBe(400);
    expect((await tp.api('/console-pages/pagekit/hello/bundle', { tenant: 'acme' })).status).toBe(401);
    expect((await tp.api('/console-pages/pagekit/hello/bundle', { token: other.token, tenant: 'acme' })).status).toBe(401);
    expect((await tp.api('/console-pages', { token: other.token, tenant: other.alias })).body.data).toEqual([]);
    const missing = await tp.api('/console-pages/pagekit/hello/bundle', { token: other.token, tenant: other.alias });
    expect(missing.status).toBe(404);
    expect((await tp.api('/console-pages/pagekit/nope/bundle', { token: owner.token, tenant: 'acme' })).status).toBe(404);
  });

  test('the page frame is a sandboxed document of no origin that loads and sends nothing, and sets no cookie', async () => {
    const res = await httpRequest(`${tp.url}/console/page-frame`, 'GET', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(MODULE_PAGE_CSP);
    expect(res.headers.get('set-cookie')).toBeNull();
    // It runs only what its parent hands it.
    expect(res.text).toContain('e.source !== parent');
  });
});
