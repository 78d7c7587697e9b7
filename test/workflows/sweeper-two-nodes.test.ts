/**
 * Spec 2, Execution (a suspended run wakes once) with two nodes: two real platform processes on one
 * central database and one Redis both sweep every second for runs nobody holds, with a lease of one
 * second, while each suspended run's own delayed bull job also wakes it. Every run completes once:
 * one log row per node, one call of the node after the Delay (counted in the bus's audit, which
 * records every call), the workflow counted once per run. Two sweeps claim disjoint runs (a
 * conditional claim that skips rows another sweep is taking), and a claimed run is queued under the
 * id of its own wake-up job, so the queue absorbs the copy.
 */
import { Client } from 'pg';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { eventually } from '../support/eventually';
import { startServingNode } from '../support/platform-process';
import { describeWithRedis } from '../support/two-nodes';
import { installOwner, testServerUrl } from '../support/test-platform';
import { workflowProcesses } from './processes';

const RUNS = 20;

describeWithRedis('spec 2 Execution: two nodes sweeping one database run each due run once', () => {
  const { env, nodes, made, centralDb } = workflowProcesses({ WORKFLOW_RATE_LIMIT: '100000/60', WORKFLOW_EXECUTE_RATE_LIMIT: '100000/60', WORKFLOW_SWEEP_SECONDS: '1', WORKFLOW_RUN_LEASE_SECONDS: '1' });

  test(`${RUNS} runs through a Delay, woken by their jobs and by two sweeping nodes: each node of each run runs once`, async () => {
    const { api: apiA } = await startServingNode(env, nodes);
    const owner = await installOwner(apiA);
    const token = owner.token;
    made.tenantId = owner.tenantId;
    for (const alias of ['workflows_code', 'workflows']) expect((await apiA(`/modules/${alias}/install`, { token, tenant: 'acme', body: {} })).status).toBe(201);
    const { api: apiB } = await startServingNode(env, nodes);

    const labels = ['Start', 'Wait', 'After'];
    const created = await apiA('/workflows', {
      token, tenant: 'acme',
      body: {
        name: 'delayed',
        nodes: [
          { node_type: 'workflows:manual-trigger', label: 'Start' },
          { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 2 } },
          { node_type: 'workflows:set-variable', label: 'After', config: { name: 'n', value: '{{n}}' } },
        ],
        connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }],
      },
    });
    expect(created.status).toBe(201);
    const ids: string[] = [];
    for (let n = 0; n < RUNS; n++) {
      const res = await (n % 2 ? apiB : apiA)(`/workflows/${created.body.data.id}/execute`, { token, tenant: 'acme', body: { data: { n } } });
      expect(res.status).toBe(200);
      ids.push(res.body.data.execution_id);
    }
    const execution = (id: string) => apiB(`/workflow-executions/${id}`, { token, tenant: 'acme' }).then((r) => (r.status === 200 ? r.body.data : { status: `http ${r.status}` }));
    for (const id of ids) {
      const done = await eventually(() => execution(id), (e) => e.status === 'completed' || e.status === 'failed', 60_000);
      expect(done).toMatchObject({ status: 'completed', nodes_executed: 3 });
    }
    // Several more sweeps on both nodes, and the audit's batches written.
    await new Promise((r) => setTimeout(r, 4000));
    for (const id of ids) expect((await execution(id)).logs.map((l: { node_label: string; status: string }) => [l.node_label, l.status])).toEqual(labels.map((l) => [l, 'completed']));
    expect((await apiA(`/workflows/${created.body.data.id}`, { token, tenant: 'acme' })).body.data).toMatchObject({ execution_count: RUNS, success_count: RUNS });

    const db = new Client({ connectionString: databaseUrl(testServerUrl(), centralDb) });
    await db.connect();
    try {
      const { rows } = await db.query<{ run: string; calls: number }>(
        "SELECT split_part(details->>'request_id', ':', 1) AS run, count(*)::int AS calls FROM audit_log WHERE tenant_id = $1 AND action = 'workflows.set_variable' GROUP BY 1",
        [made.tenantId],
      );
      expect(Object.fromEntries(rows.map((r) => [r.run, r.calls]))).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    } finally {
      await db.end();
    }
  }, 240_000);
});
