/**
 * Spec 2, Errors and Limits: bad input to the workflow endpoints is the spec's 422 shape
 * {success: false, message: 'Validation failed', errors: {field: [message]}} and writes nothing;
 * activation and validate answer readable errors (missing trigger, no incoming connection, missing
 * required config key, unknown node type, cycle).
 */
import type { TestHost } from '../../sdk/testing';
import { sixNodes, startHost } from './support';

describe('spec 2 Errors: workflow input and validation', () => {
  let host: TestHost;
  const count = async (table: string) => Number((await host.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0].n);
  const counts = async () => [await count('workflows'), await count('workflow_nodes'), await count('workflow_connections'), await count('workflow_executions')];
  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  const base = () => sixNodes({ node_type: 'workflows:manual-trigger' }) as { nodes: Array<Record<string, unknown>>; connections: Array<Record<string, unknown>> };

  test.each([
    ['an unknown node type', (b: ReturnType<typeof base>) => (b.nodes[1].node_type = 'workflows:teleport'), 'nodes.1.node_type'],
    ['a connection index out of range', (b: ReturnType<typeof base>) => (b.connections[0].target_node_index = 9), 'connections.0.target_node_index'],
    ['a config not matching the configSchema', (b: ReturnType<typeof base>) => (b.nodes[4].config = { subject: 'hi' }), 'nodes.4.config'],
    ['a missing name', (b: ReturnType<typeof base>) => ((b as Record<string, unknown>).name = ''), 'name'],
  ])('%s is 422 naming the field, nothing written', async (_what, spoil, field) => {
    const before = await counts();
    const body = base();
    spoil(body);
    const res = await host.request('POST', '/workflows', body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'Validation failed', errors: expect.objectContaining({ [field]: expect.arrayContaining([expect.any(String)]) }) });
    expect(await counts()).toEqual(before);
  });

  test('a config error names the missing key', async () => {
    const body = base();
    body.nodes[4].config = { subject: 'hi', body: 'x' };
    const res = await host.request('POST', '/workflows', body);
    expect(res.body.errors['nodes.4.config']).toEqual(['Missing required config key "to".']);
  });

  test('a 2 MB trigger payload is 422 and starts nothing', async () => {
    const wf = (await host.request('POST', '/workflows', base())).body.data;
    const before = await counts();
    const res = await fetch(`${host.url}/api/v1/workflows/${wf.id}/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
      body: JSON.stringify({ data: { blob: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ success: false, message: 'Validation failed', errors: { data: [expect.stringMatching(/exceeds/)] } });
    const small = await host.request('POST', `/workflows/${wf.id}/execute`, { data: { blob: 'x'.repeat(600 * 1024) } });
    expect(small.status).toBe(422);
    expect(await counts()).toEqual(before);
  });

  test('activate refuses an invalid graph with the spec shape; validate lists the same errors', async () => {
    const body = base();
    body.nodes[0] = { node_type: 'workflows:code', node_category: 'transformer', label: 'Start', config: { expression: '1' } };
    body.nodes[4].config = { to: 'a@b.c', subject: 's', body: 'b' };
    body.connections.push({ source_node_index: 5, target_node_index: 1 });
    const wf = (await host.request('POST', '/workflows', body)).body.data;
    const res = await host.request('POST', `/workflows/${wf.id}/activate`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, message: 'Workflow validation failed', errors: expect.arrayContaining(['The workflow has no trigger node.', 'Node "Start" has no incoming connection.', 'The workflow contains a cycle.']) });
    expect((await host.request('GET', `/workflows/${wf.id}`)).body.data.status).toBe('draft');
    const v = await host.request('GET', `/workflows/${wf.id}/validate`);
    expect(v.body).toEqual({ success: true, valid: false, errors: res.body.errors });
  });

  test('a valid graph activates, deactivates to paused, and an unknown id is 404 Workflow not found', async () => {
    const wf = (await host.request('POST', '/workflows', base())).body.data;
    expect((await host.request('GET', `/workflows/${wf.id}/validate`)).body).toEqual({ success: true, valid: true, errors: [] });
    expect((await host.request('POST', `/workflows/${wf.id}/activate`)).body.data.status).toBe('active');
    expect((await host.request('POST', `/workflows/${wf.id}/deactivate`)).body.data.status).toBe('paused');
    const missing = await host.request('GET', '/workflows/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ success: false, message: 'Workflow not found' });
  });

  test('list: pagination (per_page default 15), filters, sort and all; export/import round-trip with version 1.0; duplicate; stats; delete', async () => {
    for (let i = 0; i < 3; i++) await host.request('POST', '/workflows', { ...base(), name: `Listed ${i}`, tags: ['listed'] });
    const page = await host.request('GET', '/workflows?tag=listed&per_page=2&sort_by=name&sort_dir=asc');
    expect(page.status).toBe(200);
    expect(page.body.data.map((w: { name: string }) => w.name)).toEqual(['Listed 0', 'Listed 1']);
    expect(page.body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
    expect((await host.request('GET', '/workflows')).body.meta.per_page).toBe(15);
    expect((await host.request('GET', '/workflows?tag=listed&all=true')).body.data).toHaveLength(3);
    expect((await host.request('GET', '/workflows?sort_by=password')).status).toBe(422);
    const id = page.body.data[0].id;
    const exported = (await host.request('GET', `/workflows/${id}/export`)).body.data;
    expect(exported).toMatchObject({ name: 'Listed 0', trigger_type: 'manual', version: '1.0', exported_at: expect.any(String) });
    expect(exported.connections[0]).toEqual({ source_node_index: 0, target_node_index: 1, source_handle: 'output', target_handle: 'input', condition_path: null });
    const imported = await host.request('POST', '/workflows/import', { workflow: exported });
    expect(imported.status).toBe(201);
    expect(imported.body.data).toMatchObject({ name: 'Listed 0', status: 'draft' });
    expect(imported.body.data.nodes.map((n: { config: unknown }) => n.config)).toEqual(page.body.data[0].nodes.map((n: { config: unknown }) => n.config));
    expect((await host.request('POST', '/workflows/import', { workflow: { ...exported, version: '2.0' } })).status).toBe(422);
    const dup = await host.request('POST', `/workflows/${id}/duplicate`, { name: 'Copy' });
    expect(dup.status).toBe(201);
    expect(dup.body.data).toMatchObject({ name: 'Copy', status: 'draft' });
    expect(dup.body.data.nodes).toHaveLength(6);
    const stats = (await host.request('GET', '/workflows/stats')).body.data;
    expect(Object.keys(stats).sort()).toEqual(['active_workflows', 'average_duration_ms', 'draft_workflows', 'executions_this_month', 'executions_this_week', 'executions_today', 'most_executed', 'paused_workflows', 'recent_failures', 'success_rate', 'total_workflows'].sort());
    expect((await host.request('DELETE', `/workflows/${dup.body.data.id}`)).body).toEqual({ success: true, message: 'Workflow deleted' });
    expect((await host.request('GET', `/workflows/${dup.body.data.id}`)).status).toBe(404);
  });

  test('PUT replaces the graph; a partial PUT keeps the rest', async () => {
    const wf = (await host.request('POST', '/workflows', base())).body.data;
    const renamed = await host.request('PUT', `/workflows/${wf.id}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed' });
    expect(renamed.body.data.nodes).toHaveLength(6);
    expect(renamed.body.data.connections).toHaveLength(5);
    const bad = await host.request('PUT', `/workflows/${wf.id}`, { connections: [{ source_node_index: 0, target_node_index: 6 }] });
    expect(bad.status).toBe(422);
    expect((await host.request('GET', `/workflows/${wf.id}`)).body.data.connections).toHaveLength(5);
  });

  test('permissions: workflows.view reads only; without workflows.manage a create is 403 Insufficient permissions', async () => {
    await host.request('POST', '/roles', { name: 'wf-viewer', permissions: ['workflows.view'] });
    const { token } = await host.addMember({ email: 'viewer@test-org.example', role: 'wf-viewer' });
    const as = (method: string, path: string, body?: unknown) =>
      fetch(`${host.url}/api/v1${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': host.tenantId }, body: body === undefined ? undefined : JSON.stringify(body) });
    const list = await as('GET', '/workflows');
    expect(list.status).toBe(200);
    expect(Number(list.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000 - 1);
    const create = await as('POST', '/workflows', base());
    expect(create.status).toBe(403);
    expect(await create.json()).toMatchObject({ success: false, message: 'Insufficient permissions' });
  });
});

describe('spec 2 Limits: rate limits per user with X-RateLimit-* headers', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startHost({ WORKFLOW_EXECUTE_RATE_LIMIT: '2/60', WORKFLOW_RATE_LIMIT: '5/60' });
  }, 240_000);
  afterAll(() => host?.close());

  test('execute endpoints have their own budget; past it, 429 with the headers', async () => {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${host.url}/api/v1${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId }, body: body === undefined ? undefined : JSON.stringify(body) });
    const created = await call('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }));
    const id = ((await created.json()) as { data: { id: string } }).data.id;
    expect(created.headers.get('x-ratelimit-limit')).toBe('5');
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await call('POST', `/workflows/${id}/execute`, { data: {} }));
    expect(runs.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(runs[0].headers.get('x-ratelimit-limit')).toBe('2');
    expect(runs[2].headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(runs[2].headers.get('x-ratelimit-reset'))).toBeGreaterThan(Math.floor(Date.now() / 1000));
    const standard = [];
    for (let i = 0; i < 5; i++) standard.push((await call('GET', '/workflows')).status);
    expect(standard).toEqual([200, 200, 200, 200, 429]);
  });
});
