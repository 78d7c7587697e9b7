/**
 * Attacks on the approval notifications of paused graph runs (spec 2, Graph flows; spec 1,
 * Notifications): a member without ai.configure is never told of a paused run and cannot act on
 * the one the approvers' notifications link to, and a refused resume resolves nothing.
 */
import type { TestHost } from '../../sdk/testing';
import { createOrder, startAiHost, type LlmStandIn } from '../../modules/ai/test/agent-support';

describe('hostile: approval notifications of paused graph runs (spec 2, Graph flows)', () => {
  let host: TestHost;
  let llm: LlmStandIn;
  let close: () => Promise<void>;
  let viewer: string;

  beforeAll(async () => {
    ({ host, llm, close } = await startAiHost());
    viewer = await host.memberWith('ai-viewer', ['ai.view', 'orders.view', 'notifications.send']);
  }, 240_000);
  afterAll(() => close?.());

  test('a member without ai.configure gets no notification and cannot resume the run it would link to', async () => {
    const order = await createOrder(host, '500.00', { status: 'pending' });
    llm.script({ content: JSON.stringify({ risk_score: 0.5 }) });
    const paused = await host.request('POST', '/ai/agent/graph/run', { flow_type: 'fraud_review', input_data: { order_id: order.id } });
    expect(paused.body.status).toBe('paused');
    const mine = await host.requestAs(viewer, 'GET', '/notifications?module=ai');
    expect(mine.body.notifications).toEqual([]);
    const resumed = await host.requestAs(viewer, 'POST', '/ai/agent/graph/resume', { run_id: paused.body.run_id, human_input: { decision: 'APPROVE' } });
    expect([resumed.status, resumed.body.code]).toEqual([403, 'FORBIDDEN']);
    // The owner's notification is still unread: a refused resume resolves nothing.
    const owners = (await host.request('GET', '/notifications?module=ai')).body.notifications.filter((n: { data: { run_id: string } }) => n.data.run_id === paused.body.run_id);
    expect(owners.map((n: { read_at: string | null }) => n.read_at)).toEqual([null]);
  });
});
