/**
 * Module settings on a real platform with real sandboxes: a tenant admin reads the declared
 * settings with their defaults, replaces and merges them under the manifest's schema, and sees a
 * secret only as {set}; the module reads its values (its secret in clear) and writes them through
 * the bus; no audit row carries a value.
 */
import { QueryTypes } from 'sequelize';
import { addFixtureModules, installVia } from '../bus/support';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { settingsFixture } from './support';

const API_KEY = 'vendor-api-key-Zq81x0';

describe('module settings: GET/PUT/PATCH /modules/{alias}/settings and settings.get/settings.set', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const admin = () => ({ token: owner.token, tenant: 'acme' });
  const asModule = (op: string, input: unknown = {}) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: owner.tenantId, user: null });

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['tuner', 'peek'], settingsFixture);
    await installVia(tp, owner.token, 'acme', 'tuner');
  }, 120_000);
  afterAll(() => tp?.close());

  test('GET: every declared setting, defaults filled in, null when neither stored nor defaulted, a secret as {set}', async () => {
    const res = await tp.api('/modules/tuner/settings', admin());
    expect(res).toMatchObject({ status: 200, body: { values: { sender: null, base_url: 'https://api.example.com', retries: 2, note: null, api_key: { set: false } }, updated_at: null } });
    expect(await asModule('tuner.get')).toEqual({ values: { sender: null, base_url: 'https://api.example.com', retries: 2, note: null, api_key: null }, stored: [] });
  });

  test('PUT validates against the schema: 422 with field errors, nothing stored', async () => {
    const bad = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PUT', body: { values: { sender: 'a-sender-far-too-long', retries: 9, base_url: 'http://plain', api_key: 'short', colour: 'red' } } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['api_key', 'base_url', 'colour', 'retries', 'sender']);
    const missing = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PUT', body: { values: { retries: 1 } } });
    expect([missing.status, missing.body.errors]).toEqual([422, { sender: ['The sender field is required.'] }]);
    const notObject = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PUT', body: { values: ['x'] } });
    expect([notObject.status, Object.keys(notObject.body.errors)]).toEqual([422, ['values']]);
    expect((await tp.api('/modules/tuner/settings', admin())).body.updated_at).toBeNull();
  });

  test('PUT replaces, PATCH merges, null removes; a secret is answered as {set} only and read in clear by the module', async () => {
    const put = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PUT', body: { values: { sender: 'ACME', retries: 4, note: 'hello', api_key: API_KEY } } });
    expect(put).toMatchObject({ status: 200, body: { values: { sender: 'ACME', base_url: 'https://api.example.com', retries: 4, note: 'hello', api_key: { set: true } }, updated_at: expect.any(String) } });
    expect(JSON.stringify(put.body)).not.toContain(API_KEY);

    const patch = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PATCH', body: { values: { retries: null, base_url: 'https://eu.example.com' } } });
    expect(patch.body.values).toEqual({ sender: 'ACME', base_url: 'https://eu.example.com', retries: 2, note: 'hello', api_key: { set: true } });

    // A replace drops what it leaves out, except the secret (no answer carries it, so no client could send it back).
    const replace = await tp.api('/modules/tuner/settings', { ...admin(), method: 'PUT', body: { values: { sender: 'ACME2' } } });
    expect(replace.body.values).toEqual({ sender: 'ACME2', base_url: 'https://api.example.com', retries: 2, note: null, api_key: { set: true } });
    expect(await asModule('tuner.get')).toEqual({ values: { sender: 'ACME2', base_url: 'https://api.example.com', retries: 2, note: null, api_key: API_KEY }, stored: ['sender', 'api_key'] });

    // The secret is a module secret under "settings:api_key", encrypted, and not listed among the declared secrets' leftovers.
    const { ModuleSecret } = tp.platform.central.models;
    const row = await ModuleSecret.findOne({ where: { tenant_id: owner.tenantId, module: 'tuner', name: 'settings:api_key' } });
    expect(row?.ciphertext).toBeDefined();
    expect(row?.ciphertext).not.toContain(API_KEY);
    const [doc] = await tp.platform.tenantDbs.query<{ values: unknown }>(owner.tenantId, 'SELECT "values" FROM module_settings WHERE module = $1', ['tuner']);
    expect(JSON.stringify(doc.values)).not.toContain(API_KEY);
  });

  test('the module writes its own through settings.set, validated the same way', async () => {
    expect(await asModule('tuner.set', { values: { note: 'from the module' } })).toEqual({ updated_at: expect.any(String) });
    expect((await tp.api('/modules/tuner/settings', admin())).body.values.note).toBe('from the module');
    await expect(asModule('tuner.set', { values: { retries: 'many' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
    await expect(asModule('tuner.set', { values: { sender: null } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: { errors: { sender: ['The sender field is required.'] } } });
    expect(await asModule('tuner.set', { values: { api_key: null } })).toMatchObject({ updated_at: expect.any(String) });
    expect((await tp.api('/modules/tuner/settings', admin())).body.values.api_key).toEqual({ set: false });
  });

  test('404 for a module not installed or declaring no settings; 403 without modules.settings.manage; 401 without a token', async () => {
    const notInstalled = await tp.api('/modules/peek/settings', admin());
    expect([notInstalled.status, notInstalled.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await tp.api('/modules/nosuch/settings', { ...admin(), method: 'PATCH', body: { values: {} } })).status).toBe(404);
    const member = await addMember(tp, owner.token, 'acme', { email: 'mo@acme.example', role: 'member' });
    const denied = await tp.api('/modules/tuner/settings', { token: member.token, tenant: 'acme' });
    expect([denied.status, denied.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await tp.api('/modules/tuner/settings', { tenant: 'acme' })).status).toBe(401);
  });

  test('writes are audited with the names changed, never a value', async () => {
    await tp.platform.kernel.audit.flush();
    const audit = await tp.platform.central.sequelize.query<{ action: string; row: string }>(
      `SELECT action, concat_ws(' ', actor_type, actor_id, action, target, status, details::text) AS row FROM audit_log WHERE target = 'module:tuner'`,
      { type: QueryTypes.SELECT },
    );
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['settings.replace', 'settings.update']));
    expect(audit.find((a) => a.action === 'settings.update')?.row).toContain('"base_url"');
    for (const value of [API_KEY, 'hello', 'eu.example.com']) expect(audit.filter((a) => a.row.includes(value))).toEqual([]);
  });

  test('uninstalling keeps the settings with the data; purging deletes them, the secret ones too', async () => {
    await tp.api('/modules/tuner/settings', { ...admin(), method: 'PATCH', body: { values: { api_key: API_KEY } } });
    const rows = () => tp.platform.tenantDbs.query(owner.tenantId, 'SELECT module FROM module_settings WHERE module = $1', ['tuner']);
    const secretsLeft = () => tp.platform.central.models.ModuleSecret.count({ where: { tenant_id: owner.tenantId, module: 'tuner' } });
    expect((await tp.api('/modules/tuner', { ...admin(), method: 'DELETE' })).status).toBe(200);
    await installVia(tp, owner.token, 'acme', 'tuner');
    expect((await tp.api('/modules/tuner/settings', admin())).body.values).toMatchObject({ sender: 'ACME2', api_key: { set: true } });
    expect((await tp.api('/modules/tuner?purge=true', { ...admin(), method: 'DELETE' })).status).toBe(200);
    expect([await rows(), await secretsLeft()]).toEqual([[], 0]);
  });
});
