/**
 * Spec 2, States and transitions: "any finished execution → retry → a new execution with the same
 * trigger data", and our additions (core/services/workflows/README.md, Retry): from the node a run failed at
 * with its context, on its own version or the current one (409 when that node is gone), and the bulk
 * retry that takes each failed run once however many calls race.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
const BROKEN = '(() => { throw new Error("not yet") })()';
/** Start → Remember (a variable) → Greet (a code node reading it). */
const graph = (greet: string) => ({
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'workflows:set-variable', label: 'Remember', config: { name: 'who', value: '{{name}}' } },
    { node_type: 'workflows:code', label: 'Greet', config: { expression: greet, data: '{{variables.who}}' } },
  ],
  connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }],
});

describe('spec 2 States and transitions: retry from the failed node, on the same or the current version; bulk retry', () => {
  let host: TestHost;
  const failedRun = async (name: string, data: Json = { name: 'Asha' }) => {
    const wf = (await host.request('POST', '/workflows', { name, ...graph(BROKEN) })).body.data;
    const run = await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data })).body.data.execution_id);
    expect([run.status, run.logs.map((l) => [l.node_label, l.status])]).toEqual(['failed', [['Start', 'completed'], ['Remember', 'completed'], ['Greet', 'failed']]]);
    return { wf, run };
  };
  const fix = async (wf: Json) => {
    const put = await host.request('PUT', `/workflows/${wf.id}`, { nodes: [wf.nodes[0], wf.nodes[1], { ...wf.nodes[2], config: { expression: '"hello " + data', data: '{{variables.who}}' } }], connections: graph('').connections });
    expect(put.body.data.version).toBe(2);
  };
  const retry = (id: string, body?: Json) => host.request('POST', `/workflow-executions/${id}/retry`, body);

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('no body keeps the spec meaning: the whole run again from its trigger on the current version', async () => {
    const { wf, run } = await failedRun('whole');
    await fix(wf);
    const res = await retry(run.id as string);
    expect(res.body).toEqual({ success: true, message: 'Execution retried', data: { execution_id: expect.any(String) } });
    const again = await settled(host, res.body.data.execution_id);
    expect(again).toMatchObject({ status: 'completed', workflow_version: 2, retry_of: run.id, trigger_data: { name: 'Asha' }, result: { result: 'hello Asha' } });
    expect(again.logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Greet']);
    expect((await host.request('GET', `/workflow-executions/${run.id}`)).body.data.retried_by).toBe(res.body.data.execution_id);
  });

  test('from the failed node on the current version: only that node runs, with the failed run\'s context', async () => {
    const { wf, run } = await failedRun('current');
    await fix(wf);
    const res = await retry(run.id as string, { from: 'failed_node', version: 'current' });
    const again = await settled(host, res.body.data.execution_id);
    expect(again).toMatchObject({ status: 'completed', workflow_version: 2, result: { result: 'hello Asha' }, context: { variables: { who: 'Asha' } } });
    expect(again.logs.map((l) => [l.node_label, l.node_id])).toEqual([['Greet', wf.nodes[2].id]]);
  });

  test('from the failed node on the same version: it fails there again; an unknown option is 422; a completed run is 400', async () => {
    const { wf, run } = await failedRun('same');
    await fix(wf);
    const again = await settled(host, (await retry(run.id as string, { from: 'failed_node' })).body.data.execution_id);
    expect([again.status, again.workflow_version, again.logs.map((l) => l.node_label)]).toEqual(['failed', 1, ['Greet']]);
    expect((await retry(run.id as string, { from: 'middle' })).status).toBe(422);
    const ok = await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: { name: 'Ravi' } })).body.data.execution_id);
    const refused = await retry(ok.id as string, { from: 'failed_node' });
    expect([refused.status, refused.body.message]).toEqual([400, 'Invalid request']);
  });

  test('from the failed node on the current version when that node was removed: 409 naming it, nothing started', async () => {
    const { wf, run } = await failedRun('removed');
    await host.request('PUT', `/workflows/${wf.id}`, { nodes: wf.nodes.slice(0, 2), connections: [{ source_node_index: 0, target_node_index: 1 }] });
    const before = (await host.request('GET', `/workflow-executions?workflow_id=${wf.id}`)).body.meta.total;
    const res = await retry(run.id as string, { from: 'failed_node', version: 'current' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, code: 'RETRY_NODE_REMOVED', message: expect.stringContaining(wf.nodes[2].id) });
    expect((await host.request('GET', `/workflow-executions?workflow_id=${wf.id}`)).body.meta.total).toBe(before);
  });

  test('bulk retry: concurrent calls retry each failed run once and say which; a second round finds none', async () => {
    const { wf, run: first } = await failedRun('bulk');
    const others = [];
    for (const name of ['Ravi', 'Mina']) others.push(await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: { name } })).body.data.execution_id));
    await fix(wf);
    const body = { workflow_id: wf.id, status: 'failed', from: 'failed_node', version: 'current' };
    const calls = await Promise.all([1, 2, 3].map(() => host.request('POST', '/workflow-executions/retry', body)));
    for (const c of calls) expect(c.status).toBe(200);
    const taken = calls.flatMap((c) => c.body.data.executions as Json[]);
    expect(calls.reduce((n, c) => n + c.body.data.retried, 0)).toBe(3);
    expect(taken.map((t) => t.execution_id).sort()).toEqual([first.id, ...others.map((o) => o.id)].sort());
    const results = await Promise.all(taken.map(async (t) => (await settled(host, t.retry_execution_id)).result));
    expect(results.map((r) => (r as Json).result).sort()).toEqual(['hello Asha', 'hello Mina', 'hello Ravi']);
    expect((await host.request('POST', '/workflow-executions/retry', body)).body.data).toEqual({ retried: 0, executions: [], skipped: [] });
  });

  test('bulk retry: ids, max and bad filters', async () => {
    const { wf, run } = await failedRun('bulk-ids');
    const two = await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: { name: 'B' } })).body.data.execution_id);
    const one = await host.request('POST', '/workflow-executions/retry', { ids: [run.id, two.id], max: 1 });
    expect(one.body.data).toMatchObject({ retried: 1, executions: [{ execution_id: run.id, retry_execution_id: expect.any(String) }] });
    for (const bad of [{ status: 'running' }, { ids: ['x'] }, { max: 0 }, { since: 'yesterday' }, { workflow_id: 'nope' }]) {
      const res = await host.request('POST', '/workflow-executions/retry', bad);
      expect([JSON.stringify(bad), res.status, res.body.message]).toEqual([JSON.stringify(bad), 422, 'Validation failed']);
    }
    await settled(host, one.body.data.executions[0].retry_execution_id);
  });
});
