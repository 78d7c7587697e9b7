/**
 * Attacks on workflow versions and retries (spec 2, Workflows; Executions; core/services/workflows/README.md,
 * Versions and Retry): another tenant's versions and executions are 404 with nothing of them in the
 * answer, and a bulk retry naming them retries nothing; a member without workflows.manage cannot
 * restore; a version holds no more than a save may (100 nodes, 400 connections); a flood of saves
 * keeps WORKFLOW_VERSIONS_KEEP versions, plus the one a waiting run is pinned to, which finishes on it.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
const KEEP = 3;
const chain = (name: string, nodes: Json[]) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) });
const trigger = { node_type: 'workflows:manual-trigger', label: 'Start' };
const failing = { node_type: 'workflows:code', label: 'Boom', config: { expression: '(() => { throw new Error("boom") })()' } };

describe('hostile: workflow versions and retries across tenants, by permission, by size', () => {
  let host: TestHost;
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  const versionCount = async (id: string) => (await host.request('GET', `/workflows/${id}/versions`)).body.meta.total as number;

  beforeAll(async () => {
    host = await startHost({ WORKFLOW_VERSIONS_KEEP: String(KEEP) });
    const made = await host.request('POST', '/admin/tenants', { name: 'Globex', alias: 'globex' });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    for (const alias of ['workflows_code', 'workflows']) await host.installModule(alias, { tenant: made.body.tenant.id });
    const { token } = await host.addMember({ email: 'gina@globex.example', role: 'admin' }, made.body.tenant.id);
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

  test("another tenant's versions and failed runs are 404 with nothing of them leaked; a bulk retry naming them retries none", async () => {
    const wf = (await host.request('POST', '/workflows', chain('Secret plan', [trigger, failing]))).body.data;
    await host.request('PUT', `/workflows/${wf.id}`, { description: 'v2' });
    const run = await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: { code: 'hidden' } })).body.data.execution_id);
    expect(run.status).toBe('failed');
    for (const [method, path, body] of [
      ['GET', `/workflows/${wf.id}/versions`], ['GET', `/workflows/${wf.id}/versions/1`], ['POST', `/workflows/${wf.id}/versions/1/restore`, {}],
      ['POST', `/workflow-executions/${run.id}/retry`, { from: 'failed_node', version: 'same' }], ['POST', `/workflow-executions/${run.id}/retry`, {}],
    ] as const) {
      const res = await globex(method, path, body);
      expect([path, res.status]).toEqual([path, 404]);
      expect(JSON.stringify(res.body)).not.toMatch(/Secret plan|hidden|Boom/);
    }
    const bulk = await globex('POST', '/workflow-executions/retry', { ids: [run.id], workflow_id: wf.id });
    expect(bulk.body.data).toEqual({ retried: 0, executions: [], skipped: [] });
    expect((await host.request('GET', `/workflow-executions/${run.id}`)).body.data.retried_by).toBeNull();
    expect((await host.request('GET', `/workflows/${wf.id}`)).body.data.version).toBe(2);
  });

  test('a member without workflows.manage may read versions but not restore one: 403, nothing changed', async () => {
    const wf = (await host.request('POST', '/workflows', chain('guarded', [trigger, { node_type: 'workflows:transform', label: 'T', config: { values: {} } }]))).body.data;
    await host.request('PUT', `/workflows/${wf.id}`, { description: 'v2' });
    const runner = await host.memberWith('wf-runner', ['workflows.view', 'workflows.execute']);
    expect((await host.requestAs(runner, 'GET', `/workflows/${wf.id}/versions/1`)).status).toBe(200);
    const res = await host.requestAs(runner, 'POST', `/workflows/${wf.id}/versions/1/restore`);
    expect([res.status, res.body.success]).toEqual([403, false]);
    expect((await host.request('GET', `/workflows/${wf.id}`)).body.data).toMatchObject({ version: 2, description: 'v2', owner_id: wf.owner_id });
  });

  test('a save over the size limits makes no version', async () => {
    const wf = (await host.request('POST', '/workflows', chain('sized', [trigger]))).body.data;
    const nodes = Array.from({ length: 101 }, (_, i) => ({ node_type: 'workflows:transform', label: `T${i}`, config: { values: {} } }));
    expect((await host.request('PUT', `/workflows/${wf.id}`, { nodes })).status).toBe(422);
    const connections = Array.from({ length: 401 }, () => ({ source_node_index: 0, target_node_index: 1 }));
    expect((await host.request('PUT', `/workflows/${wf.id}`, { nodes: nodes.slice(0, 2), connections })).status).toBe(422);
    expect(await versionCount(wf.id)).toBe(1);
  });

  test(`a flood of saves keeps ${KEEP} versions and the one a waiting run is pinned to, on which it finishes`, async () => {
    const wf = (await host.request('POST', '/workflows', chain('flood', [trigger, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 4 } }, { node_type: 'workflows:transform', label: 'Done', config: { values: { v: 1 } } }]))).body.data;
    const runId = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: {} })).body.data.execution_id;
    const edges = [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }];
    for (let i = 2; i <= 15; i++) expect((await host.request('PUT', `/workflows/${wf.id}`, { description: `save ${i}`, nodes: [wf.nodes[0], wf.nodes[1], { ...wf.nodes[2], config: { values: { v: i } } }], connections: edges })).status).toBe(200);
    const kept = (await host.request('GET', `/workflows/${wf.id}/versions?per_page=100`)).body.data.map((v: Json) => v.version);
    expect(kept).toEqual([15, 14, 13, 1]);
    const run = await settled(host, runId);
    expect([run.status, run.workflow_version, run.result]).toEqual(['completed', 1, { values: { v: 1 } }]);
    await host.request('PUT', `/workflows/${wf.id}`, { description: 'after' });
    expect((await host.request('GET', `/workflows/${wf.id}/versions`)).body.data.map((v: Json) => v.version)).toEqual([16, 15, 14]);
  });
});
