/**
 * A graph run resumed by someone other than its starter (spec 2, Graph run; States and transitions:
 * graph run; Tools): its tool nodes act as the starter, within the permissions of both the starter
 * and the resumer. A reviewer lacking a permission cannot get an action that needs it through
 * someone else's run, a stronger reviewer lends the run none of theirs, and the bound holds when the
 * watch job carries the run on after its process died.
 */
import type { TestHost } from '../../sdk/testing';
import { createOrder, startAiHost, type LlmStandIn } from '../../modules/ai/test/agent-support';

describe('hostile: a graph run resumed by another user acts with the starter\'s and the resumer\'s permissions together (spec 2, Graph run; Tools)', () => {
  let host: TestHost;
  let llm: LlmStandIn;
  let close: () => Promise<void>;
  /** May approve runs and read orders, but not change them. */
  let reviewer: string;
  /** May also change orders. */
  let manager: string;

  const orderStatus = async (id: string) => (await host.request('GET', `/orders/${id}`)).body.status as string;
  const status = async (id: string) => (await host.request('GET', `/ai/agent/graph/${id}/status`)).body;
  /** A fraud_review the model scores 0.5: it pauses for a reviewer. */
  const pausedReview = async (startAs: string | null) => {
    const order = await createOrder(host, '500.00', { status: 'pending' });
    llm.script({ content: JSON.stringify({ risk_score: 0.5 }) });
    const body = { flow_type: 'fraud_review', input_data: { order_id: order.id } };
    const paused = startAs ? await host.requestAs(startAs, 'POST', '/ai/agent/graph/run', body) : await host.request('POST', '/ai/agent/graph/run', body);
    expect(paused.body.status).toBe('paused');
    return { order, runId: paused.body.run_id as string };
  };
  const resume = (as: string | null, run_id: string, human_input: unknown) =>
    as ? host.requestAs(as, 'POST', '/ai/agent/graph/resume', { run_id, human_input }) : host.request('POST', '/ai/agent/graph/resume', { run_id, human_input });

  beforeAll(async () => {
    ({ host, llm, close } = await startAiHost());
    reviewer = await host.memberWith('graph-reviewer', ['ai.view', 'ai.configure', 'orders.view']);
    manager = await host.memberWith('graph-manager', ['ai.view', 'ai.configure', 'orders.view', 'orders.manage']);
  }, 240_000);
  afterAll(() => close?.());

  test("a reviewer without orders.manage cannot cancel an order through the owner's run: 403, the order untouched", async () => {
    const { order, runId } = await pausedReview(null);
    const refused = await resume(reviewer, runId, { decision: 'CANCEL', notes: 'looks fraudulent' });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.message).toContain('orders.manage');
    expect(await orderStatus(order.id)).toBe('pending');
    expect(await status(runId)).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN' } });
  });

  test("a run started by the reviewer and resumed by the owner does not gain the owner's orders.manage", async () => {
    const { order, runId } = await pausedReview(reviewer);
    const refused = await resume(null, runId, { decision: 'CANCEL' });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(await orderStatus(order.id)).toBe('pending');
  });

  test("a reviewer who holds orders.manage resumes the owner's run and the owner's action is taken", async () => {
    const { order, runId } = await pausedReview(null);
    const done = await resume(manager, runId, { decision: 'CANCEL', notes: 'fraud ring' });
    expect(done.body).toMatchObject({ status: 'completed', final_output: { outcome: 'CANCEL', order_status: 'cancelled' } });
    expect(await orderStatus(order.id)).toBe('cancelled');
    expect(JSON.stringify(await status(runId))).not.toContain('grant');
  });

  test("the resumer's bound holds when the watch job carries the run on after its process died", async () => {
    const { order, runId } = await pausedReview(null);
    // The reviewer holds it (nothing changes in orders), so the run carries their grant from now on.
    expect((await resume(reviewer, runId, { decision: 'HOLD' })).body.status).toBe('completed');
    // What a process that died after the reviewer's resume, before the next node, leaves: the run
    // `running`, untouched for ten minutes, at a node whose low score approves (confirms) the order.
    await host.arrange((sql) =>
      sql(
        `UPDATE ai.graph_runs SET status = 'running', current_node = 'FraudDecision', final_output = NULL, updated_at = now() - interval '10 minutes', version = version + 1,
           state = ((state::jsonb - 'ReviewFraud' - 'TakeAction') || '{"ScoreFraudRisk": {"risk_score": 0.1, "signals": [], "reasoning": ""}}'::jsonb)::json WHERE id = :id`,
        { id: runId },
      ),
    );
    host.clock.advance(121_000);
    try {
      await host.runJobs();
    } finally {
      host.clock.reset();
    }
    expect(await status(runId)).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN' } });
    expect(await orderStatus(order.id)).toBe('pending');
  });
});
