/**
 * host.fetch origins are granted to one module of a tenant, not to all of them (DESIGN "Sandbox":
 * fetch only to origins the tenant configured; "Host capabilities for modules"). Module A (widener)
 * registers its vendor's origin while an admin configures it, as the ai module does for a
 * provider's base URL; module B (fetcher), installed in the same tenant, must not ride on that
 * grant. Real platform, real sandbox, the vendor a real HTTP server on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { addFixtureModules, installVia } from '../bus/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import * as perModule from '../../core/kernel/data/migrations/central/0034-fetch-origins-per-module';

const hostileFixture = (name: string) => path.join(__dirname, 'fixtures', name);
const busFixture = (name: string) => path.join(__dirname, '..', 'bus', 'fixtures', name);
const admin = { id: 4242, email: 'admin@acme.example', name: 'Admin', isSuperAdmin: false };

describe('DESIGN Sandbox / Host capabilities: a fetch origin granted to one module is not open to the tenant’s other modules', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let vendor: http.Server;
  let origin: string;

  const asSystem = (op: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: owner.tenantId, user: null });
  const aFetches = (url: string) => asSystem('widener.fetch', { url });
  const bFetches = (url: string) => asSystem('fetcher.get', { url });
  const listing = async () => (await tp.api('/modules/fetch-origins', { token: owner.token, tenant: 'acme' })).body.fetch_origins;

  beforeAll(async () => {
    vendor = http.createServer((_req, res) => res.end('vendor says hi'));
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    // The vendor stand-in is on 127.0.0.1: the owner, a super admin, allows the tenant private networks.
    await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
    await addFixtureModules(tp, ['widener'], hostileFixture);
    await addFixtureModules(tp, ['fetcher'], busFixture);
    await installVia(tp, owner.token, 'acme', 'widener');
    await installVia(tp, owner.token, 'acme', 'fetcher');
    // Module A registers its vendor while an admin configures it (fetch_origins.add).
    const added = await tp.platform.kernel.bus.call({ kind: 'core' }, 'widener.raw', { op: 'fetch_origins.add', input: { origin: `${origin}/v1/chat` } }, {
      tenantId: owner.tenantId,
      user: admin,
      permissions: new Set(['widener.configure']),
    });
    expect(added).toEqual({ origin, module: 'widener', added: true });
  }, 120_000);
  afterAll(async () => {
    await tp?.close();
    vendor?.close();
  });

  test('module B fetching the origin granted only for module A is refused with FETCH_DENIED; A still reaches it', async () => {
    await expect(bFetches(`${origin}/v1/chat`)).rejects.toMatchObject({ code: 'FETCH_DENIED', details: { origin } });
    expect(await aFetches(`${origin}/v1/chat`)).toBe(200);
  });

  test('the admin’s tenant-wide listing shows which module each origin belongs to', async () => {
    expect(await listing()).toEqual([{ origin, module: 'widener' }]);
  });

  test('an admin grants the same origin to module B by name (PUT), and only then B reaches it', async () => {
    const put = await tp.api('/modules/fetch-origins', {
      method: 'PUT',
      token: owner.token,
      tenant: 'acme',
      body: { fetch_origins: [{ origin, module: 'widener' }, { origin: `${origin}/`, module: 'fetcher' }] },
    });
    expect(put).toMatchObject({ status: 200, body: { fetch_origins: [{ origin, module: 'widener' }, { origin, module: 'fetcher' }] } });
    // This node forgets its cached grants at once on PUT; other nodes within 30 s.
    expect(await bFetches(`${origin}/v1/chat`)).toEqual({ status: 200, body: 'vendor says hi' });
    expect(await aFetches(`${origin}/v1/chat`)).toBe(200);
  });

  test('a grant must name a module: a bare origin (the old tenant-wide form) or a malformed module name is a 422 and nothing changes', async () => {
    const before = await listing();
    for (const entry of [origin, { origin }, { origin, module: '' }, { origin, module: 'Not A Module!' }]) {
      const res = await tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: { fetch_origins: [entry] } });
      expect(res).toMatchObject({ status: 422, body: { errors: { 'fetch_origins.0': [expect.any(String)] } } });
    }
    expect(await listing()).toEqual(before);
  });

  test('migration: a tenant-wide list from before becomes one grant per module installed in that tenant, and the list only ever holds grants after it', async () => {
    const central = tp.platform.central.sequelize;
    await central.query(`UPDATE tenants SET settings = jsonb_set(settings, '{modules}', jsonb_build_object('fetch_origins', $2::jsonb)) WHERE id = $1`, {
      bind: [owner.tenantId, JSON.stringify(['https://api.legacy.example'])],
    });
    await perModule.up({ context: central.getQueryInterface() });
    const [row] = await central.query<{ list: unknown }>(`SELECT settings->'modules'->'fetch_origins' AS list FROM tenants WHERE id = $1`, { bind: [owner.tenantId], type: QueryTypes.SELECT });
    expect(row!.list).toEqual(
      expect.arrayContaining([
        { origin: 'https://api.legacy.example', module: 'widener' },
        { origin: 'https://api.legacy.example', module: 'fetcher' },
      ]),
    );
    expect((row!.list as unknown[]).every((g) => typeof g === 'object')).toBe(true);
  });
});
