/**
 * Spec 2, Execution (every node is a bus call, so the bus's rate limit applies to each step) with
 * back-pressure: a step the bus refuses for its (tenant, caller, operation) budget does not fail its
 * run. The run waits (suspended until the budget frees, a `waiting` row in its log) and continues.
 * The budget is lowered to 20 calls per 2 s here; 15 runs of a workflow with three set-variable
 * nodes make 45 calls of `workflows.set_variable`, so most runs wait at least once.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

const RUNS = 15;
const WORKFLOW = {
  name: 'three variables',
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'workflows:set-variable', label: 'A', config: { name: 'a', value: '{{n}}' } },
    { node_type: 'workflows:set-variable', label: 'B', config: { name: 'b', value: '{{n}}' } },
    { node_type: 'workflows:set-variable', label: 'C', config: { name: 'c', value: '{{n}}' } },
    { node_type: 'workflows:transform', label: 'Out', config: { values: { sum: '{{variables.a}}{{variables.b}}{{variables.c}}' } } },
  ],
  connections: [0, 1, 2, 3].map((i) => ({ source_node_index: i, target_node_index: i + 1 })),
};

describe('spec 2 Execution: a step over the bus rate limit waits for the budget instead of failing its run', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startHost({ WORKFLOW_STEP_RATE_LIMIT: '20/2' });
  }, 240_000);
  afterAll(() => host?.close());

  test(`${RUNS} runs × 3 set-variable calls over a budget of 20 per 2 s: every run completes, the waits are in the logs`, async () => {
    const wf = (await host.request('POST', '/workflows', WORKFLOW)).body.data;
    const ids: string[] = [];
    for (let n = 0; n < RUNS; n++) {
      const res = await host.request('POST', `/workflows/${wf.id}/execute`, { data: { n } });
      expect(res.status).toBe(200);
      ids.push(res.body.data.execution_id);
    }
    const runs = await Promise.all(ids.map((id) => settled(host, id, ['completed', 'failed', 'cancelled'], 60_000)));
    expect(runs.map((r) => r.status)).toEqual(ids.map(() => 'completed'));
    runs.forEach((r, n) => expect(r).toMatchObject({ nodes_executed: 5, nodes_failed: 0, result: { values: { sum: `${n}${n}${n}` } } }));
    // Each node ran once; the waits are rows of their own, before the node's row, naming the limit.
    for (const r of runs) {
      const done = r.logs.filter((l) => l.status === 'completed').map((l) => l.node_label);
      expect(done).toEqual(['Start', 'A', 'B', 'C', 'Out']);
    }
    const waits = runs.flatMap((r) => r.logs.filter((l) => l.status === 'waiting'));
    expect(waits.length).toBeGreaterThan(0);
    for (const w of waits) {
      expect(['A', 'B', 'C']).toContain(w.node_label);
      expect(w).toMatchObject({ retry_attempt: 0, output_data: { waited_for: 'rate_limit', operation: 'workflows.set_variable', resume_at: expect.any(String) } });
      expect(w.error_message).toMatch(/^Waited for the rate limit of workflows\.set_variable/);
    }
    const after = (await host.request('GET', `/workflows/${wf.id}`)).body.data;
    expect(after).toMatchObject({ execution_count: RUNS, success_count: RUNS, failure_count: 0 });
  }, 120_000);
});
