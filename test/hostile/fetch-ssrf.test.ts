/**
 * A module's host.fetch aimed at the platform's own network (server-side request forgery), through
 * the real fetch path: the tenant's allowed origins do not open loopback, private, link-local or
 * metadata addresses; only a platform super admin's `webhooks.allow_private_networks` opens private
 * and loopback ones, and never link-local or metadata; a DNS answer that turns to loopback between
 * the check and the connection is refused at connect time. Policy: core/kernel/net/outbound-policy.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFetchBridge } from '../../core/kernel/host-api/fetch-bridge';
import { addFixtureModules } from '../bus/support';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { HostileHarness } from './support';

/** A server on loopback standing in for an internal service; counts what reaches it. */
async function internalService(): Promise<{ server: http.Server; origin: string; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((_req, res) => {
    hits++;
    res.end('internal secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits };
}

const METADATA = ['http://169.254.169.254', 'http://[fe80::1]', 'http://[::ffff:169.254.169.254]', 'http://100.100.100.200'];

describe('DESIGN Sandbox: host.fetch follows the outbound policy, whatever origins the tenant allowed', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let allowed: { id: string };
  let internal: Awaited<ReturnType<typeof internalService>>;

  const fetchAs = (tenantId: string, url: string) => tp.platform.kernel.bus.call({ kind: 'core' }, 'fetcher.get', { url }, { tenantId, user: null });

  beforeAll(async () => {
    internal = await internalService();
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['fetcher']);
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    allowed = { id: made.body.tenant.id };
    for (const id of [owner.tenantId, allowed.id]) {
      await tp.platform.kernel.modules.install(id, 'fetcher');
      // The tenant lists the internal service and the metadata endpoints as fetch origins.
      await tp.platform.central.sequelize.query(
        `UPDATE tenants SET settings = jsonb_set(settings, '{modules}', jsonb_build_object('fetch_origins', $2::jsonb)) WHERE id = $1`,
        { bind: [id, JSON.stringify([internal.origin, ...METADATA].map((origin) => ({ origin, module: 'fetcher' })))] },
      );
    }
    const patched = await tp.api('/admin/tenants/globex/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
    expect(patched).toMatchObject({ status: 200, body: { tenant_id: allowed.id, allow_private_networks: true } });
  }, 120_000);
  afterAll(async () => {
    await tp?.close();
    internal?.server.close();
  });

  test('a loopback origin the tenant allowed is refused before any connection', async () => {
    await expect(fetchAs(owner.tenantId, `${internal.origin}/admin`)).rejects.toMatchObject({ code: 'FETCH_DENIED', message: expect.stringContaining('private or loopback address') });
    expect(internal.hits()).toBe(0);
  });

  test.each(METADATA)('link-local and metadata %s are refused, even for the tenant allowed private networks', async (origin) => {
    for (const tenantId of [owner.tenantId, allowed.id]) {
      await expect(fetchAs(tenantId, `${origin}/latest/meta-data/`)).rejects.toMatchObject({ code: 'FETCH_DENIED', message: expect.stringContaining('never calls') });
    }
  });

  test('the tenant a super admin allowed private networks reaches a real server on 127.0.0.1', async () => {
    await expect(fetchAs(allowed.id, `${internal.origin}/ok`)).resolves.toEqual({ status: 200, body: 'internal secret' });
    expect(internal.hits()).toBe(1);
  });

  test('only a super admin may allow private networks; a bad body is 422', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'admin@acme.example' });
    const byMember = await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: member.token, tenant: 'acme', body: { allow_private_networks: true } });
    expect(byMember.status).toBe(403);
    const bad = await tp.api('/admin/tenants/globex/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: 'yes' } });
    expect(bad.status).toBe(422);
    const unknown = await tp.api('/admin/tenants/nosuch/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
    expect(unknown.status).toBe(404);
  });
});

describe('DESIGN Sandbox: host.fetch and DNS rebinding', () => {
  let h: HostileHarness;
  let internal: Awaited<ReturnType<typeof internalService>>;
  beforeAll(async () => {
    internal = await internalService();
  });
  afterAll(() => internal.server.close());
  beforeEach(() => {
    h = new HostileHarness('ssrf@1.0.0', 'fetch-ssrf', {});
  });
  afterEach(() => h.dispose());

  /** DNS that answers `first` to the first question and `then` to every later one. */
  function rebinding(first: string, then: string) {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return [{ address: asked.length === 1 ? first : then, family: 4 }];
    };
    return { asked, resolve };
  }

  test('a name that is public when checked and loopback when connecting is refused at connect time', async () => {
    const port = new URL(internal.origin).port;
    const dns = rebinding('93.184.216.34', '127.0.0.1');
    h.bridge.onFetch = createFetchBridge([`http://rebind.example:${port}`], { resolve: dns.resolve });
    const res = await h.invoke('fetch', { url: `http://rebind.example:${port}/admin` });
    expect(res).toMatchObject({ code: 'FETCH_DENIED', message: expect.stringContaining('rebind.example (127.0.0.1), a private or loopback address') });
    // Asked twice: the check before the request, then the socket's own lookup, which refused.
    expect(dns.asked).toEqual(['rebind.example', 'rebind.example']);
    expect(internal.hits()).toBe(0);
  });

  test('with private networks allowed, a name that turns to the metadata address at connect time is still refused', async () => {
    const dns = rebinding('127.0.0.1', '169.254.169.254');
    h.bridge.onFetch = createFetchBridge(['http://rebind.example'], { resolve: dns.resolve, allowPrivateNetworks: true });
    await expect(h.invoke('fetch', { url: 'http://rebind.example/latest/meta-data/' })).resolves.toMatchObject({
      code: 'FETCH_DENIED',
      message: expect.stringContaining('rebind.example (169.254.169.254), a link-local'),
    });
    expect(dns.asked).toHaveLength(2);
  });
});
