/**
 * Attacks through the sub-workflow node (spec 2, Execution; core/services/workflows/README.md, Sub-workflows
 * and Run chains): another tenant's workflow id starts nothing and tells nothing; a workflow calling
 * itself, directly or through another, stops at the run chain rule; a parent whose owner lacks a
 * permission the child's nodes need cannot borrow the child owner's; the node's operation cannot be
 * called outside a workflow node, by a person or a module.
 */
import type { TestHost } from '../../sdk/testing';
import { CHAIN_NODES_DIR, settled, startHost } from '../workflows/support';

type Node = Record<string, unknown>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
const manual: Node = { node_type: 'workflows:manual-trigger', label: 'Start' };
const sub = (workflowId: string): Node => ({ node_type: 'workflows:sub-workflow', label: 'Call', config: { workflow_id: workflowId, data: {} } });
const chain = (name: string, nodes: Node[]) => ({ name, nodes, connections: nodes.slice(1).map((_, i) => ({ source_node_index: i, target_node_index: i + 1 })) });

describe('hostile: the sub-workflow node across tenants, in loops, with borrowed permissions', () => {
  let host: TestHost;
  let globex: (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test
  const create = async (body: unknown, activate = false, as?: string): Promise<string> => {
    const wf = as ? await host.requestAs(as, 'POST', '/workflows', body) : await host.request('POST', '/workflows', body);
    if (wf.status !== 201) throw new Error(JSON.stringify(wf.body));
    if (activate) expect((await host.request('POST', `/workflows/${wf.body.data.id}/activate`)).status).toBe(200);
    return wf.body.data.id;
  };
  const run = async (id: string, as?: string): Promise<Json> => {
    const res = as ? await host.requestAs(as, 'POST', `/workflows/${id}/execute`, { data: {} }) : await host.request('POST', `/workflows/${id}/execute`, { data: {} });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    return settled(host, res.body.data.execution_id, ['completed', 'failed'], 30_000);
  };
  const runsOf = async (workflowId: string): Promise<Json[]> => (await host.request('GET', `/workflow-executions?workflow_id=${workflowId}`)).body.data;

  beforeAll(async () => {
    host = await startHost({}, [CHAIN_NODES_DIR]);
    const made = await host.request('POST', '/admin/tenants', { name: 'Globex', alias: 'globex' });
    if (made.status !== 201) throw new Error(JSON.stringify(made.body));
    for (const alias of ['workflows_code', 'workflows']) await host.installModule(alias, { tenant: made.body.tenant.id });
    const { token } = await host.addMember({ email: 'gina@globex.example', role: 'admin' }, made.body.tenant.id);
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

  test("another tenant's active workflow id is not found, as an id nobody has; nothing runs there and nothing of it shows", async () => {
    const theirs = (await globex('POST', '/workflows', chain('Globex secret payroll', [manual, { node_type: 'workflows:transform', label: 'Pay', config: { values: { secret: 'globex-only' } } }]))).body.data.id;
    expect((await globex('POST', `/workflows/${theirs}/activate`)).status).toBe(200);
    const mine = await run(await create(chain('reach into globex', [manual, sub(theirs)])));
    const none = await run(await create(chain('reach nowhere', [manual, sub('00000000-0000-4000-8000-000000000000')])));
    expect(mine).toMatchObject({ status: 'failed', error_message: 'Node "Call" failed: Workflow not found' });
    expect(none.error_message).toBe(mine.error_message);
    expect(JSON.stringify(mine)).not.toMatch(/payroll|globex-only/i);
    expect((await globex('GET', `/workflow-executions?workflow_id=${theirs}`)).body.data).toEqual([]);
  });

  test('a workflow that calls itself, directly or through another, stops at the run chain rule (WORKFLOW_CHAIN_LOOP) after one run each', async () => {
    const self = await create(chain('self', [manual]));
    expect((await host.request('PUT', `/workflows/${self}`, chain('self', [manual, sub(self)]))).status).toBe(200);
    expect((await host.request('POST', `/workflows/${self}/activate`)).status).toBe(200);
    const direct = await run(self);
    expect(direct).toMatchObject({ status: 'failed', error_message: expect.stringContaining('WORKFLOW_CHAIN_LOOP') });
    expect(await runsOf(self)).toHaveLength(1);

    const a = await create(chain('ping', [manual]));
    const b = await create(chain('pong', [manual, sub(a)]), true);
    expect((await host.request('PUT', `/workflows/${a}`, chain('ping', [manual, sub(b)]))).status).toBe(200);
    expect((await host.request('POST', `/workflows/${a}/activate`)).status).toBe(200);
    const through = await run(a);
    expect(through).toMatchObject({ status: 'failed', error_message: expect.stringContaining('WORKFLOW_CHAIN_LOOP') });
    const [bRun] = await runsOf(b);
    expect(bRun).toMatchObject({ status: 'failed', chain: [a], error_message: expect.stringContaining('WORKFLOW_CHAIN_LOOP') });
    expect(await runsOf(a)).toHaveLength(1);
  });

  test("a parent whose owner lacks a permission the child's nodes need fails without starting it; the child's owner's permissions are not lent", async () => {
    const guarded = await create(chain('guarded child', [manual, { node_type: 'chain_nodes:guarded', label: 'Guarded' }]), true);
    const member = await host.memberWith('workflow-builder', ['workflows.view', 'workflows.manage', 'workflows.execute']);
    const borrowed = await run(await create(chain('borrow', [manual, sub(guarded)]), false, member), member);
    expect(borrowed).toMatchObject({ status: 'failed', error_message: expect.stringContaining('"Guarded" needs chain_nodes.guarded') });
    expect(await runsOf(guarded)).toEqual([]);
    // The owner, who holds it, runs the same parent to its end.
    const owned = await run(await create(chain('owned', [manual, sub(guarded)])));
    expect(owned).toMatchObject({ status: 'completed', result: { guarded: true } });
  });

  test('the operation behind the node is refused outside a workflow node: to a person and to a module that consumes it', async () => {
    const target = await create(chain('target', [manual]), true);
    const refused = (op: Promise<unknown>) => op.then(() => ({ code: 'none', status: 0 }), (e: { code: string; status: number }) => ({ code: e.code, status: e.status }));
    expect(await refused(host.call('workflow_engine.sub_workflow', { workflow_id: target }))).toEqual({ code: 'SUB_WORKFLOW_NODE_ONLY', status: 403 });
    expect(await refused(host.call('workflow_engine.sub_workflow', { workflow_id: target }, { asModule: 'workflows' }))).toEqual({ code: 'SUB_WORKFLOW_NODE_ONLY', status: 403 });
    expect(await runsOf(target)).toEqual([]);
  });
});
