/**
 * Spec 2, Execution (a suspended run wakes at resume_at; a run continues from its last checkpoint)
 * on the default path, in-process drivers and no Redis: the wake-up job of a run in a Delay and the
 * job of a run in the middle of a node die with their process. A real platform process
 * (core/main.ts) is SIGKILLed with one run of each kind; the next process's sweeper finds them
 * (a due suspended run; a running run whose lease expired) and each completes exactly once, with
 * one log row per node and the workflow counted once.
 */
import { eventually } from '../support/eventually';
import { startServingNode } from '../support/platform-process';
import { installOwner } from '../support/test-platform';
import { workflowProcesses } from './processes';

const SLOW = '(() => { const t = Date.now(); while (Date.now() - t < 700) {} return data; })()';
const STEPS = 6;
type Api = Awaited<ReturnType<typeof startServingNode>>['api'];

describe('spec 2 Execution: runs survive a restart of the only node (in-process drivers)', () => {
  // No Redis: the default path. A short lease and sweep so the test need not wait a minute.
  const { env, nodes, made } = workflowProcesses({ REDIS_URL: '', WORKFLOW_RATE_LIMIT: '100000/60', WORKFLOW_SWEEP_SECONDS: '1', WORKFLOW_RUN_LEASE_SECONDS: '3' });

  test('SIGKILL with one run in a Delay and one mid-node: the next process completes each once', async () => {
    const { node: a, api: apiA } = await startServingNode(env, nodes);
    const owner = await installOwner(apiA);
    const token = owner.token;
    made.tenantId = owner.tenantId;
    for (const alias of ['workflows_code', 'workflows']) expect((await apiA(`/modules/${alias}/install`, { token, tenant: 'acme', body: {} })).status).toBe(201);
    const chain = (nodesIn: object[]) => ({ nodes: nodesIn, connections: nodesIn.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) });
    const create = async (name: string, nodesIn: { node_type: string; label: string; config?: object }[]) => {
      const created = await apiA('/workflows', { token, tenant: 'acme', body: { name, ...chain(nodesIn) } });
      expect(created.status).toBe(201);
      const run = await apiA(`/workflows/${created.body.data.id}/execute`, { token, tenant: 'acme', body: { data: { n: 7 } } });
      expect(run.status).toBe(200);
      return { workflowId: created.body.data.id as string, id: run.body.data.execution_id as string, labels: nodesIn.map((n) => n.label) };
    };
    const delayed = await create('delayed', [
      { node_type: 'workflows:manual-trigger', label: 'Start' },
      { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 4 } },
      { node_type: 'workflows:set-variable', label: 'After', config: { name: 'n', value: '{{n}}' } },
    ]);
    const slow = await create('slow', [
      { node_type: 'workflows:manual-trigger', label: 'Start' },
      ...Array.from({ length: STEPS }, (_, i) => ({ node_type: 'workflows:code', label: `Step ${i}`, config: { expression: SLOW, data: '{{n}}' } })),
    ]);

    const execution = (api: Api, id: string) =>
      api(`/workflow-executions/${id}`, { token, tenant: 'acme' }).then((r) => (r.status === 200 ? r.body.data : { status: `http ${r.status}`, body: r.body }));
    const suspended = await eventually(() => execution(apiA, delayed.id), (e) => e.resume_at !== null && e.nodes_executed === 2, 20_000);
    expect(suspended.status).toBe('running');
    const midway = await eventually(() => execution(apiA, slow.id), (e) => e.nodes_executed >= 2, 20_000);
    expect(midway.status).toBe('running');

    const exited = new Promise((resolve) => a.child.on('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;

    const { api: apiB } = await startServingNode(env, nodes);
    for (const run of [delayed, slow]) {
      const done = await eventually(() => execution(apiB, run.id), (e) => e.status === 'completed' || e.status === 'failed', 60_000);
      expect(done).toMatchObject({ status: 'completed', nodes_executed: run.labels.length, nodes_failed: 0 });
    }
    // Two more sweeps: nothing runs a finished run again.
    await new Promise((r) => setTimeout(r, 2500));
    for (const run of [delayed, slow]) {
      const after = await execution(apiB, run.id);
      expect(after.logs.map((l: { node_label: string; status: string }) => [l.node_label, l.status])).toEqual(run.labels.map((label) => [label, 'completed']));
      expect((await apiB(`/workflows/${run.workflowId}`, { token, tenant: 'acme' })).body.data).toMatchObject({ execution_count: 1, success_count: 1 });
    }
  }, 240_000);
});
