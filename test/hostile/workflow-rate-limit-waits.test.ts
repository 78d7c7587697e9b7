/**
 * Hostile (resource exhaustion, cross-tenant) for workflow back-pressure (spec 2, Execution; spec 1:
 * the bus enforces rate limits): a tenant whose burst of runs exhausts its bus budget makes its own
 * runs wait, never another tenant's. The budget is per tenant and operation for workflow steps (WORKFLOW_STEP_RATE_LIMIT,
 * lowered to 10 per 3 s here), and waiting runs are suspended (they hold no worker meanwhile), so a
 * second tenant's run, started while the first tenant's runs wait, finishes at once with no wait.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from '../workflows/support';

const BURST = 12;
const twoVariables = {
  name: 'two variables',
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'workflows:set-variable', label: 'A', config: { name: 'a', value: '{{n}}' } },
    { node_type: 'workflows:set-variable', label: 'B', config: { name: 'b', value: '{{n}}' } },
  ],
  connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }],
};

describe("hostile: one tenant's workflow runs over its bus budget wait alone (spec 2 Execution)", () => {
  let host: TestHost;
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

  beforeAll(async () => {
    host = await startHost({ WORKFLOW_STEP_RATE_LIMIT: '10/3', WORKFLOW_WORKERS: '2' });
    const made = await host.request('POST', '/admin/tenants', { name: 'Globex', alias: 'globex' });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    const globexId = made.body.tenant.id as string;
    for (const alias of ['workflows_code', 'workflows']) await host.installModule(alias, { tenant: globexId });
    const { token } = await host.addMember({ email: 'gina@globex.example', role: 'admin' }, globexId);
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

  test(`acme's ${BURST} runs (${BURST * 2} calls over a budget of 10) wait; globex's run meanwhile does not`, async () => {
    const acmeFlow = (await host.request('POST', '/workflows', twoVariables)).body.data;
    const acmeRuns: string[] = [];
    for (let n = 0; n < BURST; n++) acmeRuns.push((await host.request('POST', `/workflows/${acmeFlow.id}/execute`, { data: { n } })).body.data.execution_id);
    // Wait until acme's runs are waiting for the budget.
    await host.eventually(async () => {
      const waiting = await Promise.all(acmeRuns.map(async (id) => (await host.request('GET', `/workflow-executions/${id}`)).body.data.logs.some((l: { status: string }) => l.status === 'waiting')));
      if (!waiting.some(Boolean)) throw new Error('no acme run waits yet');
    }, 20_000);

    const globexFlow = (await globex('POST', '/workflows', twoVariables)).body.data;
    const t0 = Date.now();
    const started = await globex('POST', `/workflows/${globexFlow.id}/execute`, { data: { n: 99 } });
    expect(started.status).toBe(200);
    const run = await host.eventually(async () => {
      const res = await globex('GET', `/workflow-executions/${started.body.data.execution_id}`);
      if (res.body.data.status !== 'completed') throw new Error(`still ${res.body.data.status}`);
      return res.body.data;
    }, 20_000);
    // Well inside acme's 3-second window: it did not wait for acme's budget.
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(run.logs.map((l: { node_label: string; status: string }) => [l.node_label, l.status])).toEqual([['Start', 'completed'], ['A', 'completed'], ['B', 'completed']]);

    const acme = await Promise.all(acmeRuns.map((id) => settled(host, id, ['completed', 'failed', 'cancelled'], 60_000)));
    expect(acme.map((r) => r.status)).toEqual(acmeRuns.map(() => 'completed'));
  }, 120_000);
});
