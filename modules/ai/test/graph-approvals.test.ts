/**
 * A paused graph run notifies those who may approve it (spec 2, Graph flows: runs "can pause for
 * human approval"; spec 1, Notifications): every active member holding ai.configure, once per pause,
 * with the console page of the run; resolved (read) once the run is resumed or cancelled.
 */
import type { TestHost } from '../../../sdk/testing';
import { createOrder, orderWithNdr, startAiHost, type LlmStandIn } from './agent-support';

let host: TestHost;
let llm: LlmStandIn;
let close: () => Promise<void>;
let approver: string;
let viewer: string;

beforeAll(async () => {
  ({ host, llm, close } = await startAiHost());
  approver = await host.memberWith('run-approver', ['ai.view', 'ai.configure', 'orders.view', 'orders.manage']);
  viewer = await host.memberWith('run-viewer', ['ai.view', 'orders.view']);
}, 240_000);
afterAll(() => close?.());

interface Note { type: string; title: string; action_url: string; read_at: string | null; data: { run_id: string }; group_key: string; module: string }
const approvalsOf = async (as: string | null, runId: string): Promise<Note[]> => {
  const res = as ? await host.requestAs(as, 'GET', '/notifications?module=ai&per_page=100') : await host.request('GET', '/notifications?module=ai&per_page=100');
  expect(res.status).toBe(200);
  return (res.body.notifications as Note[]).filter((n) => n.data?.run_id === runId);
};

const pausedFraudReview = async () => {
  const order = await createOrder(host, '500.00', { status: 'pending' });
  llm.script({ content: JSON.stringify({ risk_score: 0.5, signals: [], reasoning: 'new customer' }) });
  const paused = await host.request('POST', '/ai/agent/graph/run', { flow_type: 'fraud_review', input_data: { order_id: order.id } });
  expect(paused.body.status).toBe('paused');
  return paused.body.run_id as string;
};

describe('spec 2 Graph flows: a run paused for approval notifies its approvers', () => {
  it('every member holding ai.configure gets one notification linking to the run; a member without it gets none', async () => {
    const runId = await pausedFraudReview();
    const [mine] = await approvalsOf(approver, runId);
    expect(await approvalsOf(approver, runId)).toHaveLength(1);
    expect(mine).toMatchObject({
      type: 'ai.graph_run.approval_requested',
      module: 'ai',
      title: 'Fraud review waits for your approval',
      action_url: `/admin/ai-runs/${runId}`,
      group_key: `ai.graph_run.${runId}`,
      read_at: null,
    });
    expect(await approvalsOf(null, runId)).toHaveLength(1); // the owner holds "*"
    expect(await approvalsOf(viewer, runId)).toEqual([]);
  });

  it('resuming resolves the notification for every approver; the viewer still has none', async () => {
    const runId = await pausedFraudReview();
    const done = await host.requestAs(approver, 'POST', '/ai/agent/graph/resume', { run_id: runId, human_input: { decision: 'HOLD' } });
    expect(done.body.status).toBe('completed');
    for (const as of [approver, null]) {
      const notes = await approvalsOf(as, runId);
      expect(notes).toHaveLength(1);
      expect(notes[0]!.read_at).toEqual(expect.any(String));
    }
    expect(await approvalsOf(viewer, runId)).toEqual([]);
  });

  it('cancelling a paused run resolves its notification', async () => {
    const runId = await pausedFraudReview();
    expect((await host.request('POST', `/ai/agent/graph/${runId}/cancel`)).body.status).toBe('cancelled');
    expect((await approvalsOf(approver, runId))[0]!.read_at).toEqual(expect.any(String));
  });

  it('once per pause: a rejected NDR analysis that pauses again asks again, the first one resolved', async () => {
    const order = await orderWithNdr(host, '5000.00');
    llm.script({ content: JSON.stringify({ action: 'REATTEMPT', confidence: 95, reasoning: 'first' }) });
    const paused = await host.request('POST', '/ai/agent/graph/run', { flow_type: 'ndr_resolution', input_data: { order_id: order.id, ndr_reason: 'customer not available' } });
    expect(paused.body.status).toBe('paused');
    const runId = paused.body.run_id as string;
    expect(await approvalsOf(approver, runId)).toHaveLength(1);
    llm.script({ content: JSON.stringify({ action: 'RTO', confidence: 90, reasoning: 'second' }) });
    const again = await host.requestAs(approver, 'POST', '/ai/agent/graph/resume', { run_id: runId, human_input: { decision: 'reject', notes: 'check again' } });
    expect(again.body.status).toBe('paused');
    const notes = await approvalsOf(approver, runId);
    expect(notes).toHaveLength(2);
    expect(notes.map((n) => n.read_at === null).sort()).toEqual([false, true]);
  });
});
