/**
 * Spec 2, Public webhook trigger, with trigger_config.respond (ours; core/services/workflows/webhook-respond.ts):
 * "immediately" (the default) answers the spec's {execution_id} at once; "last_node" waits for the
 * run's end and answers its last node's output, the run's error (422) when it fails, or 202 with
 * the execution id when respond_timeout_seconds passes first (the run goes on). Checked on save.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Node = Record<string, unknown>;
const hookTrigger: Node = { node_type: 'workflows:webhook-trigger', label: 'Hook' };
const chain = (name: string, nodes: Node[], triggerConfig: Record<string, unknown>) => ({
  name, trigger_type: 'webhook', trigger_config: triggerConfig, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })),
});
const answer: Node = { node_type: 'workflows:transform', label: 'Answer', config: { values: { total: '{{total}}', doubled: '{{nodes.Double.output.result}}' } } };
const double: Node = { node_type: 'workflows:code', label: 'Double', config: { expression: 'data.total * 2', data: '{{trigger.data}}' } };

describe('spec 2 Public webhook trigger: respond "last_node" (ours)', () => {
  let host: TestHost;
  const hookOf = async (body: unknown) => {
    const wf = await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    expect((await host.request('POST', `/workflows/${wf.body.data.id}/activate`)).status).toBe(200);
    return (await host.request('GET', `/workflows/${wf.body.data.id}/webhook-url`)).body.data.token as string;
  };
  const call = async (token: string, data: unknown) => {
    const res = await fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  };

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test("last_node: the call answers once the run has finished, with the last node's output", async () => {
    const token = await hookOf(chain('answers', [hookTrigger, double, answer], { respond: 'last_node' }));
    const res = await call(token, { total: 21 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Workflow completed', data: { execution_id: expect.any(String), status: 'completed', output: { values: { total: 21, doubled: 42 } } } });
    expect((await host.request('GET', `/workflow-executions/${res.body.data.execution_id}`)).body.data.status).toBe('completed');
  });

  test("last_node: the call wakes on the run's finish (pub/sub), not on the slow poll", async () => {
    const token = await hookOf(chain('wakes', [hookTrigger, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 1 } }, answer], { respond: 'last_node' }));
    const t0 = Date.now();
    const res = await call(token, { total: 3 });
    expect(res.status).toBe(200);
    expect(res.body.data.output).toMatchObject({ values: { total: 3 } });
    // The fallback poll is every 5 s: an answer well before it came from the finish message.
    expect(Date.now() - t0).toBeLessThan(3_500);
  });

  test('last_node: a failed run answers 422 with its error', async () => {
    const token = await hookOf(chain('fails', [hookTrigger, { node_type: 'workflows:code', label: 'Boom', config: { expression: "(() => { throw new Error('boom') })()" } }], { respond: 'last_node' }));
    const res = await call(token, {});
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false, message: 'Workflow execution failed', code: 'WORKFLOW_RUN_FAILED',
      errors: { execution: [expect.stringContaining('boom')] }, data: { execution_id: expect.any(String), status: 'failed' },
    });
  });

  test('last_node: past respond_timeout_seconds the call answers 202 with the execution id, and the run goes on', async () => {
    const token = await hookOf(chain('slow', [hookTrigger, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 3 } }, answer], { respond: 'last_node', respond_timeout_seconds: 1 }));
    const t0 = Date.now();
    const res = await call(token, { total: 5 });
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ success: true, message: 'Workflow still running', data: { execution_id: expect.any(String), status: 'running' } });
    expect((await settled(host, res.body.data.execution_id)).status).toBe('completed');
  });

  test('immediately (the default) keeps the spec answer: {execution_id} before the run ends', async () => {
    const token = await hookOf(chain('at once', [hookTrigger, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 30 } }, answer], {}));
    const t0 = Date.now();
    const res = await call(token, { total: 5 });
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Workflow triggered', data: { execution_id: expect.any(String) } });
  });

  test('on save: respond and respond_timeout_seconds are checked (422 naming the field)', async () => {
    for (const [config, field] of [
      [{ respond: 'later' }, 'trigger_config.respond'], [{ respond: 'last_node', respond_timeout_seconds: 0 }, 'trigger_config.respond_timeout_seconds'],
      [{ respond: 'last_node', respond_timeout_seconds: 121 }, 'trigger_config.respond_timeout_seconds'], [{ respond_timeout_seconds: '30' }, 'trigger_config.respond_timeout_seconds'],
    ] as const) {
      const res = await host.request('POST', '/workflows', chain('bad respond', [hookTrigger, answer], config));
      expect([config, res.status]).toEqual([config, 422]);
      expect(res.body.errors[field]).toEqual([expect.any(String)]);
    }
  });
});
