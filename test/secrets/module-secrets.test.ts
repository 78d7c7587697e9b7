/**
 * Module secrets on a real platform with real sandboxes: a tenant admin writes a secret over the
 * API and sees only its hint; the module that declares it decrypts it; another module, the edge
 * and core get nothing of it; the row holds ciphertext bound to its place; no log line or audit row
 * carries the value.
 */
import { QueryTypes } from 'sequelize';
import pino from 'pino';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia } from '../bus/support';
import { secretFixture } from './support';

const API_KEY = 'rzp_live_Sup3rS3cretValue_9f8e';
const WEBHOOK = 'whsec-0123456789abcdef-webhook';

describe('DESIGN Host capabilities for modules: per-tenant module secrets, encrypted at rest, write-only over the API', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const lines: string[] = [];
  const asModule = (op: string, input: unknown = {}) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: owner.tenantId, user: null });
  const admin = () => ({ token: owner.token, tenant: 'acme' });
  const row = async (module: string, name: string) =>
    (await tp.platform.central.models.ModuleSecret.findOne({ where: { tenant_id: owner.tenantId, module, name } }))!;

  beforeAll(async () => {
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    tp = await startTestPlatform({}, undefined, logger);
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['vault', 'snoop'], secretFixture);
    await installVia(tp, owner.token, 'acme', 'vault');
    await installVia(tp, owner.token, 'acme', 'snoop');
  }, 120_000);
  afterAll(() => tp?.close());

  test('an admin sets a declared secret; the API answers only hints, the module reads the value', async () => {
    const put = await tp.api('/modules/vault/secrets/api_key', { ...admin(), method: 'PUT', body: { value: API_KEY } });
    expect(put).toMatchObject({ status: 200, body: { name: 'api_key', hint: '9f8e', set_at: expect.any(String) } });
    expect(JSON.stringify(put.body)).not.toContain(API_KEY.slice(0, -4));

    const list = await tp.api('/modules/vault/secrets', admin());
    expect(list.status).toBe(200);
    expect(list.body.secrets).toEqual([
      { name: 'api_key', description: "The vendor's API key.", set: true, hint: '9f8e', set_at: put.body.set_at },
      { name: 'webhook_secret', description: "The vendor's webhook signing secret.", set: false, hint: null, set_at: null },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(API_KEY.slice(0, -4));

    expect(await asModule('vault.get', { name: 'api_key' })).toEqual({ value: API_KEY });
    expect(await asModule('vault.hint', { name: 'api_key' })).toEqual({ secret: { name: 'api_key', hint: '9f8e', set_at: put.body.set_at } });
    expect(await asModule('vault.get', { name: 'webhook_secret' })).toEqual({ value: null });
  });

  test('the module sets, lists and deletes its own; short values get no hint', async () => {
    expect(await asModule('vault.set', { name: 'webhook_secret', value: WEBHOOK })).toMatchObject({ name: 'webhook_secret', hint: 'hook' });
    expect(await asModule('vault.set', { name: 'webhook_secret', value: 'short' })).toMatchObject({ hint: null });
    expect(await asModule('vault.get', { name: 'webhook_secret' })).toEqual({ value: 'short' });
    const { secrets } = (await asModule('vault.list')) as { secrets: Array<{ name: string }> };
    expect(secrets.map((s) => s.name)).toEqual(['api_key', 'webhook_secret']);
    expect(await asModule('vault.delete', { name: 'webhook_secret' })).toEqual({ deleted: true });
    expect(await asModule('vault.delete', { name: 'webhook_secret' })).toEqual({ deleted: false });
    await asModule('vault.set', { name: 'webhook_secret', value: WEBHOOK });
  });

  test('the row holds ciphertext under the current key id, never the value', async () => {
    const r = await row('vault', 'api_key');
    expect(r.key_id).toBe(tp.platform.keys.keyId);
    expect(r.ciphertext.startsWith(`${r.key_id}.`)).toBe(true);
    expect(r.ciphertext).not.toContain(API_KEY);
    expect(Buffer.from(r.ciphertext.split('.').slice(1).join(''), 'base64url').toString('latin1')).not.toContain(API_KEY.slice(0, 8));
    // A fresh IV each write: the same value twice gives two ciphertexts.
    await tp.api('/modules/vault/secrets/api_key', { ...admin(), method: 'PUT', body: { value: API_KEY } });
    expect((await row('vault', 'api_key')).ciphertext).not.toBe(r.ciphertext);
  });

  test('another module reads only its own namespace; edge and core callers get no plaintext', async () => {
    // snoop declares api_key too: its own, unset.
    expect(await asModule('snoop.raw', { op: 'secrets.get', input: { name: 'api_key' } })).toEqual({ value: null });
    await expect(asModule('snoop.raw', { op: 'secrets.get', input: { name: 'webhook_secret' } })).rejects.toMatchObject({ code: 'SECRET_NOT_DECLARED' });
    expect(await asModule('snoop.raw', { op: 'secrets.list' })).toEqual({ secrets: [] });
    for (const caller of [{ kind: 'core' } as const, { kind: 'edge', via: 'http' } as const]) {
      await expect(tp.platform.kernel.bus.call(caller, 'secrets.get', { name: 'api_key' }, { tenantId: owner.tenantId, user: null, permissions: new Set(['*']) })).rejects.toMatchObject({
        code: 'SECRETS_MODULE_ONLY',
        status: 403,
      });
    }
  });

  test('admin routes: permission, declared names only, write-only, delete', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'mo@acme.example', role: 'member' });
    expect((await tp.api('/modules/vault/secrets', { token: member.token, tenant: 'acme' })).status).toBe(403);
    expect((await tp.api('/modules/vault/secrets/api_key', { token: member.token, tenant: 'acme', method: 'PUT', body: { value: 'x'.repeat(20) } })).status).toBe(403);
    const undeclared = await tp.api('/modules/vault/secrets/other', { ...admin(), method: 'PUT', body: { value: 'x' } });
    expect([undeclared.status, undeclared.body.code]).toEqual([404, 'SECRET_NOT_DECLARED']);
    expect((await tp.api('/modules/nope/secrets', admin())).status).toBe(404);
    expect((await tp.api('/modules/vault/secrets/api_key', { ...admin(), method: 'PUT', body: { value: 42 } })).status).toBe(422);
    expect((await tp.api('/modules/vault/secrets/api_key', { ...admin(), method: 'GET' })).status).toBe(405); // there is no route that reads a value
    expect((await tp.api('/modules/snoop/secrets/api_key', { ...admin(), method: 'PUT', body: { value: 'snoop-own-api-key-1234' } })).status).toBe(200);
    expect((await tp.api('/modules/snoop/secrets/api_key', { ...admin(), method: 'DELETE' })).status).toBe(200);
    expect((await tp.api('/modules/snoop/secrets/api_key', { ...admin(), method: 'DELETE' })).status).toBe(404);
  });

  test('tampered ciphertext, or a ciphertext moved to another row, is refused', async () => {
    const good = await row('vault', 'api_key');
    const [kid, iv, tag, ct] = good.ciphertext.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    await good.update({ ciphertext: [kid, iv, tag, flipped.toString('base64url')].join('.') });
    await expect(asModule('vault.get', { name: 'api_key' })).rejects.toMatchObject({ code: 'SECRET_UNREADABLE' });

    // The intact value copied into snoop's row of the same name: bound to (tenant, module, name), it does not decrypt there.
    await tp.platform.central.models.ModuleSecret.create({ tenant_id: owner.tenantId, module: 'snoop', name: 'api_key', ciphertext: [kid, iv, tag, ct].join('.'), key_id: kid, hint: null });
    await expect(asModule('snoop.raw', { op: 'secrets.get', input: { name: 'api_key' } })).rejects.toMatchObject({ code: 'SECRET_UNREADABLE' });
    await good.update({ ciphertext: [kid, iv, tag, ct].join('.') });
    expect(await asModule('vault.get', { name: 'api_key' })).toEqual({ value: API_KEY });
  });

  test('no log line and no audit row carries a value in clear', async () => {
    await tp.platform.kernel.audit.flush();
    const audit = await tp.platform.central.sequelize.query<{ row: string }>(`SELECT concat_ws(' ', tenant_id, actor_type, actor_id, action, target, status, details::text) AS row FROM audit_log`, { type: QueryTypes.SELECT });
    expect(audit.some((a) => a.row.includes('secrets.get'))).toBe(true); // the calls were audited
    expect(audit.some((a) => a.row.includes('"secret": "api_key"'))).toBe(true); // the admin's writes, by name
    const logs = lines.join('\n');
    expect(logs).toContain('module secret could not be decrypted'); // the logs were captured
    for (const value of [API_KEY, WEBHOOK, 'snoop-own-api-key-1234']) {
      expect(audit.filter((a) => a.row.includes(value))).toEqual([]);
      expect(logs).not.toContain(value);
    }
  });

  test('uninstalling keeps the secrets with the data; purging deletes them with it', async () => {
    const count = () => tp.platform.central.models.ModuleSecret.count({ where: { tenant_id: owner.tenantId, module: 'vault' } });
    expect(await count()).toBe(2);
    expect((await tp.api('/modules/vault', { ...admin(), method: 'DELETE' })).status).toBe(200);
    expect(await count()).toBe(2);
    await installVia(tp, owner.token, 'acme', 'vault');
    expect(await asModule('vault.get', { name: 'api_key' })).toEqual({ value: API_KEY });
    expect((await tp.api('/modules/vault?purge=true', { ...admin(), method: 'DELETE' })).status).toBe(200);
    expect(await count()).toBe(0);
  });
});
