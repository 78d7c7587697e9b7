/**
 * Graph flows (spec 2: Graph run, States and transitions: graph run, Graph flows, Limits) down each
 * path, acting in the real orders module, with a stand-in language model scripting the agent nodes.
 */
import type { TestHost } from '../../../sdk/testing';
import { createOrder, orderWithNdr, paidOrder, startAiHost, type LlmStandIn } from './agent-support';

let host: TestHost;
let llm: LlmStandIn;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ host, llm, close } = await startAiHost());
}, 120_000);
afterAll(() => close?.());

const run = (flow_type: string, input_data: Record<string, unknown>) => host.request('POST', '/ai/agent/graph/run', { flow_type, input_data });
const resume = (run_id: string, human_input: unknown) => host.request('POST', '/ai/agent/graph/resume', { run_id, human_input });
const status = (id: string) => host.request('GET', `/ai/agent/graph/${id}/status`);
const answer = (json: Record<string, unknown>) => llm.script({ content: JSON.stringify(json) });
const ndrCase = async (orderId: string) =>
  (await host.request('GET', '/orders/ndr-cases?limit=200')).body.cases.find((c: { order_id: string }) => c.order_id === orderId) as { action: string | null; resolved_at: string | null };

describe('spec 2 Graph flows: ndr_resolution', () => {
  it('auto path: a confident analysis of a small order reattempts the NDR case in orders, no human asked', async () => {
    const order = await orderWithNdr(host);
    answer({ action: 'REATTEMPT', confidence: 92, reasoning: 'Customer was out; first failure.' });
    const res = await run('ndr_resolution', { order_id: order.id, ndr_reason: 'customer not available', delivery_attempts: 1, customer_phone: '+919800000000' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run_id: expect.any(String), flow_type: 'ndr_resolution', status: 'completed', total_tokens: 30, final_output: { outcome: 'REATTEMPT', approved_by: 'auto', executed: true } });
    expect(res.body.node_results.map((n: { node_name: string }) => n.node_name)).toEqual(['FetchOrderData', 'AnalyzeNDR', 'DecideAction', 'ExecuteAction']);
    expect(await ndrCase(order.id)).toMatchObject({ action: 'reattempt', resolved_at: expect.any(String) });
  });

  it.each(['CONTACT', 'ESCALATE'])('%s changes nothing in orders', async (action) => {
    const order = await orderWithNdr(host);
    answer({ action, confidence: 0.85, reasoning: 'Address unclear.' });
    const res = await run('ndr_resolution', { order_id: order.id, ndr_reason: 'address incomplete' });
    expect(res.body).toMatchObject({ status: 'completed', final_output: { outcome: action, executed: false } });
    expect(await ndrCase(order.id)).toMatchObject({ action: null, resolved_at: null });
  });

  it('an order above 5000 pauses for approval; bad input is refused and writes nothing; approve executes', async () => {
    const order = await orderWithNdr(host, '5000.00'); // 5900.00 with GST
    answer({ action: 'REATTEMPT', confidence: 95, reasoning: 'Likely available tomorrow.' });
    const paused = await run('ndr_resolution', { order_id: order.id, ndr_reason: 'customer not available' });
    expect(paused.body).toMatchObject({ status: 'paused', current_node: 'ApproveAction', requires_human_input: true, human_input_prompt: expect.stringContaining('order value above 5000') });
    expect(paused.body.human_input_schema).toMatchObject({
      required: ['decision'],
      properties: { decision: { enum: ['approve', 'reject', 'override'] }, override_action: { enum: ['REATTEMPT', 'RTO', 'CONTACT', 'ESCALATE'] }, notes: { type: 'string' } },
    });
    const before = (await status(paused.body.run_id)).body;
    for (const bad of [{ decision: 'maybe' }, {}, { decision: 'override' }, { decision: 'approve', extra: 1 }]) {
      const refused = await resume(paused.body.run_id, bad);
      expect([refused.status, refused.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect((await status(paused.body.run_id)).body).toEqual(before);
    const done = await resume(paused.body.run_id, { decision: 'approve', notes: 'ok' });
    expect(done.body).toMatchObject({ status: 'completed', final_output: { outcome: 'REATTEMPT', approved_by: 'human' } });
    expect(await ndrCase(order.id)).toMatchObject({ action: 'reattempt' });
    // A completed run takes no more input, and nothing changes.
    const again = await resume(paused.body.run_id, { decision: 'approve' });
    expect([again.status, again.body.code]).toEqual([409, 'RUN_NOT_PAUSED']);
    expect((await status(paused.body.run_id)).body.status).toBe('completed');
  });

  it('low confidence pauses; an override to RTO returns the order to origin', async () => {
    const order = await orderWithNdr(host);
    answer({ action: 'REATTEMPT', confidence: 55, reasoning: 'Unsure.' });
    const paused = await run('ndr_resolution', { order_id: order.id, ndr_reason: 'refused' });
    expect(paused.body.human_input_prompt).toContain('confidence below 70%');
    const done = await resume(paused.body.run_id, { decision: 'override', override_action: 'RTO' });
    expect(done.body.final_output).toMatchObject({ outcome: 'RTO' });
    expect((await host.request('GET', `/orders/${order.id}`)).body.status).toBe('rto_initiated');
  });

  it('the 21st node of a run is refused and the run fails (spec 2, Limits: 20 nodes per run)', async () => {
    const order = await orderWithNdr(host, '6000.00');
    answer({ action: 'REATTEMPT', confidence: 90 });
    let res = await run('ndr_resolution', { order_id: order.id, ndr_reason: 'refused' });
    const runId: string = res.body.run_id;
    // FetchOrderData, then (AnalyzeNDR, DecideAction, ApproveAction) per round: a reject sends it round again.
    for (let i = 0; i < 5; i++) {
      expect(res.body).toMatchObject({ status: 'paused', run_id: runId });
      answer({ action: 'REATTEMPT', confidence: 90 });
      res = await resume(runId, { decision: 'reject', notes: `round ${i}` });
    }
    expect(res.body.status).toBe('paused');
    answer({ action: 'REATTEMPT', confidence: 90 });
    const refused = await resume(runId, { decision: 'reject' }); // node 19 → AnalyzeNDR is the 20th, DecideAction the 21st
    expect([refused.status, refused.body.code]).toEqual([422, 'GRAPH_NODE_LIMIT']);
    const final = (await status(runId)).body;
    expect(final).toMatchObject({ status: 'failed', error: { code: 'GRAPH_NODE_LIMIT' } });
    expect(final.node_results).toHaveLength(20);
    expect(await ndrCase(order.id)).toMatchObject({ action: null });
  });
});

describe('spec 2 Graph flows: fraud_review', () => {
  it('risk below 0.3 approves by itself and confirms a pending order', async () => {
    const order = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.1, signals: [] });
    const res = await run('fraud_review', { order_id: order.id });
    expect(res.body).toMatchObject({ status: 'completed', final_output: { outcome: 'APPROVE', risk_band: 'low', reviewed_by: 'auto', order_status: 'confirmed' } });
    expect((await host.request('GET', `/orders/${order.id}`)).body.status).toBe('confirmed');
  });

  it.each([[0.3, 'medium'], [0.7, 'medium'], [0.71, 'high']])('risk %s asks a reviewer (%s band)', async (risk, band) => {
    const order = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: risk, signals: ['new customer'] });
    const res = await run('fraud_review', { order_id: order.id });
    expect(res.body).toMatchObject({ status: 'paused', current_node: 'ReviewFraud', human_input_schema: { properties: { decision: { enum: ['APPROVE', 'HOLD', 'CANCEL'] } } } });
    expect((await status(res.body.run_id)).body.state.FraudDecision).toMatchObject({ risk_band: band, auto_action: band === 'high' ? 'HOLD' : null });
    if (band === 'high') expect(res.body.human_input_prompt).toContain('on hold');
  });

  it('a reviewer\'s CANCEL cancels the order; HOLD leaves it as it is; APPROVE confirms it', async () => {
    const a = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.9, signals: ['mismatched address'] });
    const pa = await run('fraud_review', { order_id: a.id });
    expect((await resume(pa.body.run_id, { decision: 'CANCEL', notes: 'stolen card' })).body.final_output).toMatchObject({ outcome: 'CANCEL', order_status: 'cancelled' });
    expect((await host.request('GET', `/orders/${a.id}`)).body.status).toBe('cancelled');
    const b = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.5 });
    const pb = await run('fraud_review', { order_id: b.id });
    expect((await resume(pb.body.run_id, { decision: 'HOLD' })).body.final_output).toMatchObject({ outcome: 'HOLD', order_status: 'pending' });
    expect((await host.request('GET', `/orders/${b.id}`)).body.status).toBe('pending');
    const c = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.4 });
    const pc = await run('fraud_review', { order_id: c.id });
    expect((await resume(pc.body.run_id, { decision: 'APPROVE' })).body.final_output).toMatchObject({ outcome: 'APPROVE', reviewed_by: 'human', order_status: 'confirmed' });
  });
});

describe('spec 2 Graph flows: refund_approval', () => {
  const refunds = async (orderId: string) => (await host.request('GET', `/orders/${orderId}/refunds`)).body.refunds as Array<{ amount: string; status: string }>;

  it('at most 500 with an approved return refunds by itself', async () => {
    const order = await paidOrder(host);
    answer({ recommendation: 'APPROVE', reasoning: 'Return approved.' });
    const res = await run('refund_approval', { order_id: order.id, refund_amount: '450.00', reason: 'damaged', return_id: 'RET-1', return_status: 'approved' });
    expect(res.body).toMatchObject({ status: 'completed', final_output: { outcome: 'APPROVE', approved_by: 'auto', refund: { amount: '450.00', status: 'completed' } } });
    expect(await refunds(order.id)).toEqual([expect.objectContaining({ amount: '450.00', status: 'completed' })]);
  });

  it('above 500 (or no approved return) asks a reviewer; PARTIAL refunds the reviewer\'s amount; DENY refunds nothing', async () => {
    const order = await paidOrder(host);
    answer({ recommendation: 'PARTIAL', amount: '300.00' });
    const paused = await run('refund_approval', { order_id: order.id, refund_amount: '590.00', reason: 'late', return_id: 'RET-2', return_status: 'approved' });
    expect(paused.body).toMatchObject({ status: 'paused', current_node: 'ApproveRefund' });
    for (const bad of [{ decision: 'PARTIAL' }, { decision: 'PARTIAL', amount: '590.00' }, { decision: 'PARTIAL', amount: '12.345' }]) {
      expect((await resume(paused.body.run_id, bad)).status).toBe(422);
    }
    expect(await refunds(order.id)).toEqual([]);
    expect((await resume(paused.body.run_id, { decision: 'PARTIAL', amount: '300.00' })).body.final_output).toMatchObject({ outcome: 'PARTIAL', refund: { amount: '300.00' } });
    expect((await refunds(order.id)).map((r) => r.amount)).toEqual(['300.00']);

    const small = await paidOrder(host);
    answer({ recommendation: 'DENY' });
    const p2 = await run('refund_approval', { order_id: small.id, refund_amount: 100, reason: 'changed mind', return_id: null });
    expect(p2.body.status).toBe('paused'); // 100 is within 500 but the return is not approved
    expect((await resume(p2.body.run_id, { decision: 'DENY' })).body.final_output).toMatchObject({ outcome: 'DENY', refund: null });
    expect(await refunds(small.id)).toEqual([]);
  });
});

describe('spec 2 Graph run: input, permissions, listing and cancel', () => {
  it('refuses bad input with 422 and writes no run', async () => {
    const before = (await host.request('GET', '/ai/agent/graph/runs?limit=100')).body.data.length;
    expect((await run('ndr_resolution', { ndr_reason: 'x' })).status).toBe(422);
    expect((await run('refund_approval', { order_id: 'x', refund_amount: 'lots', reason: 'x' })).status).toBe(422);
    expect((await run('teleport', {})).status).toBe(422);
    expect((await host.request('GET', '/ai/agent/graph/runs?limit=100')).body.data.length).toBe(before);
  });

  it('graph run needs ai.configure (Authentication 3); a paused run can be cancelled once', async () => {
    const viewer = await host.memberWith('graph-viewer', ['ai.view']);
    expect((await host.requestAs(viewer, 'POST', '/ai/agent/graph/run', { flow_type: 'fraud_review', input_data: { order_id: 'x' } })).status).toBe(403);
    const order = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.5 });
    const paused = await run('fraud_review', { order_id: order.id });
    const cancelled = await host.request('POST', `/ai/agent/graph/${paused.body.run_id}/cancel`);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', requires_human_input: false });
    expect((await host.request('POST', `/ai/agent/graph/${paused.body.run_id}/cancel`)).status).toBe(409);
    expect((await resume(paused.body.run_id, { decision: 'APPROVE' })).status).toBe(409);
    expect((await host.request('GET', '/ai/agent/graph/runs?status=cancelled')).body.data.map((r: { run_id: string }) => r.run_id)).toContain(paused.body.run_id);
    expect((await status('00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('actions are the starter\'s: a run started by someone without orders.manage cannot cancel an order, whoever approves', async () => {
    const reviewer = await host.memberWith('graph-reviewer', ['ai.view', 'ai.configure', 'orders.view']);
    const order = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.5 });
    const paused = await host.requestAs(reviewer, 'POST', '/ai/agent/graph/run', { flow_type: 'fraud_review', input_data: { order_id: order.id } });
    expect(paused.body.status).toBe('paused');
    const refused = await host.requestAs(reviewer, 'POST', '/ai/agent/graph/resume', { run_id: paused.body.run_id, human_input: { decision: 'CANCEL' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect((await host.request('GET', `/orders/${order.id}`)).body.status).toBe('pending');
    expect((await status(paused.body.run_id)).body).toMatchObject({ status: 'failed', error: { code: 'FORBIDDEN' } });
  });

  it('a reviewer who may cancel orders too resumes a run the owner started, and the owner\'s action is taken', async () => {
    const reviewer = await host.memberWith('graph-approver', ['ai.view', 'ai.configure', 'orders.view', 'orders.manage']);
    const order = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.6 });
    const paused = await run('fraud_review', { order_id: order.id });
    const done = await host.requestAs(reviewer, 'POST', '/ai/agent/graph/resume', { run_id: paused.body.run_id, human_input: { decision: 'CANCEL', notes: 'fraud ring' } });
    expect(done.body).toMatchObject({ status: 'completed', final_output: { outcome: 'CANCEL', order_status: 'cancelled' } });
    expect((await host.request('GET', `/orders/${order.id}`)).body.status).toBe('cancelled');
    expect(JSON.stringify((await status(paused.body.run_id)).body)).not.toContain('acting_grant');
  });
});

describe('spec 2 Graph run: a run whose process stopped while running is carried on by its watch job', () => {
  /** What a process that died right after `node` was written leaves: the run `running`, untouched for ten minutes. */
  const stopAt = (runId: string, node: string, state: Record<string, unknown>) =>
    host.arrange((sql) =>
      sql(
        `UPDATE ai.graph_runs SET status = 'running', current_node = :node, state = (state::jsonb || :state::jsonb)::json, updated_at = now() - interval '10 minutes', version = version + 1 WHERE id = :id`,
        { node, state: JSON.stringify(state), id: runId },
      ),
    );

  it('continues from the node it stopped at, as its starter; a stop inside an action fails the run instead of acting twice', async () => {
    const a = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.5 });
    const ra = await run('fraud_review', { order_id: a.id });
    const b = await createOrder(host, '500.00', { status: 'pending' });
    answer({ risk_score: 0.5 });
    const rb = await run('fraud_review', { order_id: b.id });
    await stopAt(ra.body.run_id, 'FraudDecision', { ScoreFraudRisk: { risk_score: 0.1, signals: [], reasoning: '' } });
    await stopAt(rb.body.run_id, 'TakeAction', { ReviewFraud: { decision: 'CANCEL' } });
    host.clock.advance(121_000);
    try {
      await host.runJobs();
    } finally {
      host.clock.reset();
    }
    expect((await status(ra.body.run_id)).body).toMatchObject({ status: 'completed', final_output: { outcome: 'APPROVE', order_status: 'confirmed' } });
    expect((await host.request('GET', `/orders/${a.id}`)).body.status).toBe('confirmed');
    expect((await status(rb.body.run_id)).body).toMatchObject({ status: 'failed', error: { code: 'RUN_INTERRUPTED' } });
    expect((await host.request('GET', `/orders/${b.id}`)).body.status).toBe('pending');
  });
});
