/**
 * Attacks on error workflows and webhook calls that wait for their run (ours beside spec 2's
 * Workflow settings and Public webhook trigger): another tenant's workflow cannot be named as an
 * error workflow, and even written into the settings it never runs there; a flood of waiting
 * webhook calls holds at most WORKFLOW_WEBHOOK_WAITS_PER_TENANT slots of a node (429 beyond, nothing
 * run), another tenant still waits, and a caller that goes away frees its slot.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

type Node = Record<string, unknown>;
const chain = (name: string, nodes: Node[], extra: Record<string, unknown> = {}) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })), ...extra });
const report: Node = { node_type: 'workflows:transform', label: 'Report', config: { values: { run: '{{execution_id}}' } } };
const WAITS = 3;

describe('hostile: error workflows across tenants, a flood of waiting webhook calls', () => {
  let host: TestHost;
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

  beforeAll(async () => {
    host = await startHost({ WORKFLOW_WEBHOOK_WAITS_PER_TENANT: String(WAITS), WORKFLOW_WEBHOOK_RATE_LIMIT: '1000/60' });
    const made = await host.request('POST', '/admin/tenants', { name: 'Globex', alias: 'globex' });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    for (const alias of ['workflows_code', 'workflows']) await host.installModule(alias, { tenant: made.body.tenant.id });
    const { token } = await host.addMember({ email: 'gina@globex.example', role: 'admin' }, made.body.tenant.id);
    globex = async (method, path, body) => {
      const res = await fetch(`${host.url}/api/v1${path}`, {
        method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-tenant': 'globex' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
  }, 240_000);
  afterAll(() => host?.close());

  test("another tenant's workflow cannot be the error workflow, and written into the settings anyway it never runs there", async () => {
    const theirs = await globex('POST', '/workflows', chain('globex handler', [{ node_type: 'workflows:error-trigger', label: 'Failed' }, report]));
    expect(theirs.status).toBe(201);
    const id = theirs.body.data.id as string;
    const failing = chain('fails', [{ node_type: 'workflows:manual-trigger', label: 'Start' }, { node_type: 'workflows:code', label: 'Boom', config: { expression: "(() => { throw new Error('boom') })()" } }]);
    const field = 'settings.error_workflow_id';
    const created = await host.request('POST', '/workflows', { ...failing, settings: { error_workflow_id: id } });
    expect(created.status).toBe(422);
    expect(created.body.errors[field]).toEqual([expect.any(String)]);
    const imported = await host.request('POST', '/workflows/import', { workflow: { ...failing, version: '1.0', settings: { error_workflow_id: id } } });
    expect(imported.status).toBe(422);
    const mine = (await host.request('POST', '/workflows', failing)).body.data.id as string;
    expect((await host.request('PUT', `/workflows/${mine}`, { settings: { error_workflow_id: id } })).status).toBe(422);
    // Past the save check (a row written some other way): the run looks in its own tenant only.
    await host.arrange((sql) => sql(`UPDATE workflows SET settings = jsonb_build_object('error_workflow_id', $2::text) WHERE id = $1`, [mine, id]));
    const run = (await host.request('POST', `/workflows/${mine}/execute`, { data: {} })).body.data.execution_id as string;
    expect((await settled(host, run)).status).toBe('failed');
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await globex('GET', `/workflows/${id}/executions`)).body.data).toEqual([]);
    expect((await globex('GET', '/workflow-executions')).body.data).toEqual([]);
  });

  test('a flood of waiting webhook calls holds a bounded number of slots: 429 beyond, nothing run; another tenant still waits; a caller gone frees its slot', async () => {
    const slow = chain('slow answer', [{ node_type: 'workflows:webhook-trigger', label: 'Hook' }, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 2 } }, report], {
      trigger_type: 'webhook', trigger_config: { respond: 'last_node', respond_timeout_seconds: 20 },
    });
    const activeToken = async (req: typeof globex) => {
      const wf = await req('POST', '/workflows', slow);
      expect((await req('POST', `/workflows/${wf.body.data.id}/activate`)).status).toBe(200);
      return { id: wf.body.data.id as string, token: (await req('GET', `/workflows/${wf.body.data.id}/webhook-url`)).body.data.token as string };
    };
    const mine = await activeToken((m, p, b) => host.request(m, p, b));
    const theirs = await activeToken(globex);
    const hook = (token: string, signal?: AbortSignal) =>
      fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":{}}', signal });

    const flood = await Promise.all(Array.from({ length: 12 }, () => hook(mine.token).then(async (r) => ({ status: r.status, body: await r.json() }))));
    const other = hook(theirs.token);
    const statuses = flood.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(WAITS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - WAITS);
    expect(flood.find((r) => r.status === 429)!.body).toMatchObject({ success: false, code: 'WEBHOOK_WAIT_LIMIT' });
    // Refused calls started nothing.
    expect((await host.request('GET', `/workflows/${mine.id}/executions`)).body.data).toHaveLength(WAITS);
    expect((await other).status).toBe(200);

    // Callers that go away free their slots: the tenant can wait again at once.
    const gone = Array.from({ length: WAITS }, () => new AbortController());
    const abandoned = gone.map((c) => hook(mine.token, c.signal).catch(() => undefined));
    await new Promise((r) => setTimeout(r, 500));
    gone.forEach((c) => c.abort());
    await Promise.all(abandoned);
    await new Promise((r) => setTimeout(r, 200));
    expect((await hook(mine.token)).status).toBe(200);
  }, 60_000);
});
