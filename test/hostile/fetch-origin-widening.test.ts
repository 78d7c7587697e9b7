/**
 * Hostile modules against fetch_origins.add (a module adds an origin to its tenant's host.fetch
 * list while serving a tenant admin): on its own (events, jobs, schedules: no user), for a user
 * without the right permission, for another tenant, past the cap, with things that are not origins,
 * and to reach what the outbound policy forbids anyway. Real platform, real sandbox.
 */
import path from 'node:path';
import { addFixtureModules, installVia } from '../bus/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { signUpBeta } from '../support/sign-up';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);
const someone = { id: 424242, email: 'x@acme.example', name: 'X', isSuperAdmin: false };

describe('DESIGN Host capabilities for modules: fetch_origins.add under attack', () => {
  let tp: TestPlatform;
  let acme: Awaited<ReturnType<TestPlatform['install']>>;
  let betaId: string;
  const origins = async (tenant: string, token: string) => ((await tp.api('/modules/fetch-origins', { token, tenant })).body.fetch_origins as Array<{ origin: string; module: string }>).map((g) => `${g.module} ${g.origin}`);
  const add = (tenantId: string, origin: string, who: { user: typeof someone | null; permissions?: string[] }) =>
    tp.platform.kernel.bus.call({ kind: 'core' }, 'widener.raw', { op: 'fetch_origins.add', input: { origin } }, { tenantId, user: who.user, permissions: new Set(who.permissions ?? []) });

  beforeAll(async () => {
    tp = await startTestPlatform({ PUBLIC_SIGNUP: 'true' });
    acme = await tp.install('acme');
    const signup = await signUpBeta(tp);
    betaId = signup.tenantId;
    await addFixtureModules(tp, ['widener'], fixture);
    await installVia(tp, acme.token, 'acme', 'widener');
    await installVia(tp, signup.token, 'beta', 'widener');
  }, 120_000);
  afterAll(() => tp?.close());

  test('system work (no user: events, jobs, schedules) cannot widen the list', async () => {
    await expect(add(acme.tenantId, 'https://evil.example', { user: null })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await origins('acme', acme.token)).toEqual([]);
  });

  test('a user without modules.manage or the module’s own <alias>.configure cannot, nor with another module’s configure', async () => {
    for (const permissions of [[], ['widener.view'], ['ai.configure'], ['modules.view']]) {
      await expect(add(acme.tenantId, 'https://evil.example', { user: someone, permissions })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await origins('acme', acme.token)).toEqual([]);
  });

  test('edge callers cannot call it directly: it is for module code', async () => {
    await expect(tp.platform.kernel.bus.call({ kind: 'edge', via: 'http' }, 'fetch_origins.add', { origin: 'https://evil.example' }, { tenantId: acme.tenantId, user: someone, permissions: new Set(['*']) })).rejects.toMatchObject({ status: 403 });
  });

  test('with the admin’s permission it grants the origin to the calling module in that tenant only, reduced to scheme, host and port, once', async () => {
    expect(await add(acme.tenantId, 'https://user:pw@API.Vendor.example:8443/v1/chat?x=1', { user: someone, permissions: ['widener.configure'] })).toEqual({ origin: 'https://api.vendor.example:8443', module: 'widener', added: true });
    expect(await add(acme.tenantId, 'https://api.vendor.example:8443', { user: someone, permissions: ['modules.manage'] })).toEqual({ origin: 'https://api.vendor.example:8443', module: 'widener', added: false });
    expect(await origins('acme', acme.token)).toEqual(['widener https://api.vendor.example:8443']);
    const bea = await tp.api('/auth/login', { tenant: 'beta', body: { email: 'bea@beta.example', password: 'bea-password-77' } });
    expect(await origins('beta', bea.body.token)).toEqual([]);
    expect(betaId).not.toBe(acme.tenantId);
  });

  test('what is not an http(s) origin is refused', async () => {
    for (const origin of ['file:///etc/passwd', 'javascript:alert(1)', 'gopher://x.example', 'not a url', '', 'data:text/plain,x']) {
      await expect(add(acme.tenantId, origin, { user: someone, permissions: ['widener.configure'] })).rejects.toMatchObject({ status: 422 });
    }
  });

  test('an added origin does not get past the outbound policy: metadata and private addresses stay refused', async () => {
    await add(acme.tenantId, 'http://169.254.169.254', { user: someone, permissions: ['widener.configure'] });
    await add(acme.tenantId, 'http://127.0.0.1:9', { user: someone, permissions: ['widener.configure'] });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:9/']) {
      await expect(tp.platform.kernel.bus.call({ kind: 'core' }, 'widener.fetch', { url }, { tenantId: acme.tenantId, user: null })).rejects.toMatchObject({ code: 'FETCH_DENIED' });
    }
  });

  test('resource exhaustion: concurrent adds stop at the cap of 50, without duplicates', async () => {
    const many = Array.from({ length: 70 }, (_, i) => `https://v${i}.vendor.example`);
    const results = await Promise.allSettled([...many, ...many.slice(0, 10)].map((o) => add(acme.tenantId, o, { user: someone, permissions: ['widener.configure'] })));
    const list = await origins('acme', acme.token);
    expect(list).toHaveLength(50);
    expect(new Set(list).size).toBe(50);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.status === 422)).toBe(true);
  });
});
