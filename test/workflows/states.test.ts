/**
 * Spec 2, States and transitions (Execution) and Execution fields: pause after the current node,
 * cancel, retry and their 400s; a Delay node and retry backoff suspend the run with resume_at set and
 * it resumes; a code node that loops forever fails that node on the sandbox time limit while other
 * runs keep going.
 */
import type { TestHost } from '../../sdk/testing';
import { settled, startHost } from './support';

type Node = Record<string, unknown>;
const trigger: Node = { node_type: 'workflows:manual-trigger', label: 'Start' };
const code = (label: string, expression: string, extra: Node = {}): Node => ({ node_type: 'workflows:code', label, config: { expression }, ...extra });
const delay = (label: string, seconds: number): Node => ({ node_type: 'workflows:delay', label, config: { seconds } });
const done: Node = { node_type: 'workflows:transform', label: 'Done', config: { values: { ok: true } } };
const chain = (name: string, nodes: Node[]) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) });
const SLOW = '(() => { const t = Date.now(); while (Date.now() - t < 600) {} return 1; })()';

describe('spec 2 States and transitions: Execution', () => {
  let host: TestHost;
  const start = async (body: unknown, data: unknown = {}) => {
    const wf = await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    const run = await host.request('POST', `/workflows/${wf.body.data.id}/execute`, { data });
    return run.body.data.execution_id as string;
  };
  const get = async (id: string) => (await host.request('GET', `/workflow-executions/${id}`)).body.data;
  const act = (id: string, action: string) => host.request('POST', `/workflow-executions/${id}/${action}`);

  beforeAll(async () => {
    host = await startHost();
  }, 240_000);
  afterAll(() => host?.close());

  test('a Delay node suspends the run with resume_at set, then it resumes and completes', async () => {
    const id = await start(chain('delayed', [trigger, delay('Wait', 2), done]));
    const suspended = await host.eventually(async () => {
      const e = await get(id);
      if (!e.resume_at) throw new Error('not suspended yet');
      return e;
    });
    expect(suspended).toMatchObject({ status: 'running', nodes_executed: 2 });
    expect(Date.parse(suspended.resume_at)).toBeGreaterThan(Date.now());
    const run = await settled(host, id);
    expect(run).toMatchObject({ status: 'completed', resume_at: null, nodes_executed: 3, result: { values: { ok: true } } });
    expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'Wait', 'Done']);
  });

  test('pause a suspended run: paused at once with resume_at null; pausing again is 400; resume finishes it', async () => {
    const id = await start(chain('pause-suspended', [trigger, delay('Wait', 60), done]));
    await host.eventually(async () => {
      if (!(await get(id)).resume_at) throw new Error('not suspended yet');
    });
    const paused = await act(id, 'pause');
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({ success: true, message: expect.any(String) });
    expect(await get(id)).toMatchObject({ status: 'paused', resume_at: null });
    const again = await act(id, 'pause');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, message: 'Invalid request' });
    expect((await act(id, 'resume')).status).toBe(200);
    const run = await settled(host, id);
    expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'Wait', 'Done']);
  });

  test('pause a running run: it stops after the current node with a checkpoint', async () => {
    const id = await start(chain('pause-running', [trigger, code('A', SLOW), code('B', SLOW), code('C', SLOW), done]));
    await host.eventually(async () => {
      if ((await get(id)).status !== 'running') throw new Error('not running');
    }, 5_000);
    expect((await act(id, 'pause')).status).toBe(200);
    const paused = await settled(host, id, ['paused']);
    expect(paused.nodes_executed).toBeLessThan(5);
    expect(paused.logs).toHaveLength(paused.nodes_executed as number);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await get(id)).nodes_executed).toBe(paused.nodes_executed);
    expect((await act(id, 'resume')).status).toBe(200);
    const run = await settled(host, id);
    expect(run.logs.map((l) => l.node_label)).toEqual(['Start', 'A', 'B', 'C', 'Done']);
  });

  test('cancel: pending or running only; a cancelled run stays cancelled; finished runs cannot be paused or cancelled', async () => {
    const id = await start(chain('cancel', [trigger, delay('Wait', 60), done]));
    await host.eventually(async () => {
      if (!(await get(id)).resume_at) throw new Error('not suspended yet');
    });
    expect((await act(id, 'cancel')).body).toEqual({ success: true, message: expect.any(String) });
    expect(await get(id)).toMatchObject({ status: 'cancelled', resume_at: null });
    for (const action of ['cancel', 'pause']) {
      const res = await act(id, action);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, message: 'Invalid request' });
    }
  });

  test('retry: a finished run again as a new execution with the same trigger data; an unfinished one is 400', async () => {
    const id = await start(chain('retry', [trigger, code('Double', 'data.n * 2', { config: { expression: 'data.n * 2', data: '{{trigger.data}}' } })]), { n: 21 });
    const first = await settled(host, id);
    expect(first.result).toEqual({ result: 42 });
    const res = await act(id, 'retry');
    expect(res.body).toEqual({ success: true, message: expect.any(String), data: { execution_id: expect.any(String) } });
    expect(res.body.data.execution_id).not.toBe(id);
    const second = await settled(host, res.body.data.execution_id);
    expect(second).toMatchObject({ trigger_data: { n: 21 }, result: { result: 42 } });
    const waiting = await start(chain('retry-unfinished', [trigger, delay('Wait', 60), done]));
    expect((await act(waiting, 'retry')).status).toBe(400);
    await act(waiting, 'cancel');
  });

  test('retry_count with backoff: each failed attempt is logged, resume_at set between them, then the run fails', async () => {
    const id = await start(chain('flaky', [trigger, code('Boom', '(() => { throw new Error("boom") })()', { retry_count: 2, retry_delay_seconds: 1 })]));
    const backingOff = await host.eventually(async () => {
      const e = await get(id);
      if (!e.resume_at) throw new Error('not backing off');
      return e;
    });
    expect(backingOff.status).toBe('running');
    const run = await settled(host, id);
    expect(run).toMatchObject({ status: 'failed', nodes_failed: 1, error_message: expect.stringContaining('boom') });
    expect(run.logs.filter((l) => l.node_label === 'Boom').map((l) => [l.status, l.retry_attempt])).toEqual([['failed', 0], ['failed', 1], ['failed', 2]]);
  });

  test('a code node that loops forever fails with a timeout while another run completes', async () => {
    const loop = await start(chain('forever', [trigger, code('Loop', '(() => { for (;;) {} })()'), done]));
    const quick = await start(chain('quick', [trigger, done]));
    const q = await settled(host, quick);
    expect([q.status, q.error_message]).toEqual(['completed', null]);
    const run = await settled(host, loop, ['completed', 'failed'], 30_000);
    expect(run.status).toBe('failed');
    expect(run.error_message).toMatch(/time/i);
    expect(run.logs.map((l) => [l.node_label, l.status])).toEqual([['Start', 'completed'], ['Loop', 'failed']]);
    const after = await start(chain('after', [trigger, code('Sum', '1 + 1')]));
    expect((await settled(host, after)).result).toEqual({ result: 2 });
  });
});
