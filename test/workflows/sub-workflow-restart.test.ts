/**
 * Spec 2, Execution (a run survives a killed worker) for the sub-workflow node (core/services/workflows/README.md,
 * Sub-workflows): a parent waiting for its child holds no worker and keeps its wait in the database,
 * so when its node is SIGKILLed while the child is suspended, another node finishes the child, the
 * child's end wakes the parent, and the parent completes with the child's result. Each node is a real
 * platform process (core/main.ts) on one central database and one Redis, as in worker-death.test.ts.
 */
import { eventually } from '../support/eventually';
import { startServingNode } from '../support/platform-process';
import { describeWithRedis } from '../support/two-nodes';
import { installOwner } from '../support/test-platform';
import { workflowProcesses } from './processes';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

describeWithRedis('spec 2 Execution: a parent waiting on a sub-workflow survives the restart of its node', () => {
  const { env, nodes, made } = workflowProcesses({ QUEUE_LOCK_MS: '1000', QUEUE_STALLED_CHECK_MS: '200', WORKFLOW_RATE_LIMIT: '100000/60' });

  test('SIGKILL while the parent waits: on node B the child finishes, wakes the parent, and the parent completes with its result', async () => {
    const { node: a, api: apiA } = await startServingNode(env, nodes);
    const owner = await installOwner(apiA);
    const { token } = owner;
    made.tenantId = owner.tenantId;
    for (const alias of ['workflows_code', 'workflows']) expect((await apiA(`/modules/${alias}/install`, { token, tenant: 'acme', body: {} })).status).toBe(201);
    const as = { token, tenant: 'acme' };
    const make = async (name: string, nodesIn: Json[]) => {
      const made = await apiA('/workflows', { ...as, body: { name, nodes: nodesIn, connections: nodesIn.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) } });
      expect(made.status).toBe(201);
      return made.body.data.id as string;
    };
    const start = { node_type: 'workflows:manual-trigger', label: 'Start' };
    const child = await make('child', [start, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 4 } }, { node_type: 'workflows:code', label: 'Triple', config: { expression: 'data.n * 3', data: '{{trigger.data}}' } }]);
    expect((await apiA(`/workflows/${child}/activate`, { ...as, body: {} })).status).toBe(200);
    const parent = await make('parent', [start, { node_type: 'workflows:sub-workflow', label: 'Call', config: { workflow_id: child, data: { n: '{{n}}' } } }]);
    const id = (await apiA(`/workflows/${parent}/execute`, { ...as, body: { data: { n: 5 } } })).body.data.execution_id as string;
    const read = (api: typeof apiA, path: string) => api(path, as).then((r) => (r.status === 200 ? r.body.data : { status: `http ${r.status}` }));

    // Waiting: the parent is running with its recheck due, the child suspended in its delay.
    const waiting = await eventually(() => read(apiA, `/workflow-executions/${id}`), (e) => e.status === 'running' && e.resume_at !== null, 20_000);
    expect(waiting.nodes_executed).toBe(1);
    const [childRun] = await eventually(() => read(apiA, `/workflow-executions?workflow_id=${child}`), (rows) => Array.isArray(rows) && rows[0]?.resume_at, 20_000);
    expect(childRun).toMatchObject({ status: 'running', parent_execution_id: id });

    const exited = new Promise((resolve) => a.child.on('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;

    const { api: apiB } = await startServingNode(env, nodes);
    // Well before the parent's 60 s recheck: the child's end wakes it.
    const done = await eventually(() => read(apiB, `/workflow-executions/${id}`), (e) => e.status === 'completed' || e.status === 'failed', 40_000);
    expect(done).toMatchObject({ status: 'completed', result: { result: 15 }, resume_at: null });
    expect(done.logs.map((l: Json) => [l.node_label, l.status, l.output_data])).toEqual([['Start', 'completed', { n: 5 }], ['Call', 'completed', { result: 15 }]]);
  }, 240_000);
});
