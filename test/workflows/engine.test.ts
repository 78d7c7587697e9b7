/**
 * Spec 2, Workflows and Executions: a workflow stored per tenant and run by the engine, one bus
 * operation per node with a checkpoint (execution row + log row) after each.
 */
import type { TestHost } from '../../sdk/testing';
import { bigOrder, settled, sixNodes, smallOrder, startHost } from './support';

describe('spec 2 Workflows: create and run a 6-node workflow with a condition branch (manual trigger)', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('POST /workflows answers the created workflow with nodes, connections and the webhook secret once', async () => {
    const res = await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, data: { name: 'Big order follow-up', status: 'draft', trigger_type: 'manual', tags: ['orders'], execution_count: 0 } });
    expect(res.body.data.nodes).toHaveLength(6);
    expect(res.body.data.nodes[0]).toMatchObject({ node_type: 'workflows:manual-trigger', is_entry_point: true, retry_count: 0, timeout_seconds: 30 });
    expect(res.body.data.connections[2]).toMatchObject({ source_node_id: res.body.data.nodes[2].id, target_node_id: res.body.data.nodes[3].id, condition_path: 'true', source_handle: 'true', target_handle: 'input' });
    expect(res.body.data.webhook_secret).toMatch(/^whsec_/);
    const read = await host.request('GET', `/workflows/${res.body.data.id}`);
    expect(read.body.data.webhook_secret).toBeUndefined();
    expect(read.body.data.nodes.map((n: { label: string }) => n.label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail', 'Small']);
  });

  test('execute runs the true branch end to end: one log row per node reached, the mail sent', async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    const res = await host.request('POST', `/workflows/${wf.id}/execute`, { data: bigOrder });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), data: { execution_id: expect.any(String), status: 'pending' } });
    const run = await settled(host, res.body.data.execution_id);
    expect(run).toMatchObject({ status: 'completed', trigger_type: 'manual', nodes_total: 6, nodes_executed: 5, nodes_failed: 0, context: { variables: { customer: 'Asha' } }, resume_at: null });
    expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail']);
    expect(run.logs.every((l) => l.status === 'completed')).toBe(true);
    expect(run.logs[4]).toMatchObject({ input_data: { to: 'asha@example.com', subject: 'Thanks Asha', body: 'Your order of 250 is on its way.' }, output_data: { sent: true } });
    await host.waitForMail((m) => m.subject === 'Thanks Asha' && m.to.includes('asha@example.com'));
    const after = (await host.request('GET', `/workflows/${wf.id}`)).body.data;
    expect(after).toMatchObject({ execution_count: 1, success_count: 1, failure_count: 0 });
  });

  test('folded checkpoints (README, Execution model): effect-free nodes are written with the next checkpoint, a node with effects starts on a committed run', async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    const id = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: bigOrder })).body.data.execution_id;
    expect(await settled(host, id)).toMatchObject({ status: 'completed', nodes_executed: 5 });
    // The transaction that wrote each log row: one per checkpoint statement.
    const rows = await host.arrange((sql) => sql<{ node_label: string; tx: string }>('SELECT node_label, xmin::text AS tx FROM workflow_execution_logs WHERE execution_id = $1 ORDER BY position', [id]));
    const tx = Object.fromEntries(rows.map((r) => [r.node_label, r.tx]));
    expect(rows.map((r) => r.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Shape', 'Mail']);
    // The trigger runs in no time: its checkpoint always goes with the next effect-free node's.
    expect(tx.Start).toBe(tx.Remember);
    // Mail sends: Shape, before it, was committed on its own first, and Mail's is its own.
    expect(tx.Shape).not.toBe(tx.Mail);
  });

  test('the false branch runs the code node in the sandbox', async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    const id = (await host.request('POST', `/workflows/${wf.id}/execute`, { data: smallOrder })).body.data.execution_id;
    const run = await settled(host, id);
    expect(run.status).toBe('completed');
    expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'Remember', 'Big?', 'Small']);
    expect(run.result).toEqual({ result: 80 });
  });

  test('test runs for real before answering {execution_id, status, result}', async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }))).body.data;
    const res = await host.request('POST', `/workflows/${wf.id}/test`, { data: smallOrder });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ execution_id: expect.any(String), status: 'completed', result: { result: 80 } });
  });

  test('runs of two workflows at once: each its own log rows and result, each counted once by its workflow', async () => {
    // Checkpoints of concurrent runs share statements (group commit); nothing of one run may leak into another.
    const a = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }, { name: 'Concurrent A' }))).body.data;
    const b = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }, { name: 'Concurrent B' }))).body.data;
    const started = await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const [wf, order] = i % 2 ? [b, { total: 100 + i, customer: { name: `C${i}`, email: `c${i}@example.com` } }] : [a, { total: i, customer: { name: `C${i}`, email: `c${i}@example.com` } }];
        const res = await host.request('POST', `/workflows/${wf.id}/execute`, { data: order });
        return { id: res.body.data.execution_id as string, i };
      }),
    );
    for (const { id, i } of started) {
      const run = await settled(host, id);
      expect(run).toMatchObject({ status: 'completed', nodes_executed: i % 2 ? 5 : 4, context: { variables: { customer: `C${i}` } } });
      expect(run.logs.map((l) => l.node_label)).toEqual(i % 2 ? ['Start', 'Remember', 'Big?', 'Shape', 'Mail'] : ['Start', 'Remember', 'Big?', 'Small']);
      expect(run.logs[0]).toMatchObject({ output_data: { total: i % 2 ? 100 + i : i } });
      if (!(i % 2)) expect(run.result).toEqual({ result: i * 2 });
    }
    for (const wf of [a, b]) expect((await host.request('GET', `/workflows/${wf.id}`)).body.data).toMatchObject({ execution_count: 12, success_count: 12, failure_count: 0 });
  });

  test('spec 1 screens: the workflows list and the detail with its executions come from the manifest', async () => {
    const wf = (await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:manual-trigger' }, { name: 'Screened flow' }))).body.data;
    await settled(host, (await host.request('POST', `/workflows/${wf.id}/execute`, { data: smallOrder })).body.data.execution_id);
    const screens = (await host.request('GET', '/mobile/screens')).body.data.map((s: { id: string }) => s.id);
    expect(screens).toEqual(expect.arrayContaining(['workflows.list', 'workflows.detail']));
    const list = await host.request('GET', '/mobile/screens/workflows.list/data/workflows?search=Screened');
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { name: string }) => w.name)).toEqual(['Screened flow']);
    const runs = await host.request('GET', `/mobile/screens/workflows.detail/data/executions?id=${wf.id}`);
    expect(runs.status).toBe(200);
    expect(runs.body.data).toEqual([expect.objectContaining({ workflow_id: wf.id, status: 'completed' })]);
  });
});
