/**
 * An anonymous caller of a workflow's public webhook (spec 2, Public webhook trigger) controls the
 * trigger data, and the trigger data fills a code node's placeholders. Placeholders reach the
 * expression only as data (modules/workflows README, The code node's data model): text that would
 * break out of the code runs nothing, in a run or a simulation, and cannot take over the tenant's
 * evaluator for later runs. A real platform over HTTP and PostgreSQL.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

const EXPRESSION = "({ doubled: {{total}} * 2, greeting: 'Hi ' + {{customer.name}} })";

describe('hostile: code-breaking text in an anonymous webhook payload', () => {
  let host: TestHost;
  let workflowId: string;
  let token: string;

  /** Fires the webhook without credentials; answers the settled run. */
  const fire = async (data: unknown) => {
    const res = await fetch(`${host.url}/api/webhooks/workflows/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    expect(res.status).toBe(200);
    return settled(host, ((await res.json()) as { data: { execution_id: string } }).data.execution_id);
  };

  beforeAll(async () => {
    host = await startHost();
    const made = await host.request('POST', '/workflows', {
      name: 'Greet',
      trigger_type: 'webhook',
      nodes: [{ node_type: 'workflows:webhook-trigger', label: 'Hook' }, { node_type: 'workflows:code', label: 'Greet', config: { expression: EXPRESSION } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    workflowId = made.body.data.id;
    expect((await host.request('POST', `/workflows/${workflowId}/activate`)).status).toBe(200);
    token = (await host.request('GET', `/workflows/${workflowId}/webhook-url`)).body.data.token;
  }, 240_000);
  afterAll(() => host?.close());

  test('a legitimate payload fills the placeholders as values', async () => {
    const run = await fire({ total: 21, customer: { name: 'Asha' } });
    expect(run).toMatchObject({ status: 'completed', result: { result: { doubled: 42, greeting: 'Hi Asha' } } });
    // What the node was given: the expression as written, and the values beside it.
    expect(run.logs[1]).toMatchObject({ node_label: 'Greet', input_data: { expression: EXPRESSION, placeholders: { total: 21, 'customer.name': 'Asha' } } });
  });

  test('code in the payload is data: it neither runs nor takes over the evaluator for later runs', async () => {
    const thrower = await fire({ total: "(() => { throw new Error('injected code ran') })()", customer: { name: "'); throw new Error('injected code ran'); ('" } });
    expect(thrower).toMatchObject({ error_message: null, status: 'completed', result: { result: { doubled: null, greeting: "Hi '); throw new Error('injected code ran'); ('" } } });

    const takeover = await fire({ total: "(globalThis.__mandi_module.default.operations.evaluate = () => ({ result: 'owned' }), 0)", customer: { name: 'x' } });
    expect(takeover).toMatchObject({ error_message: null, status: 'completed', result: { result: { doubled: null, greeting: 'Hi x' } } });

    const after = await fire({ total: 5, customer: { name: 'Ravi' } });
    expect(after).toMatchObject({ status: 'completed', result: { result: { doubled: 10, greeting: 'Hi Ravi' } } });
  });

  test('a placeholder quoted the way earlier workflows wrote it is its text, and code in it stays text', async () => {
    const quoted = await host.request('POST', '/workflows', {
      name: 'Greet quoted',
      trigger_type: 'webhook',
      nodes: [{ node_type: 'workflows:webhook-trigger', label: 'Hook' }, { node_type: 'workflows:code', label: 'Greet', config: { expression: "'Hi {{customer.name}}!' + \" (\" + '{{total}}' + ')'" } }],
      connections: [{ source_node_index: 0, target_node_index: 1 }],
    });
    expect(quoted.status).toBe(201);
    const id = quoted.body.data.id;
    expect((await host.request('POST', `/workflows/${id}/activate`)).status).toBe(200);
    const quotedToken = (await host.request('GET', `/workflows/${id}/webhook-url`)).body.data.token;
    const res = await fetch(`${host.url}/api/webhooks/workflows/${quotedToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { total: 7, customer: { name: "'); throw new Error('injected code ran'); ('" } } }),
    });
    expect(res.status).toBe(200);
    const run = await settled(host, ((await res.json()) as { data: { execution_id: string } }).data.execution_id);
    expect(run).toMatchObject({ error_message: null, status: 'completed', result: { result: "Hi '); throw new Error('injected code ran'); ('! (7)" } });
  });

  test('a simulation with code-breaking data runs no injected code either', async () => {
    const res = await host.request('POST', `/workflows/${workflowId}/simulate`, { data: { total: "(() => { throw new Error('injected code ran') })()", customer: { name: 'Asha' } } });
    expect(res.status).toBe(200);
    const step = res.body.data.steps[1];
    expect(step).toMatchObject({ label: 'Greet', mode: 'executed', input: { expression: EXPRESSION } });
    expect(res.body.data.errors).toEqual([]);
  });
});
