/**
 * Hostile modules against module secrets: reading across tenants and modules, naming what the
 * wrapper would not (another namespace, odd names), and exhausting the store (huge values, too
 * many secrets). Real platform, real sandboxes (fixtures: test/secrets/fixtures).
 */
import { validateManifest } from '../../sdk/manifest';
import { addFixtureModules, installVia } from '../bus/support';
import { secretFixture } from '../secrets/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { signUpBeta } from '../support/sign-up';

const ACME_KEY = 'acme-only-api-key-7d1c0a99';

describe('DESIGN Host capabilities for modules: module secrets under attack', () => {
  let tp: TestPlatform;
  let acme: Awaited<ReturnType<TestPlatform['install']>>;
  let betaTenantId: string;
  const call = (tenantId: string, op: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
  const raw = (module: 'vault' | 'snoop', op: string, input: unknown, tenantId = acme.tenantId) => call(tenantId, `${module}.raw`, { op, input });

  beforeAll(async () => {
    tp = await startTestPlatform({ PUBLIC_SIGNUP: 'true' });
    acme = await tp.install('acme');
    const signup = await signUpBeta(tp);
    betaTenantId = signup.tenantId;
    await addFixtureModules(tp, ['vault', 'snoop'], secretFixture);
    for (const alias of ['vault', 'snoop']) await installVia(tp, acme.token, 'acme', alias);
    await installVia(tp, signup.token, 'beta', 'vault');
    await call(acme.tenantId, 'vault.set', { name: 'api_key', value: ACME_KEY });
  }, 120_000);
  afterAll(() => tp?.close());

  test('cross-tenant: the same module in another tenant reads its own (unset) secret, never the first tenant’s', async () => {
    expect(await call(betaTenantId, 'vault.get', { name: 'api_key' })).toEqual({ value: null });
    expect(await call(betaTenantId, 'vault.list', {})).toEqual({ secrets: [] });
    // A tenant admin of beta cannot reach acme's through the API either: the tenant is the token's.
    const beaLogin = await tp.api('/auth/login', { tenant: 'beta', body: { email: 'bea@beta.example', password: 'bea-password-77' } });
    expect((await tp.api('/modules/vault/secrets', { token: beaLogin.body.token, tenant: 'beta' })).body.secrets[0]).toMatchObject({ name: 'api_key', set: false });
    expect((await tp.api('/modules/vault/secrets', { token: beaLogin.body.token, tenant: 'acme' })).status).toBe(401); // beta's token is not acme's
  });

  test('cross-module: naming another module, tenant or key in the input is refused; the caller is the namespace', async () => {
    for (const extra of [{ module: 'vault' }, { tenant_id: acme.tenantId }, { alias: 'vault' }]) {
      await expect(raw('snoop', 'secrets.get', { name: 'api_key', ...extra })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await raw('snoop', 'secrets.get', { name: 'api_key' })).toEqual({ value: null });
    // Overwriting its own same-named secret leaves vault's untouched.
    await raw('snoop', 'secrets.set', { name: 'api_key', value: 'snoop-overwrite-attempt-1' });
    expect(await call(acme.tenantId, 'vault.get', { name: 'api_key' })).toEqual({ value: ACME_KEY });
    await expect(raw('snoop', 'secrets.delete', { name: 'webhook_secret' })).rejects.toMatchObject({ code: 'SECRET_NOT_DECLARED' });
  });

  test('odd names are refused before the store: traversal, case, spaces, unicode, NUL, too long, empty', async () => {
    for (const name of ['../api_key', 'API_KEY', 'api key', 'ключ', 'api_key\u0000', 'a'.repeat(65), '', '1key', 'api-key', 'api_key;drop']) {
      await expect(raw('vault', 'secrets.set', { name, value: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
      await expect(raw('vault', 'secrets.get', { name })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    for (const name of ['..%2Fapi_key', 'api_key%00', 'API_KEY', '%E2%80%AEapi_key']) {
      const put = await tp.api(`/modules/vault/secrets/${name}`, { token: acme.token, tenant: 'acme', method: 'PUT', body: { value: 'x' } });
      expect([put.status, put.body.code]).toEqual([404, 'SECRET_NOT_DECLARED']);
    }
    const bad = validateManifest({ name: 'bad', version: '1.0.0', compatibility: { platform: '^2.0.0' }, secrets: [{ name: '../x', description: 'd' }, { name: 'ok', description: 'd' }, { name: 'ok', description: 'd' }] });
    expect(bad.ok ? [] : bad.errors.map((e) => e.pointer)).toEqual(expect.arrayContaining(['/secrets/0/name', '/secrets/2/name']));
  });

  test('huge values: over 64 KB is refused (in characters by the schema, in UTF-8 bytes by the store), over the API too', async () => {
    await expect(raw('vault', 'secrets.set', { name: 'webhook_secret', value: 'x'.repeat(64 * 1024 + 1) })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // 30,000 characters of 3 bytes each: within the character count, past the bytes.
    await expect(raw('vault', 'secrets.set', { name: 'webhook_secret', value: '€'.repeat(30_000) })).rejects.toMatchObject({ code: 'SECRET_TOO_LARGE', status: 413 });
    expect(await raw('vault', 'secrets.set', { name: 'webhook_secret', value: 'y'.repeat(64 * 1024) })).toMatchObject({ hint: 'yyyy' });
    const put = await tp.api('/modules/vault/secrets/webhook_secret', { token: acme.token, tenant: 'acme', method: 'PUT', body: { value: 'z'.repeat(70_000) } });
    expect([put.status, put.body.code]).toEqual([413, 'SECRET_TOO_LARGE']);
  });

  test('too many: at most 100 secrets per module and tenant, counting names an older version declared', async () => {
    const { ModuleSecret } = tp.platform.central.models;
    await ModuleSecret.destroy({ where: { tenant_id: acme.tenantId, module: 'vault', name: 'webhook_secret' } });
    const stale = Array.from({ length: 99 }, (_v, i) => ({ tenant_id: acme.tenantId, module: 'vault', name: `old_${i}`, ciphertext: 'x', key_id: 'x', hint: null }));
    await ModuleSecret.bulkCreate(stale);
    await expect(raw('vault', 'secrets.set', { name: 'webhook_secret', value: 'one-too-many-secret' })).rejects.toMatchObject({ code: 'SECRET_LIMIT' });
    // Replacing an existing one is not a new one.
    expect(await raw('vault', 'secrets.set', { name: 'api_key', value: ACME_KEY })).toMatchObject({ name: 'api_key' });
    // Another tenant's count is its own.
    expect(await call(betaTenantId, 'vault.set', { name: 'webhook_secret', value: 'beta-webhook-secret-1' })).toMatchObject({ name: 'webhook_secret' });
    // The manifest cannot declare more than 100 either.
    const many = validateManifest({ name: 'many', version: '1.0.0', compatibility: { platform: '^2.0.0' }, secrets: Array.from({ length: 101 }, (_v, i) => ({ name: `s${i}`, description: 'd' })) });
    expect(many.ok).toBe(false);
  });
});
