/**
 * One tenant's burst of slow workflow runs against another tenant's run (DESIGN wave 3: one job
 * service, scheduling tenants fairly), on a real platform with two workflow workers (with REDIS_URL:
 * bull on Redis). Each run's HTTP request node calls a real server on 127.0.0.1, standing in for a
 * slow vendor: it holds acme's requests until the test lets them go, so the order in which requests
 * arrive is the order in which runs reached a worker.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

describe("hostile: one tenant's workflow runs cannot hold every tenant's workflow workers", () => {
  const WORKERS = 2;
  const BURST = 6;
  let host: TestHost;
  let vendor: http.Server;
  let origin: string;
  const arrivals: string[] = [];
  const held = new Map<string, () => void>();
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

  beforeAll(async () => {
    vendor = http.createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const { who } = JSON.parse(text) as { who: string };
        arrivals.push(who);
        const answer = () => res.end(JSON.stringify({ ok: true }));
        if (who.startsWith('acme')) held.set(who, answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}`;
    host = await startHost({ WORKFLOW_WORKERS: String(WORKERS) });
    const made = await host.request('POST', '/admin/tenants', { name: 'Globex', alias: 'globex' });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    const globexId = made.body.tenant.id as string;
    for (const alias of ['workflows_code', 'workflows']) await host.installModule(alias, { tenant: globexId });
    const { token } = await host.addMember({ email: 'gina@globex.example', role: 'admin' }, globexId);
    globex = async (method, path, body) => {
      const res = await fetch(`${host.url}/api/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': 'globex' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    // The stand-in vendor is on 127.0.0.1: both tenants may reach it.
    for (const id of [host.tenantId, globexId]) {
      const res = await host.request('PATCH', `/admin/tenants/${id}/private-networks`, { allow_private_networks: true });
      if (res.status !== 200) throw new Error(`private networks ${id}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect((await host.request('PUT', '/modules/fetch-origins', { fetch_origins: [{ origin, module: 'workflows' }] })).status).toBe(200);
    expect((await globex('PUT', '/modules/fetch-origins', { fetch_origins: [{ origin, module: 'workflows' }] })).status).toBe(200);
  }, 240_000);
  afterAll(async () => {
    for (const answer of held.values()) answer();
    await host?.close();
    vendor?.close();
  });

  const callVendor = (who: string) => ({
    name: `Call the vendor (${who})`,
    trigger_type: 'manual',
    nodes: [
      { node_type: 'workflows:manual-trigger', node_category: 'trigger', label: 'Start', config: {}, position: { x: 0, y: 0 } },
      { node_type: 'workflows:http-request', node_category: 'action', label: 'Vendor', config: { url: `${origin}/slow`, method: 'POST', body: { who: `${who}{{n}}` } }, position: { x: 1, y: 0 } },
    ],
    connections: [{ source_node_index: 0, target_node_index: 1 }],
  });

  test("another tenant's run reaches a worker as soon as one frees, before the rest of a burst that filled them all", async () => {
    const hogFlow = await host.request('POST', '/workflows', callVendor('acme'));
    expect(hogFlow.status).toBe(201);
    const runs: string[] = [];
    for (let n = 1; n <= BURST; n++) {
      const res = await host.request('POST', `/workflows/${hogFlow.body.data.id}/execute`, { data: { n } });
      expect(res.status).toBeLessThan(300);
      runs.push(res.body.data.execution_id);
    }
    // Nobody else waits: the burst holds both workers.
    await host.eventually(async () => {
      if (arrivals.length < WORKERS) throw new Error(`${arrivals.length} requests so far`);
    }, 20_000);
    const otherFlow = await globex('POST', '/workflows', callVendor('globex'));
    expect(otherFlow.status).toBe(201);
    expect((await globex('POST', `/workflows/${otherFlow.body.data.id}/execute`, { data: { n: 1 } })).status).toBeLessThan(300);
    // acme's requests are answered one at a time, oldest first, until globex's has arrived.
    while (!arrivals.includes('globex1') && arrivals.length < BURST + 1) {
      const oldest = arrivals.find((who) => held.has(who))!;
      const before = arrivals.length;
      held.get(oldest)!();
      held.delete(oldest);
      await host.eventually(async () => {
        if (arrivals.length === before) throw new Error('no new request yet');
      }, 20_000);
    }
    // In process the first free worker goes to globex; with bull the node already held acme3 for it.
    // In FIFO order the whole burst goes first.
    expect(arrivals.indexOf('globex1')).toBeGreaterThanOrEqual(WORKERS);
    expect(arrivals.indexOf('globex1')).toBeLessThanOrEqual(WORKERS + 1);
    for (const answer of held.values()) answer();
    held.clear();
    await host.eventually(async () => {
      for (const answer of held.values()) answer();
      held.clear();
      if (arrivals.filter((who) => who.startsWith('acme')).length < BURST) throw new Error('burst not done');
    }, 30_000);
    for (const run of runs) expect((await settled(host, run, ['completed', 'failed'], 30_000)).status).toBe('completed');
  }, 180_000);
});
