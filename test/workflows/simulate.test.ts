/**
 * Spec 2, POST /workflows/{id}/simulate and Simulation result: nodes free of side effects
 * (effects: none) run, http-request and send-email are stubbed, nothing is persisted; 200 when the
 * workflow could run, 422 when not.
 */
import type { TestHost } from '../../sdk/testing';
import { bigOrder, sixNodes, startHost } from './support';

describe('spec 2 simulate: nothing persisted, no step with real-world effects runs', () => {
  let host: TestHost;
  const count = async (table: string) => Number((await host.sql<{ n: string }>(`SELECT count(*) AS n FROM ${table}`))[0].n);
  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('the condition branch is walked for real; send-email and http-request are stubbed; nothing is written or sent', async () => {
    const body = sixNodes({ node_type: 'workflows:manual-trigger' }) as { nodes: Array<Record<string, unknown>>; connections: Array<Record<string, unknown>> };
    body.nodes.push({ node_type: 'workflows:http-request', label: 'Notify CRM', config: { url: 'http://127.0.0.1:9/crm', method: 'POST', body: { email: '{{customer.email}}' } } });
    body.connections.push({ source_node_index: 4, target_node_index: 6 });
    const wf = (await host.request('POST', '/workflows', body)).body.data;
    const before = [await count('workflow_executions'), await count('workflow_execution_logs'), (await host.inbox()).length];
    const res = await host.request('POST', `/workflows/${wf.id}/simulate`, { data: bigOrder });
    expect(res.status).toBe(200);
    const sim = res.body.data;
    expect(Object.keys(sim).sort()).toEqual(['errors', 'executed', 'ok', 'steps', 'stubbed', 'unreached', 'variables', 'warnings']);
    expect(sim).toMatchObject({ ok: true, errors: [], unreached: ['Small'], variables: { customer: 'Asha' }, executed: 4, stubbed: 2 });
    expect(sim.steps.map((s: { label: string; mode: string }) => [s.label, s.mode])).toEqual([
      ['Start', 'executed'], ['Remember', 'executed'], ['Big?', 'executed'], ['Shape', 'executed'], ['Mail', 'stubbed'], ['Notify CRM', 'stubbed'],
    ]);
    expect(sim.steps[4]).toMatchObject({ index: 4, node_type: 'workflows:send-email', input: { to: 'asha@example.com', subject: 'Thanks Asha' }, config: body.nodes[4].config, reason: expect.stringContaining('stubbed') });
    // Each step's output (ours, for the editor's graph): what an executed node answered, nothing for a stubbed one.
    expect(sim.steps[3].output).toMatchObject({ values: { subject: 'Thanks Asha', total: 250 } });
    expect(sim.steps[2].output).toMatchObject({ branch: 'true' });
    expect(sim.steps[4].output).toEqual({});
    expect([await count('workflow_executions'), await count('workflow_execution_logs'), (await host.inbox()).length]).toEqual(before);
  });

  test('an unknown placeholder is a warning; a workflow that cannot run is 422 with its errors', async () => {
    const body = sixNodes({ node_type: 'workflows:manual-trigger' }) as { nodes: Array<Record<string, unknown>> };
    const wf = (await host.request('POST', '/workflows', body)).body.data;
    const ok = await host.request('POST', `/workflows/${wf.id}/simulate`, { data: { total: 500 } });
    expect(ok.status).toBe(200);
    expect(ok.body.data.warnings).toEqual(expect.arrayContaining([expect.stringContaining('{{customer.name}}')]));
    const broken = (await host.request('POST', '/workflows', { name: 'no trigger', nodes: [{ node_type: 'workflows:code', label: 'A', config: { expression: '1' } }] })).body.data;
    const res = await host.request('POST', `/workflows/${broken.id}/simulate`, {});
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, data: { ok: false, errors: ['The workflow has no trigger node.', 'Node "A" has no incoming connection.'], steps: [], unreached: ['A'] } });
  });
});
