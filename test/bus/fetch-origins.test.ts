/**
 * A tenant admin chooses the origins each of its modules may reach with host.fetch (GET/PUT
 * /modules/fetch-origins, permission modules.manage), and the sandbox then lets that module's fetch
 * through to a real server on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia } from './support';

describe('DESIGN Sandbox: host.fetch reaches only the origins the tenant configured', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let vendor: http.Server;
  let origin: string;

  beforeAll(async () => {
    vendor = http.createServer((_req, res) => res.end('vendor says hi'));
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    // The stand-ins are on 127.0.0.1: the owner, a super admin, allows the tenant private networks.
    await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
    await addFixtureModules(tp, ['fetcher']);
    await installVia(tp, owner.token, 'acme', 'fetcher');
  }, 60_000);
  afterAll(async () => {
    await tp?.close();
    vendor?.close();
  });

  const fetchAsModule = (url: string) => tp.platform.kernel.bus.call({ kind: 'core' }, 'fetcher.get', { url }, { tenantId: owner.tenantId, user: null });

  test('an admin sets the list as origins granted to modules; bad entries are 422 and nothing is stored', async () => {
    expect(await tp.api('/modules/fetch-origins', { token: owner.token, tenant: 'acme' })).toMatchObject({ status: 200, body: { fetch_origins: [] } });

    const bad = await tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: { fetch_origins: [{ origin: 'https://ok.example', module: 'fetcher' }, { origin: 'ftp://files.example', module: 'fetcher' }] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['fetch_origins.1'][0]).toContain('must use http or https');
    const path = await tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: { fetch_origins: [{ origin: 'https://api.example/v1', module: 'fetcher' }] } });
    expect(path.body.errors['fetch_origins.0'][0]).toContain('origin only');
    expect((await tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: {} })).status).toBe(422);
    expect((await tp.api('/modules/fetch-origins', { token: owner.token, tenant: 'acme' })).body).toEqual({ fetch_origins: [] });

    const set = await tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: { fetch_origins: [{ origin: `${origin}/`, module: 'fetcher' }, { origin: 'https://API.Vendor.example', module: 'fetcher' }] } });
    const granted = [{ origin, module: 'fetcher' }, { origin: 'https://api.vendor.example', module: 'fetcher' }];
    expect(set).toMatchObject({ status: 200, body: { fetch_origins: granted } });
    // Other settings in the same JSON survive the change.
    const tenant = await tp.platform.central.models.Tenant.findByPk(owner.tenantId);
    expect(tenant!.settings).toMatchObject({ onboarding: { path: 'install' }, modules: { fetch_origins: granted } });
  });

  test('a member without modules.manage may not read or change it', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'bob@acme.example' });
    expect((await tp.api('/modules/fetch-origins', { token: member.token, tenant: 'acme' })).status).toBe(403);
    expect((await tp.api('/modules/fetch-origins', { method: 'PUT', token: member.token, tenant: 'acme', body: { fetch_origins: [] } })).status).toBe(403);
  });

  test('the module reaches a listed origin and is refused any other', async () => {
    expect(await fetchAsModule(`${origin}/hello`)).toEqual({ status: 200, body: 'vendor says hi' });
    await expect(fetchAsModule('http://127.0.0.1:9/elsewhere')).rejects.toMatchObject({ code: 'FETCH_DENIED' });
  });
});
