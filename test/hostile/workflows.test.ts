/**
 * Attacks on the workflow engine (spec 2, Workflows; Executions; Public webhook trigger): another
 * tenant's workflows and executions are not there; a webhook token runs only in its own tenant; a
 * code node's expression sees nothing of the host; oversized graphs are refused; a module starting a
 * workflow (workflow_engine.start) must consume it, reaches only its own tenant's active workflows,
 * and cannot pass an oversized payload.
 */
import type { TestHost } from '../../sdk/testing';
import { bigOrder, settled, sixNodes, startHost } from '../workflows/support';

describe('hostile: workflows across tenants, in the code node, by size', () => {
  let host: TestHost;
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

  beforeAll(async () => {
    host = await startHost();
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
  }, 240_000);
  afterAll(() => host?.close());

  test("another tenant's workflow and execution are 404 everywhere, and absent from its lists", async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    const run = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: { total: 1 } })).body.data.execution_id;
    await settled(host, run);
    for (const [method, path] of [
      ['GET', `/workflows/${wf.id}`], ['PUT', `/workflows/${wf.id}`], ['DELETE', `/workflows/${wf.id}`], ['POST', `/workflows/${wf.id}/execute`],
      ['POST', `/workflows/${wf.id}/simulate`], ['GET', `/workflows/${wf.id}/webhook-url`], ['GET', `/workflows/${wf.id}/export`],
      ['GET', `/workflow-executions/${run}`], ['POST', `/workflow-executions/${run}/retry`], ['POST', `/workflow-executions/${run}/cancel`],
    ]) {
      const res = await globex(method, path, method === 'GET' ? undefined : {});
      expect([path, res.status]).toEqual([path, 404]);
    }
    expect((await globex('GET', '/workflows')).body.data).toEqual([]);
    expect((await globex('GET', `/workflow-executions?workflow_id=${wf.id}`)).body.data).toEqual([]);
    expect((await host.request('GET', `/workflows/${wf.id}`)).status).toBe(200);
  });

  test("a webhook token runs its own tenant's workflow only", async () => {
    const mine = (await globex('POST', '/workflows', sixNodes({ node_type: 'workflows:webhook-trigger' }, { trigger_type: 'webhook' }))).body.data;
    expect((await globex('POST', `/workflows/${mine.id}/activate`)).status).toBe(200);
    const token = (await globex('GET', `/workflows/${mine.id}/webhook-url`)).body.data.token;
    const res = await fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { total: 5 } }) });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { data: { execution_id: string } }).data.execution_id;
    expect((await globex('GET', `/workflow-executions/${id}`)).status).toBe(200);
    expect((await host.request('GET', `/workflow-executions/${id}`)).status).toBe(404);
  });

  test('a code node sees no host: no process, require, host object or timers', async () => {
    const probe = '({ process: typeof process, require: typeof require, host: typeof host, setTimeout: typeof setTimeout, fetch: typeof fetch })';
    const wf = (await host.request('POST', '/workflows', {
      name: 'probe',
      nodes: [{ node_type: 'workflows:manual-trigger', label: 'Start' }, { node_type: 'workflows:code', label: 'Probe', config: { expression: probe } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    })).body.data;
    const res = await host.request('POST', `/workflows/${wf.id}/test`, { data: {} });
    expect(res.body.data.status).toBe('completed');
    expect(res.body.data.result).toEqual({ result: { process: 'undefined', require: 'undefined', host: 'undefined', setTimeout: 'undefined', fetch: 'undefined' } });
  });

  test("workflow_engine.start: only for modules that consume it, only the tenant's own active workflows, bounded data", async () => {
    const refused = (op: Promise<unknown>) => op.then(() => ({ code: 'none', status: 0 }), (e: { code: string; status: number }) => ({ code: e.code, status: e.status }));
    const mine = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    // A module that does not list it in api.consumes cannot start anything.
    expect(await refused(host.call('workflow_engine.start', { workflow_id: mine.id, data: bigOrder }, { asModule: 'workflows_code' }))).toEqual({ code: 'OPERATION_NOT_CONSUMED', status: 403 });
    // A draft does not start (nor, once deactivated, a paused one): a module's start is automatic.
    expect(await refused(host.call('workflow_engine.start', { workflow_id: mine.id, data: bigOrder }))).toEqual({ code: 'WORKFLOW_NOT_ACTIVE', status: 409 });
    // Another tenant's active workflow is not there.
    const theirs = (await globex('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    expect((await globex('POST', `/workflows/${theirs.id}/activate`)).status).toBe(200);
    expect(await refused(host.call('workflow_engine.start', { workflow_id: theirs.id, data: bigOrder }))).toEqual({ code: 'WORKFLOW_NOT_FOUND', status: 404 });
    expect((await globex('GET', `/workflow-executions?workflow_id=${theirs.id}`)).body.data).toEqual([]);
    // Trigger data over the execute limit is refused like POST /workflows/{id}/execute's; nothing runs.
    expect((await host.request('POST', `/workflows/${mine.id}/activate`)).status).toBe(200);
    expect(await refused(host.call('workflow_engine.start', { workflow_id: mine.id, data: { blob: 'x'.repeat(600 * 1024) } }))).toEqual({ code: 'VALIDATION_FAILED', status: 422 });
    expect((await host.request('GET', `/workflow-executions?workflow_id=${mine.id}`)).body.data).toEqual([]);
    // Once per key: the same key starts one run.
    const first = (await host.call('workflow_engine.start', { workflow_id: mine.id, data: bigOrder, key: 'k1' })) as { execution_id: string };
    expect(await host.call('workflow_engine.start', { workflow_id: mine.id, data: bigOrder, key: 'k1' })).toEqual({ execution_id: null, status: 'duplicate' });
    expect((await settled(host, first.execution_id)).status).toBe('completed');
  });

  test('a graph over the size limits is 422 and writes nothing', async () => {
    const nodes = Array.from({ length: 101 }, (_, i) => ({ node_type: 'workflows:transform', label: `T${i}`, config: { values: {} } }));
    const res = await host.request('POST', '/workflows', { name: 'huge', nodes });
    expect(res.status).toBe(422);
    expect(res.body.errors.nodes).toEqual([expect.stringContaining('at most 100')]);
    expect((await host.request('GET', '/workflows?search=huge')).body.data).toEqual([]);
  });
});
