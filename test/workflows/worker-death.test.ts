/**
 * Spec 2, Execution (a run survives a killed worker and finishes once): a workflow run whose node is
 * SIGKILLed mid-run is taken up by another node from its last checkpoint and completes exactly once,
 * with one log row per node. Each node is a real platform process (core/main.ts) on one central
 * database and one Redis, as in test/jobs/node-death.test.ts.
 */
import { eventually } from '../support/eventually';
import { startServingNode } from '../support/platform-process';
import { describeWithRedis } from '../support/two-nodes';
import { installOwner } from '../support/test-platform';
import { workflowProcesses } from './processes';

const SLOW = '(() => { const t = Date.now(); while (Date.now() - t < 700) {} return data; })()';
const STEPS = 8;

describeWithRedis('spec 2 Execution: a run whose worker is killed mid-run completes exactly once on another node', () => {
  // The test polls the execution.
  const { env, nodes, made } = workflowProcesses({ QUEUE_LOCK_MS: '1000', QUEUE_STALLED_CHECK_MS: '200', WORKFLOW_RATE_LIMIT: '100000/60' });

  test('SIGKILL during a node: node B continues from the checkpoint; one log row per node; counted once', async () => {
    const { node: a, api: apiA } = await startServingNode(env, nodes);
    const owner = await installOwner(apiA);
    const token = owner.token;
    made.tenantId = owner.tenantId;
    for (const alias of ['workflows_code', 'workflows']) expect((await apiA(`/modules/${alias}/install`, { token, tenant: 'acme', body: {} })).status).toBe(201);

    const nodesIn = [{ node_type: 'workflows:manual-trigger', label: 'Start' }, ...Array.from({ length: STEPS }, (_, i) => ({ node_type: 'workflows:code', label: `Step ${i}`, config: { expression: SLOW, data: '{{n}}' } }))];
    const created = await apiA('/workflows', {
      token, tenant: 'acme',
      body: { name: 'long', nodes: nodesIn, connections: nodesIn.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) },
    });
    expect(created.status).toBe(201);
    const run = await apiA(`/workflows/${created.body.data.id}/execute`, { token, tenant: 'acme', body: { data: { n: 7 } } });
    const id = run.body.data.execution_id as string;
    const execution = (api: typeof apiA) =>
      api(`/workflow-executions/${id}`, { token, tenant: 'acme' }).then((r) => {
        // A node still warming up may answer an error for a moment: seen as a status, probed again.
        return r.status === 200 ? r.body.data : { status: `http ${r.status}`, body: r.body };
      });
    const midway = await eventually(() => execution(apiA), (e) => e.nodes_executed >= 2, 20_000);
    expect(midway.status).toBe('running');

    const exited = new Promise((resolve) => a.child.on('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;

    const { api: apiB } = await startServingNode(env, nodes);
    const done = await eventually(() => execution(apiB), (e) => e.status === 'completed' || e.status === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed', nodes_executed: STEPS + 1, nodes_failed: 0, result: { result: 7 } });
    await new Promise((r) => setTimeout(r, 1500));
    const after = await execution(apiB);
    expect(after.logs.map((l: { node_label: string; status: string }) => [l.node_label, l.status])).toEqual(nodesIn.map((n) => [n.label, 'completed']));
    const wf = (await apiB(`/workflows/${created.body.data.id}`, { token, tenant: 'acme' })).body.data;
    expect(wf).toMatchObject({ execution_count: 1, success_count: 1 });
  }, 240_000);
});
