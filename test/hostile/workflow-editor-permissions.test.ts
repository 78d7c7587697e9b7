/**
 * Attacks on a workflow's owner (spec 2, Workflows; Execution): a run acts as the workflow's owner,
 * so a member who may manage workflows but not orders must not put order nodes into an admin's
 * workflow (or turn on an admin's draft that has them) and so act in orders with the admin's
 * permissions. A save binds the workflow to whoever saved it, who must hold every permission its
 * nodes need; the activity log says who changed what.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';
import { WORKFLOWS_CODE_DIR, WORKFLOWS_DIR } from '../workflows/support';

const ORDERS_DIR = path.resolve(__dirname, '../../modules/orders');

const harmless = {
  name: 'Admin follow-up',
  trigger_type: 'manual',
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'workflows:transform', label: 'Shape', config: { values: { seen: '{{order_id}}' } } },
  ],
  connections: [{ source_node_index: 0, target_node_index: 1 }],
};

/** Reads the order named in the trigger data and records a payment on it. */
const ordersGraph = {
  nodes: [
    { node_type: 'workflows:manual-trigger', label: 'Start' },
    { node_type: 'orders:get-order', label: 'Read', config: { id: '{{order_id}}' } },
    { node_type: 'orders:record-payment', label: 'Pay', config: { id: '{{order_id}}', method: 'bank_transfer', amount: '50.00' } },
  ],
  connections: [{ source_node_index: 0, target_node_index: 1 }, { source_node_index: 1, target_node_index: 2 }],
};

describe('hostile: editing a workflow never borrows its owner\'s permissions (spec 2, Workflows; Execution)', () => {
  let host: TestHost;
  let orderId: string;
  let editor: string;
  let trusted: string;
  let trustedId: number;

  const payments = async () => (await host.call<{ payments: unknown[] }>('orders.list_payments', { id: orderId })).payments;

  beforeAll(async () => {
    host = await createTestHost({ modulePath: WORKFLOWS_DIR, withModules: [WORKFLOWS_CODE_DIR, ORDERS_DIR], env: { WORKFLOW_RATE_LIMIT: '100000/60', WORKFLOW_EXECUTE_RATE_LIMIT: '100000/60' } });
    const order = await host.call<{ id: string }>('orders.create', { customer: { name: 'Asha', email: 'asha@example.com' }, items: [{ name: 'Kurta', quantity: 1, unit_price: '100.00' }] });
    orderId = order.id;
    const workflowsOnly = ['workflows.view', 'workflows.manage', 'workflows.execute'];
    await host.request('POST', '/roles', { name: 'wf-editor', permissions: workflowsOnly });
    ({ token: editor } = await host.addMember({ email: 'editor@test-org.example', role: 'wf-editor' }));
    await host.request('POST', '/roles', { name: 'wf-orders', permissions: [...workflowsOnly, 'orders.view', 'orders.manage'] });
    ({ token: trusted, userId: trustedId } = await host.addMember({ email: 'trusted@test-org.example', role: 'wf-orders' }));
  }, 240_000);
  afterAll(() => host?.close());

  test("an editor without orders.view cannot put order nodes into the admin's workflow: 403, the graph unchanged, no order read, no payment", async () => {
    // The editor is refused orders directly…
    expect((await host.requestAs(editor, 'GET', `/orders/${orderId}`)).status).toBe(403);
    const wf = (await host.request('POST', '/workflows', harmless)).body.data;
    // …and through the admin's workflow.
    const put = await host.requestAs(editor, 'PUT', `/workflows/${wf.id}`, ordersGraph);
    expect(put.status).toBe(403);
    expect(put.body).toMatchObject({ success: false, message: 'Insufficient permissions', code: 'WORKFLOW_PERMISSION_MISSING' });
    expect(put.body.errors.request[0]).toEqual(expect.stringContaining('orders.view'));
    expect(put.body.errors.request[0]).toEqual(expect.stringContaining('orders.manage'));
    const after = (await host.request('GET', `/workflows/${wf.id}`)).body.data;
    expect(after.nodes.map((n: { node_type: string }) => n.node_type)).toEqual(['workflows:manual-trigger', 'workflows:transform']);
    const run = await host.requestAs(editor, 'POST', `/workflows/${wf.id}/test`, { data: { order_id: orderId } });
    expect(JSON.stringify(run.body.data.result)).not.toContain('Asha');
    expect(await payments()).toEqual([]);
  });

  test("an editor without orders.manage cannot turn on the admin's draft that records payments (activation is 403)", async () => {
    const draft = (await host.request('POST', '/workflows', { name: 'Admin draft', trigger_type: 'manual', ...ordersGraph })).body.data;
    const activated = await host.requestAs(editor, 'POST', `/workflows/${draft.id}/activate`);
    expect(activated.status).toBe(403);
    expect(activated.body).toMatchObject({ success: false, code: 'WORKFLOW_PERMISSION_MISSING' });
    expect((await host.request('GET', `/workflows/${draft.id}`)).body.data.status).toBe('draft');
    // The owner, who holds every permission, activates it.
    expect((await host.request('POST', `/workflows/${draft.id}/activate`)).status).toBe(200);
  });

  test("an editor without orders.view cannot run the admin's order workflow by hand with an order id of their choosing: 403, no run", async () => {
    const wf = (await host.request('POST', '/workflows', { name: 'Admin payments', trigger_type: 'manual', ...ordersGraph })).body.data;
    for (const action of ['execute', 'test']) {
      const refused = await host.requestAs(editor, 'POST', `/workflows/${wf.id}/${action}`, { data: { order_id: orderId } });
      expect([action, refused.status, refused.body.code]).toEqual([action, 403, 'WORKFLOW_PERMISSION_MISSING']);
    }
    expect((await host.request('GET', `/workflow-executions?workflow_id=${wf.id}`)).body.data).toEqual([]);
    expect(await payments()).toEqual([]);
  });

  test('an editor holding every permission its nodes need saves, becomes the owner, and the run acts as them; the activity log says who changed what', async () => {
    const wf = (await host.request('POST', '/workflows', harmless)).body.data;
    const adminId = wf.owner_id as number;
    const put = await host.requestAs(trusted, 'PUT', `/workflows/${wf.id}`, ordersGraph);
    expect(put.status).toBe(200);
    expect(put.body.data.owner_id).toBe(trustedId);
    const run = await host.requestAs(trusted, 'POST', `/workflows/${wf.id}/test`, { data: { order_id: orderId } });
    expect([run.body.data.status, run.body.data.error_message]).toEqual(['completed', null]);
    expect((await payments()).length).toBe(1);
    // The payment was recorded as the editor, not as the admin who made the workflow.
    const audit = (await host.auditRows()).filter((r) => r.action === 'orders.record_payment' && r.target === 'edge:workflow');
    expect(audit.map((r) => r.actor_id)).toEqual([String(trustedId)]);
    const activity = await host.sql<{ user_id: number; action: string; properties: Record<string, unknown> }>(
      "SELECT user_id::int, action, properties FROM activity_log WHERE subject_type = 'workflow' AND subject_id = $1 ORDER BY id", [wf.id],
    );
    expect(activity).toEqual([
      expect.objectContaining({ user_id: adminId, action: 'workflow_created' }),
      expect.objectContaining({ user_id: trustedId, action: 'workflow_updated', properties: expect.objectContaining({ previous_owner_id: adminId, owner_id: trustedId }) }),
    ]);
    // Later the editor loses the orders permissions: a run the admin starts acts as the owner, so its
    // order node is refused (checked at execute time, against the owner as they are now).
    await host.request('PATCH', `/members/${trustedId}`, { role: 'wf-editor' });
    const refused = await host.request('POST', `/workflows/${wf.id}/test`, { data: { order_id: orderId } });
    expect(refused.body.data.status).toBe('failed');
    expect(refused.body.data.error_message).toEqual(expect.stringContaining('orders.view'));
    expect((await payments()).length).toBe(1);
  });
});
