/**
 * Hostile modules and tenants against module settings: reading or writing another module's
 * settings through the bus, another tenant's through the API, exhausting the store (the document is
 * capped at 64 KB, a secret at the module secrets' 64 KB), and fishing for a secret setting in any
 * answer. Real platform, real sandboxes (fixtures: test/module-settings/fixtures, test/secrets/fixtures).
 */
import { addFixtureModules, installVia } from '../bus/support';
import { settingsFixture } from '../module-settings/support';
import { secretFixture } from '../secrets/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { signUpBeta } from '../support/sign-up';

const SECRET = 'tuner-acme-secret-Kx93';

describe('module settings under attack', () => {
  let tp: TestPlatform;
  let acme: Awaited<ReturnType<TestPlatform['install']>>;
  let beta: Awaited<ReturnType<typeof signUpBeta>>;
  const call = (tenantId: string, op: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
  const raw = (module: 'tuner' | 'peek' | 'snoop', op: string, input: unknown, tenantId = acme.tenantId) => call(tenantId, `${module}.raw`, { op, input });
  const admin = (method = 'GET', body?: unknown) => ({ token: acme.token, tenant: 'acme', method, body });

  beforeAll(async () => {
    tp = await startTestPlatform({ PUBLIC_SIGNUP: 'true' });
    acme = await tp.install('acme');
    beta = await signUpBeta(tp);
    await addFixtureModules(tp, ['tuner', 'peek'], settingsFixture);
    await addFixtureModules(tp, ['snoop'], secretFixture);
    for (const alias of ['tuner', 'peek', 'snoop']) await installVia(tp, acme.token, 'acme', alias);
    await installVia(tp, beta.token, 'beta', 'tuner');
    const put = await tp.api('/modules/tuner/settings', admin('PUT', { values: { sender: 'ACME', api_key: SECRET } }));
    expect(put.status).toBe(200);
  }, 120_000);
  afterAll(() => tp?.close());

  test('cross-module: a module reads and writes only its own; naming another module or tenant in the input is refused', async () => {
    expect(await raw('peek', 'settings.get', {})).toEqual({ values: { api_key: null, sender: null, constructor: null }, stored: [] });
    for (const extra of [{ module: 'tuner' }, { alias: 'tuner' }, { tenant_id: beta.tenantId }]) {
      await expect(raw('peek', 'settings.get', extra)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(raw('peek', 'settings.set', { values: { sender: 'x' }, ...extra })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    // Writing its own same-named settings leaves tuner's untouched.
    await raw('peek', 'settings.set', { values: { api_key: 'peek-overwrite-attempt', sender: 'PEEK' } });
    expect(await call(acme.tenantId, 'tuner.get', {})).toMatchObject({ values: { sender: 'ACME', api_key: SECRET } });
    // A module declaring no settings has none to reach, and a core caller gets none in clear.
    await expect(raw('snoop', 'settings.get', {})).rejects.toMatchObject({ code: 'SETTINGS_NOT_DECLARED', status: 404 });
    await expect(call(acme.tenantId, 'settings.get', {})).rejects.toMatchObject({ code: 'SETTINGS_MODULE_ONLY', status: 403 });
    // Nor through its secrets: "settings:api_key" is no secret name a module may pass.
    await expect(raw('peek', 'secrets.get', { name: 'settings:api_key' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('cross-tenant: the same module in another tenant sees its own (unset) settings; a tenant’s token is refused on another tenant', async () => {
    expect(await call(beta.tenantId, 'tuner.get', {})).toMatchObject({ values: { sender: null, api_key: null }, stored: [] });
    const mine = await tp.api('/modules/tuner/settings', { token: beta.token, tenant: 'beta' });
    expect(mine.body.values).toMatchObject({ sender: null, api_key: { set: false } });
    for (const method of ['GET', 'PUT', 'PATCH']) {
      const res = await tp.api('/modules/tuner/settings', { token: beta.token, tenant: 'acme', method, body: method === 'GET' ? undefined : { values: { sender: 'EVIL' } } });
      expect(res.status).toBe(401);
    }
    expect(await call(acme.tenantId, 'tuner.get', {})).toMatchObject({ values: { sender: 'ACME' } });
  });

  test('oversized: the stored document is capped at 64 KB (413), a secret at 64 KB; odd keys are refused', async () => {
    const big = 'x'.repeat(64 * 1024);
    const put = await tp.api('/modules/tuner/settings', admin('PATCH', { values: { note: big } }));
    expect([put.status, put.body.code]).toEqual([413, 'SETTINGS_TOO_LARGE']);
    await expect(raw('tuner', 'settings.set', { values: { note: big } })).rejects.toMatchObject({ code: 'SETTINGS_TOO_LARGE', status: 413 });
    // Just under the cap is stored.
    expect((await tp.api('/modules/tuner/settings', admin('PATCH', { values: { note: 'y'.repeat(60 * 1024) } }))).status).toBe(200);
    await expect(raw('tuner', 'settings.set', { values: { api_key: 'k'.repeat(64 * 1024 + 1) } })).rejects.toMatchObject({ code: 'SECRET_TOO_LARGE', status: 413 });
    // A declared setting named like an Object.prototype member is a setting like any other.
    await raw('peek', 'settings.set', { values: { constructor: 'plain' } });
    expect(await raw('peek', 'settings.get', {})).toMatchObject({ values: { constructor: 'plain' }, stored: expect.arrayContaining(['constructor']) });
    // Keys that are not declared settings, prototype names included, never reach the store.
    const odd = await tp.api('/modules/tuner/settings', { token: acme.token, tenant: 'acme', method: 'PATCH', headers: { 'content-type': 'application/json' }, rawBody: '{"values":{"__proto__":{"sender":"x"},"constructor":1,"../tuner":2}}' });
    expect([odd.status, Object.keys(odd.body.errors ?? {}).sort()]).toEqual([422, ['../tuner', '__proto__', 'constructor']]);
    expect(await call(acme.tenantId, 'tuner.get', {})).toMatchObject({ values: { sender: 'ACME' } });
  });

  test('a secret setting is in no answer: not the routes’, not another module’s, not an error’s, not the secrets listing', async () => {
    const answers = [
      await tp.api('/modules/tuner/settings', admin()),
      await tp.api('/modules/tuner/settings', admin('PATCH', { values: { sender: 'ACME' } })),
      await tp.api('/modules/tuner/settings', admin('PUT', { values: { sender: 'ACME', retries: 99 } })),
      await tp.api('/modules/tuner/secrets', admin()),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 422, 200]);
    expect(answers[0].body.values.api_key).toEqual({ set: true });
    expect(answers[3].body.secrets).toEqual([]); // the secret setting is shown by /settings, not as a leftover secret
    const viaPeek = await raw('peek', 'settings.get', {}).catch((err: unknown) => err);
    for (const answer of [...answers.map((a) => a.body), viaPeek]) expect(JSON.stringify(answer)).not.toContain(SECRET);
  });
});
