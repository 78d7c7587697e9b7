/**
 * The merge node (`workflows:merge`, ours beside spec 2's Node registry; core/services/workflows/merge.ts):
 * it runs once, after every incoming branch that ran or can still run, with their outputs as
 * `inputs`; a branch a condition did not take does not hold it; a suspension on one branch (a
 * checkpoint and a new job) does not make it run early or twice; simulate walks it the same way.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Node = Record<string, unknown>;
const trigger: Node = { node_type: 'workflows:manual-trigger', label: 'Start' };
const transform = (label: string, values: Record<string, unknown>): Node => ({ node_type: 'workflows:transform', label, config: { values } });
const merge: Node = { node_type: 'workflows:merge', label: 'Merge' };
const edge = (s: number, t: number, path?: string) => ({ source_node_index: s, target_node_index: t, ...(path ? { source_handle: path, condition_path: path } : {}) });

describe('spec 2 Node registry: the merge node (ours)', () => {
  let host: TestHost;
  const create = async (body: unknown) => {
    const wf = await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    return wf.body.data.id as string;
  };
  const run = async (id: string, data: unknown = {}) => settled(host, (await host.request('POST', `/workflows/${id}/execute`, { data })).body.data.execution_id);

  /** Start → A → Merge; Start → B → (Wait →) B2 → Merge; Merge → C. The B branch is longer, so a merge run on its first input would miss B2. */
  const parallel = (name: string, wait?: Node) => {
    const nodes = [trigger, transform('A', { a: 1 }), transform('B', { b: 2 }), transform('B2', { b2: '{{nodes.B.output.values.b}}' }), merge, transform('C', { a: '{{nodes.Merge.output.inputs.A.values.a}}', b2: '{{nodes.Merge.output.inputs.B2.values.b2}}' })];
    const connections = [edge(0, 1), edge(0, 2), edge(1, 4), edge(3, 4), edge(4, 5)];
    if (!wait) return { name, nodes, connections: [...connections, edge(2, 3)] };
    return { name, nodes: [...nodes, wait], connections: [...connections, edge(2, 6), edge(6, 3)] };
  };

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('trigger → A and B in parallel → merge → C: the merge runs once, after both branches, with both outputs', async () => {
    const done = await run(await create(parallel('parallel')));
    expect(done.status).toBe('completed');
    const labels = done.logs.map((l) => l.node_label);
    expect(labels.filter((l) => l === 'Merge')).toHaveLength(1);
    expect(labels.indexOf('Merge')).toBeGreaterThan(labels.indexOf('B2'));
    expect(labels.indexOf('Merge')).toBeGreaterThan(labels.indexOf('A'));
    expect(done.logs.find((l) => l.node_label === 'Merge')!.output_data).toEqual({ inputs: { A: { values: { a: 1 } }, B2: { values: { b2: 2 } } } });
    expect(done.result).toEqual({ values: { a: 1, b2: 2 } });
  });

  test('a branch a condition did not take does not hold the merge: it runs once with the branch that ran', async () => {
    const nodes = [
      trigger, { node_type: 'workflows:condition', label: 'Big?', config: { left: '{{total}}', operator: 'gt', right: 100 } },
      transform('Big', { size: 'big' }), transform('Small', { size: 'small' }), merge, transform('C', { size: '{{nodes.Merge.output.inputs.Big.values.size}}' }),
    ];
    const id = await create({ name: 'one branch', nodes, connections: [edge(0, 1), edge(1, 2, 'true'), edge(1, 3, 'false'), edge(2, 4), edge(3, 4), edge(4, 5)] });
    const done = await run(id, { total: 250 });
    expect(done.status).toBe('completed');
    expect(done.logs.map((l) => l.node_label)).toEqual(['Start', 'Big?', 'Big', 'Merge', 'C']);
    expect(done.logs.find((l) => l.node_label === 'Merge')!.output_data).toEqual({ inputs: { Big: { values: { size: 'big' } } } });
    expect(done.result).toEqual({ values: { size: 'big' } });
  });

  test('a branch suspended by a Delay (checkpoint, then a new job) still holds the merge, which runs once after it', async () => {
    const done = await run(await create(parallel('suspended branch', { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 1 } })));
    expect(done.status).toBe('completed');
    const labels = done.logs.map((l) => l.node_label);
    expect(labels.filter((l) => l === 'Merge')).toHaveLength(1);
    expect(labels.slice(-3)).toEqual(['B2', 'Merge', 'C']);
    expect(done.logs.find((l) => l.node_label === 'C')!.output_data).toEqual({ values: { a: 1, b2: 2 } });
  });

  test('simulate walks the merge as a run does: once, after every branch', async () => {
    const id = await create(parallel('simulated'));
    const sim = await host.request('POST', `/workflows/${id}/simulate`, { data: {} });
    expect(sim.status).toBe(200);
    const labels = sim.body.data.steps.map((s: { label: string }) => s.label);
    expect(labels.filter((l: string) => l === 'Merge')).toHaveLength(1);
    expect(labels.indexOf('Merge')).toBeGreaterThan(labels.indexOf('B2'));
    const step = sim.body.data.steps.find((s: { label: string }) => s.label === 'Merge');
    expect(step).toMatchObject({ mode: 'executed', input: { inputs: { A: { values: { a: 1 } }, B2: { values: { b2: 2 } } } } });
    expect(sim.body.data.unreached).toEqual([]);
  });
});
