/**
 * Error workflows (ours beside spec 2's Workflow settings; core/services/workflows/error-workflow.ts): a
 * workflow's settings.error_workflow_id names another workflow of the tenant with an error trigger,
 * which runs once per failed run with the failed run's context; the setting is checked on save; an
 * error workflow's own failure starts no other.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Node = Record<string, unknown>;
const manual: Node = { node_type: 'workflows:manual-trigger', label: 'Start' };
const errorTrigger: Node = { node_type: 'workflows:error-trigger', label: 'Failed' };
const boom = (label = 'Boom'): Node => ({ node_type: 'workflows:code', label, config: { expression: "(() => { throw new Error('boom') })()" } });
const chain = (name: string, nodes: Node[], extra: Record<string, unknown> = {}) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })), ...extra });
const report: Node = { node_type: 'workflows:transform', label: 'Report', config: { values: { node: '{{failed_node.label}}', message: '{{error.message}}', run: '{{execution_id}}' } } };

describe('spec 2 Workflow settings: the error workflow (ours)', () => {
  let host: TestHost;
  const create = async (body: unknown) => {
    const wf = await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    return wf.body.data.id as string;
  };
  const executions = async (workflowId: string) => (await host.request('GET', `/workflows/${workflowId}/executions`)).body.data as Array<{ id: string; status: string; trigger_type: string; trigger_data: Record<string, unknown> }>;
  const failRun = async (workflowId: string) => {
    const id = (await host.request('POST', `/workflows/${workflowId}/execute`, { data: { order: 7 } })).body.data.execution_id as string;
    expect((await settled(host, id)).status).toBe('failed');
    return id;
  };
  const oneExecution = (workflowId: string) =>
    host.eventually(async () => {
      const list = await executions(workflowId);
      if (list.length === 0) throw new Error('the error workflow has not started');
      return list;
    });

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test("a failed run starts the error workflow once, with the failed run's context as trigger data", async () => {
    const handler = await create(chain('on failure', [errorTrigger, report]));
    const failing = await create(chain('fails', [manual, boom()], { settings: { error_workflow_id: handler } }));
    const failed = await failRun(failing);
    const [run] = await oneExecution(handler);
    expect(run).toMatchObject({ trigger_type: 'error' });
    expect(run.trigger_data).toEqual({
      execution_id: failed, workflow_id: failing, workflow_name: 'fails',
      failed_node: { id: expect.any(String), label: 'Boom', node_type: 'workflows:code' },
      error: { message: expect.stringContaining('boom'), code: expect.any(String) }, trigger_data: { order: 7 }, failed_at: expect.any(String),
    });
    const done = await settled(host, run.id);
    expect(done).toMatchObject({ status: 'completed', result: { values: { node: 'Boom', message: expect.stringContaining('boom'), run: failed } } });
    // A run that succeeds starts nothing.
    const fine = await create(chain('works', [manual, report], { settings: { error_workflow_id: handler } }));
    expect((await settled(host, (await host.request('POST', `/workflows/${fine}/execute`, { data: {} })).body.data.execution_id)).status).toBe('completed');
    expect(await executions(handler)).toHaveLength(1);
  });

  test('the failure written a second time (a redelivered finish) starts no second error run: the trigger key', async () => {
    const handler = await create(chain('on failure, once', [errorTrigger, report]));
    const failing = await create(chain('fails twice', [manual, boom()], { settings: { error_workflow_id: handler } }));
    const failed = await failRun(failing);
    await oneExecution(handler);
    // What a job redelivered over the same failure leaves: the run back before its failing node.
    await host.arrange(async (sql) => {
      await sql("DELETE FROM workflow_execution_logs WHERE execution_id = $1 AND status = 'failed'", [failed]);
      await sql("UPDATE workflow_executions SET status = 'paused', completed_at = NULL, error_message = NULL, nodes_failed = 0 WHERE id = $1", [failed]);
    });
    expect((await host.request('POST', `/workflow-executions/${failed}/resume`)).status).toBe(200);
    expect((await settled(host, failed)).status).toBe('failed');
    await new Promise((r) => setTimeout(r, 500));
    expect(await executions(handler)).toHaveLength(1);
  });

  test('a failure checkpointed but not ended (the worker died between the two) is ended by the next worker: the node does not run again, the error workflow starts', async () => {
    const handler = await create(chain('after a crash', [errorTrigger, report]));
    const failing = await create(chain('fails, then the worker dies', [manual, boom()], { settings: { error_workflow_id: handler } }));
    const failed = await failRun(failing);
    const [first] = await oneExecution(handler);
    // What the node's failing checkpoint leaves when its worker dies before the run's end: the log row
    // and the failure written, the run not ended, no error run yet. Paused, so that resume re-drives it.
    await host.arrange(async (sql) => {
      await sql('DELETE FROM workflow_execution_logs WHERE execution_id = $1', [first.id]);
      await sql('DELETE FROM workflow_executions WHERE id = $1', [first.id]);
      await sql("UPDATE workflow_executions SET status = 'paused', completed_at = NULL, error_message = NULL WHERE id = $1", [failed]);
    });
    expect((await host.request('POST', `/workflow-executions/${failed}/resume`)).status).toBe(200);
    const done = await settled(host, failed);
    expect(done.status).toBe('failed');
    expect(done.error_message).toMatch(/Node "Boom" failed: .*boom/);
    expect(done.logs.filter((l) => l.node_label === 'Boom')).toHaveLength(1);
    const [again] = await oneExecution(handler);
    expect(again.trigger_data).toMatchObject({ execution_id: failed });
  });

  test("an error workflow's own failure starts no other error workflow (no loops)", async () => {
    const last = await create(chain('last resort', [errorTrigger, report]));
    const handler = await create(chain('failing handler', [errorTrigger, boom('Handler boom')], { settings: { error_workflow_id: last } }));
    const failing = await create(chain('fails first', [manual, boom()], { settings: { error_workflow_id: handler } }));
    await failRun(failing);
    const [run] = await oneExecution(handler);
    expect((await settled(host, run.id)).status).toBe('failed');
    await new Promise((r) => setTimeout(r, 500));
    expect(await executions(last)).toEqual([]);
  });

  test('on save: the error workflow must be another workflow of this tenant with an error trigger (422 naming the field)', async () => {
    const handler = await create(chain('handler', [errorTrigger, report]));
    const plain = await create(chain('no error trigger', [manual, report]));
    const field = 'settings.error_workflow_id';
    for (const id of ['not-a-uuid', '6f1c2b9e-1111-4a4a-9b9b-000000000000', plain, 7]) {
      const res = await host.request('POST', '/workflows', chain('bad setting', [manual, report], { settings: { error_workflow_id: id } }));
      expect([id, res.status]).toEqual([id, 422]);
      expect(res.body).toMatchObject({ success: false, message: 'Validation failed', errors: { [field]: [expect.any(String)] } });
    }
    const self = await host.request('PUT', `/workflows/${handler}`, { settings: { error_workflow_id: handler } });
    expect(self.status).toBe(422);
    expect(self.body.errors[field][0]).toMatch(/own error workflow/);
    const ok = await host.request('PUT', `/workflows/${plain}`, { settings: { error_workflow_id: handler } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.settings).toEqual({ error_workflow_id: handler });
  });

  test('simulate of an error workflow without data walks it with a sample failed run', async () => {
    const handler = await create(chain('simulated handler', [errorTrigger, report]));
    const sim = await host.request('POST', `/workflows/${handler}/simulate`, { data: {} });
    expect(sim.status).toBe(200);
    expect(sim.body.data.warnings).toEqual([]);
    expect(sim.body.data.steps[0]).toMatchObject({ label: 'Failed', mode: 'executed', reason: expect.stringContaining('sample') });
    expect(sim.body.data.steps[1]).toMatchObject({ label: 'Report', input: { values: { node: 'Failed node', message: 'A sample failure' } } });
  });
});
