/**
 * Spec 2, Execution and the event trigger, where the spec is silent (core/services/workflows/README.md, Run
 * chains; Node retries; Sub-workflows): a workflow that follows events its own runs cause is refused
 * when it would start itself (lifecycle events and a module's events emitted from a node alike) or
 * past WORKFLOW_MAX_CHAIN_DEPTH; settings.retry_on_failure; placeholders naming a node label with
 * spaces; the sub-workflow node waits for its child without holding a worker.
 */
import type { TestHost } from '../../sdk/testing';
import { CHAIN_NODES_DIR, settled, startHost } from './support';

type Node = Record<string, unknown>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
const manual: Node = { node_type: 'workflows:manual-trigger', label: 'Start' };
const onEvent = (event: string): Node => ({ node_type: 'workflows:event-trigger', label: 'On event', config: { event } });
const transform = (label: string, values: Json): Node => ({ node_type: 'workflows:transform', label, config: { values } });
const emit = (event: string): Node => ({ node_type: 'chain_nodes:emit', label: 'Emit', config: { event } });
const sub = (label: string, workflowId: string, data: Json = {}): Node => ({ node_type: 'workflows:sub-workflow', label, config: { workflow_id: workflowId, data } });
const chain = (name: string, nodes: Node[], extra: Json = {}) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })), ...extra });
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('spec 2 Execution (event trigger, retries, placeholders, sub-workflows): run chains', () => {
  let host: TestHost;
  const create = async (body: unknown, activate = false): Promise<string> => {
    const wf = await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    if (activate) expect((await host.request('POST', `/workflows/${wf.body.data.id}/activate`)).status).toBe(200);
    return wf.body.data.id;
  };
  const execute = async (id: string, data: Json = {}): Promise<string> => (await host.request('POST', `/workflows/${id}/execute`, { data })).body.data.execution_id;
  const runsOf = async (workflowId: string): Promise<Json[]> => (await host.request('GET', `/workflow-executions?workflow_id=${workflowId}&per_page=100`)).body.data;
  /** The runs of a workflow once they stop changing: `count` of them, all finished, and still so a moment later. */
  const finishedRuns = async (workflowId: string, count: number): Promise<Json[]> => {
    await host.eventually(async () => {
      const runs = await runsOf(workflowId);
      if (runs.length < count || runs.some((r) => !['completed', 'failed'].includes(r.status))) throw new Error(`${runs.length} runs, ${runs.map((r) => r.status)}`);
    }, 20_000);
    await pause(2_000);
    return runsOf(workflowId);
  };

  beforeAll(async () => {
    // One worker: a sub-workflow's parent that held it while its child runs would never finish.
    host = await startHost({ WORKFLOW_MAX_CHAIN_DEPTH: '3', WORKFLOW_WORKERS: '1', WORKFLOW_TENANT_WORKERS: '1' }, [CHAIN_NODES_DIR]);
  }, 240_000);
  afterAll(() => host?.close());

  test('a workflow following workflow.execution.completed runs for another run, and its own completion is refused with WORKFLOW_CHAIN_LOOP', async () => {
    const follower = await create(chain('follows completions', [onEvent('workflow.execution.completed'), transform('Note', { ok: true })], { trigger_type: 'event', trigger_config: { event: 'workflow.execution.completed' } }), true);
    const other = await create(chain('other', [manual, transform('Done', { ok: true })]));
    await settled(host, await execute(other));
    const runs = await finishedRuns(follower, 2);
    await host.request('POST', `/workflows/${follower}/deactivate`);
    expect(runs).toHaveLength(2);
    const [refused, ran] = runs; // newest first
    expect(ran).toMatchObject({ status: 'completed', trigger_type: 'event', chain: [other] });
    expect(refused).toMatchObject({ status: 'failed', chain: [other, follower], nodes_executed: 0, error_message: expect.stringMatching(/^WORKFLOW_CHAIN_LOOP: /) });
  });

  test("events a node's module operation emits carry the chain: X → pong → Y → ping → X is refused", async () => {
    const x = await create(chain('X', [onEvent('chain_nodes.ping'), emit('chain_nodes.pong')], { trigger_type: 'event', trigger_config: { event: 'chain_nodes.ping' } }), true);
    const y = await create(chain('Y', [onEvent('chain_nodes.pong'), emit('chain_nodes.ping')], { trigger_type: 'event', trigger_config: { event: 'chain_nodes.pong' } }), true);
    await host.emit('chain_nodes.ping', {});
    const xs = await finishedRuns(x, 2);
    const ys = await runsOf(y);
    for (const id of [x, y]) await host.request('POST', `/workflows/${id}/deactivate`);
    expect(ys.map((r) => [r.status, r.chain])).toEqual([['completed', [x]]]);
    expect(xs.map((r) => [r.status, r.chain])).toEqual([['failed', [x, y]], ['completed', []]]);
    expect(xs[0].error_message).toMatch(/^WORKFLOW_CHAIN_LOOP: /);
  });

  test("simulate warns when an event trigger follows events the workflow itself emits (every run's lifecycle event, or an event its nodes' modules publish)", async () => {
    const lifecycle = await create(chain('lifecycle', [onEvent('workflow.execution.failed'), transform('Note', {})], { trigger_type: 'event', trigger_config: { event: 'workflow.execution.failed' } }));
    const own = await create(chain('own event', [onEvent('chain_nodes.ping'), emit('chain_nodes.ping')], { trigger_type: 'event', trigger_config: { event: 'chain_nodes.ping' } }));
    const quiet = await create(chain('quiet', [onEvent('chain_nodes.ping'), transform('Note', {})], { trigger_type: 'event', trigger_config: { event: 'chain_nodes.ping' } }));
    const warnings = async (id: string) => (await host.request('POST', `/workflows/${id}/simulate`, { data: {} })).body.data.warnings as string[];
    expect(await warnings(lifecycle)).toEqual([expect.stringContaining('WORKFLOW_CHAIN_LOOP')]);
    expect(await warnings(own)).toEqual([expect.stringMatching(/"chain_nodes\.ping".*node "Emit".*WORKFLOW_CHAIN_LOOP/)]);
    expect(await warnings(quiet)).toEqual([]);
  });

  test('settings.retry_on_failure: true retries a node (3 times by default) until it succeeds; false fails it at once whatever its retry_count', async () => {
    const flaky: Node = { node_type: 'chain_nodes:fail-twice', label: 'Flaky' };
    const retried = await create(chain('retried', [manual, flaky], { settings: { retry_on_failure: true } }));
    const ok = await settled(host, await execute(retried));
    expect(ok).toMatchObject({ status: 'completed', result: { attempt: 2 } });
    expect(ok.logs.filter((l) => l.node_label === 'Flaky').map((l) => [l.status, l.retry_attempt])).toEqual([['failed', 0], ['failed', 1], ['completed', 2]]);

    const never = await create(chain('never retried', [manual, { ...flaky, retry_count: 2 }], { settings: { retry_on_failure: false } }));
    const failed = await settled(host, await execute(never));
    expect(failed).toMatchObject({ status: 'failed', error_message: expect.stringContaining('attempt 0 fails') });
    expect(failed.logs.filter((l) => l.node_label === 'Flaky').map((l) => [l.status, l.retry_attempt])).toEqual([['failed', 0]]);
  });

  test('placeholders name a node whose label has spaces, plainly or in brackets, in config and in code; simulate warns about each unresolved one with its config path', async () => {
    const nodes = [
      manual,
      transform('Make total', { x: '{{total}}' }),
      transform('Use', { plain: '{{nodes.Make total.output.values.x}}', bracket: '{{nodes["Make total"].output.values.x}}', text: 'is {{ nodes.Make total.output.values.x }}' }),
      { node_type: 'workflows:code', label: 'Double', config: { expression: '{{nodes.Make total.output.values.x}} * 2' } },
    ];
    const id = await create(chain('spaces', nodes));
    const run = await settled(host, await execute(id, { total: 5 }));
    expect(run.status).toBe('completed');
    expect(run.logs.find((l) => l.node_label === 'Use')!.output_data).toEqual({ values: { plain: 5, bracket: 5, text: 'is 5' } });
    expect(run.result).toEqual({ result: 10 });

    const broken = await create(chain('unresolved', [manual, transform('Make total', { x: 1 }), transform('Use', { a: '{{nodes.Make total.output.nope}}', deep: { b: 'x {{no such thing}}' } })]));
    const sim = (await host.request('POST', `/workflows/${broken}/simulate`, { data: {} })).body.data;
    expect(sim.warnings).toEqual([
      'Node "Use", config.values.a: the placeholder {{nodes.Make total.output.nope}} resolves to nothing and renders empty.',
      'Node "Use", config.values.deep.b: the placeholder {{no such thing}} resolves to nothing and renders empty.',
    ]);
  });

  test("the sub-workflow node runs an active workflow and waits for it without holding the worker; the child's result is its output", async () => {
    const child = await create(chain('child', [manual, { node_type: 'workflows:delay', label: 'Wait', config: { seconds: 1 } }, { node_type: 'workflows:code', label: 'Double', config: { expression: 'data.n * 2', data: '{{trigger.data}}' } }]), true);
    const parent = await create(chain('parent', [manual, sub('Call', child, { n: '{{n}}' }), transform('After', { got: '{{nodes.Call.output.result}}' })]));
    const run = await settled(host, await execute(parent, { n: 21 }));
    expect(run).toMatchObject({ status: 'completed', result: { values: { got: 42 } } });
    expect(run.logs.find((l) => l.node_label === 'Call')).toMatchObject({ status: 'completed', output_data: { result: 42 } });
    const [childRun] = await runsOf(child);
    expect(childRun).toMatchObject({ status: 'completed', trigger_type: 'workflow', trigger_data: { n: 21 }, chain: [parent], parent_execution_id: run.id });
  });

  test("a failing child fails the node with the child's execution id; a draft child is refused", async () => {
    const failing = await create(chain('failing child', [manual, { node_type: 'workflows:code', label: 'Boom', config: { expression: '(() => { throw new Error("child broke") })()' } }]), true);
    const parent = await create(chain('parent of failing', [manual, sub('Call', failing)]));
    const run = await settled(host, await execute(parent));
    const [childRun] = await runsOf(failing);
    expect(run).toMatchObject({ status: 'failed', error_message: expect.stringContaining(childRun.id) });
    expect(run.error_message).toContain('child broke');
    const draft = await create(chain('draft child', [manual, transform('Done', {})]));
    const refused = await settled(host, await execute(await create(chain('parent of draft', [manual, sub('Call', draft)]))));
    expect(refused).toMatchObject({ status: 'failed', error_message: expect.stringContaining('only an active workflow') });
    expect(await runsOf(draft)).toEqual([]);
  });

  test('an error workflow carries the failed run\'s chain: one that calls the failed workflow again is refused instead of failing it for ever', async () => {
    const boom: Node = { node_type: 'workflows:code', label: 'Boom', config: { expression: '(() => { throw new Error("boom") })()' } };
    const failing = await create(chain('fails', [manual, boom]));
    const handler = await create(chain('handler calls it again', [{ node_type: 'workflows:error-trigger', label: 'Failed' }, sub('Again', failing)]));
    expect((await host.request('PUT', `/workflows/${failing}`, { settings: { error_workflow_id: handler } })).status).toBe(200);
    expect((await host.request('POST', `/workflows/${failing}/activate`)).status).toBe(200);
    await settled(host, await execute(failing));
    const handled = await finishedRuns(handler, 1);
    expect(handled.map((r) => [r.status, r.chain])).toEqual([['failed', [failing]]]);
    expect(handled[0].error_message).toContain('WORKFLOW_CHAIN_LOOP');
    expect(await runsOf(failing)).toHaveLength(1);
  });

  test('a chain of sub-workflows deeper than WORKFLOW_MAX_CHAIN_DEPTH (3 here) is refused with WORKFLOW_CHAIN_TOO_DEEP', async () => {
    const leaf = await create(chain('depth 4', [manual, transform('Leaf', {})]), true);
    const third = await create(chain('depth 3', [manual, sub('Call', leaf)]), true);
    const second = await create(chain('depth 2', [manual, sub('Call', third)]), true);
    const top = await create(chain('depth 1', [manual, sub('Call', second)]));
    const run = await settled(host, await execute(top), ['completed', 'failed'], 30_000);
    expect(run.status).toBe('failed');
    const [thirdRun] = await runsOf(third);
    expect(thirdRun).toMatchObject({ status: 'failed', chain: [top, second], error_message: expect.stringContaining('WORKFLOW_CHAIN_TOO_DEEP') });
    expect(await runsOf(leaf)).toEqual([]);
  });
});
