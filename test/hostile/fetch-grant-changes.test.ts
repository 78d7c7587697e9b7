/**
 * A change to what a tenant's modules may fetch takes effect when it is answered (DESIGN.md, Sandbox;
 * core/kernel/modules/fetch-access.ts): a super admin's private-network grant (`PATCH
 * /admin/tenants/{id}/private-networks`) and a tenant admin's fetch origins (`PUT
 * /modules/fetch-origins`) at once on the node that answered; turning either off at once on every
 * node, so no module keeps reaching what it lost on a cached copy; turning one on, on the other
 * nodes when the change's announcement arrives over Redis. Real platforms, a real server on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { addFixtureModules } from '../bus/support';
import { eventually } from '../support/eventually';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { describeWithRedis, startTwoPlatforms, type TwoNodes } from '../support/two-nodes';

/** How soon another node must apply a grant: the announcement's delivery, far under the cache's 30 s. */
const ANNOUNCED_MS = 2_000;

async function internalService(): Promise<{ server: http.Server; origin: string }> {
  const server = http.createServer((_req, res) => res.end('internal'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

type Owner = Awaited<ReturnType<TestPlatform['install']>>;

/** The fetcher module's host.fetch of the service, as the tenant's code would run it: its answer or its refusal's code and message. */
const fetchOn = (tp: TestPlatform, tenantId: string, url: string) =>
  tp.platform.kernel.bus.call({ kind: 'core' }, 'fetcher.get', { url }, { tenantId, user: null }).then(
    (r) => ({ status: (r as { status: number }).status }),
    (e: { code: string; message: string }) => ({ refused: e.code, message: e.message }),
  );

const privateNetworks = (tp: TestPlatform, owner: Owner, allow: boolean) =>
  tp.api(`/admin/tenants/${owner.tenantId}/private-networks`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: allow } });

const fetchOrigins = (tp: TestPlatform, owner: Owner, origins: string[]) =>
  tp.api('/modules/fetch-origins', { method: 'PUT', token: owner.token, tenant: 'acme', body: { fetch_origins: origins.map((origin) => ({ origin, module: 'fetcher' })) } });

const privateRefusal = { refused: 'FETCH_DENIED', message: expect.stringContaining('private or loopback') };
const originRefusal = { refused: 'FETCH_DENIED', message: expect.not.stringContaining('private or loopback') };

describe('DESIGN Sandbox, host.fetch grants (hostile): a change takes effect on the node that answered it at once', () => {
  let tp: TestPlatform;
  let owner: Owner;
  let internal: Awaited<ReturnType<typeof internalService>>;

  beforeAll(async () => {
    internal = await internalService();
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['fetcher']);
    await tp.platform.kernel.modules.install(owner.tenantId, 'fetcher');
  }, 120_000);
  afterAll(async () => {
    await tp?.close();
    internal?.server.close();
  });

  test('a private-network grant: the fetch right after the 200 reaches the loopback service; turned off, the next is refused', async () => {
    expect((await fetchOrigins(tp, owner, [internal.origin])).status).toBe(200);
    // Read (and cached) while the tenant may not reach private addresses.
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/pay`)).toEqual(privateRefusal);

    expect(await privateNetworks(tp, owner, true)).toMatchObject({ status: 200, body: { allow_private_networks: true } });
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/pay`)).toEqual({ status: 200 });

    expect((await privateNetworks(tp, owner, false)).status).toBe(200);
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/pay`)).toEqual(privateRefusal);
  });

  test('fetch origins: an origin added by PUT is reached at once, and once removed is refused at once', async () => {
    expect((await privateNetworks(tp, owner, true)).status).toBe(200);
    expect((await fetchOrigins(tp, owner, [])).status).toBe(200);
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/x`)).toEqual(originRefusal);
    expect((await fetchOrigins(tp, owner, [internal.origin])).status).toBe(200);
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/x`)).toEqual({ status: 200 });
    expect((await fetchOrigins(tp, owner, [])).status).toBe(200);
    expect(await fetchOn(tp, owner.tenantId, `${internal.origin}/x`)).toEqual(originRefusal);
  });
});

describeWithRedis('DESIGN Sandbox, host.fetch grants on two nodes (hostile): revoked at once everywhere, granted when announced', () => {
  let nodes: TwoNodes<TestPlatform>;
  let a: TestPlatform;
  let b: TestPlatform;
  let owner: Owner;
  let internal: Awaited<ReturnType<typeof internalService>>;

  beforeAll(async () => {
    internal = await internalService();
    nodes = await startTwoPlatforms({ REDIS_PREFIX: `mandi-test-fetch-${process.pid}-${Date.now()}` });
    ({ a, b } = nodes);
    owner = await a.install('acme');
    await addFixtureModules(a, ['fetcher']);
    await addFixtureModules(b, ['fetcher']);
    await a.platform.kernel.modules.install(owner.tenantId, 'fetcher');
  }, 180_000);
  afterAll(async () => {
    await nodes?.close();
    internal?.server.close();
  });

  test('a private-network grant made on B reaches A within the bound; revoked on B, A refuses the next fetch', async () => {
    expect((await fetchOrigins(b, owner, [internal.origin])).status).toBe(200);
    const url = `${internal.origin}/pay`;
    expect(await eventually(() => fetchOn(a, owner.tenantId, url), (r) => 'refused' in r)).toEqual(privateRefusal);

    expect((await privateNetworks(b, owner, true)).status).toBe(200);
    expect(await eventually(() => fetchOn(a, owner.tenantId, url), (r) => 'status' in r, ANNOUNCED_MS)).toEqual({ status: 200 });

    expect((await privateNetworks(b, owner, false)).status).toBe(200);
    expect(await fetchOn(a, owner.tenantId, url)).toEqual(privateRefusal);
  });

  test('an origin granted on B reaches A within the bound (A had cached "nothing granted"); removed on B, A refuses at once', async () => {
    expect((await privateNetworks(b, owner, true)).status).toBe(200);
    expect((await fetchOrigins(b, owner, [])).status).toBe(200);
    const url = `${internal.origin}/y`;
    expect(await eventually(() => fetchOn(a, owner.tenantId, url), (r) => 'refused' in r)).toEqual(originRefusal);

    expect((await fetchOrigins(b, owner, [internal.origin])).status).toBe(200);
    expect(await eventually(() => fetchOn(a, owner.tenantId, url), (r) => 'status' in r, ANNOUNCED_MS)).toEqual({ status: 200 });

    expect((await fetchOrigins(b, owner, [])).status).toBe(200);
    expect(await fetchOn(a, owner.tenantId, url)).toEqual(originRefusal);
  });
});
