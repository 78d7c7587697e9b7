/**
 * spec 2, Graph flows: "persists state after each node so runs survive restarts". A refund run
 * paused for approval on one platform process is resumed on the next one, started on the same
 * databases, and completes with the refund taken in orders.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { buildModule } from '../../sdk/build/build-module';
import { llmStandIn, type LlmStandIn } from '../../modules/ai/test/agent-support';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';

const MODULES = ['orders', 'shipping-shiprocket', 'ai'].map((m) => path.resolve(__dirname, '../../modules', m));

describe('spec 2 Graph run (persisted per tenant): a paused run survives a platform restart', () => {
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;
  const env = { MODULE_PATHS: MODULES.join(':') };
  let a: TestPlatform | undefined;
  let b: TestPlatform | undefined;
  let llm: LlmStandIn;

  beforeAll(async () => {
    for (const dir of MODULES) await buildModule(dir);
    llm = await llmStandIn();
  }, 120_000);
  afterAll(async () => {
    await a?.platform.stop().catch(() => undefined);
    await b?.close();
    await dropDatabase(testServerUrl(), db);
    await llm?.close();
  }, 60_000);

  test('paused before the stop, resumed after the start: completes and refunds in orders', async () => {
    a = await startTestPlatform(env, db);
    const owner = await a.install('acme');
    const as = (p: string, init: { method?: string; body?: unknown } = {}) => a!.api(p, { token: owner.token, tenant: 'acme', ...init });
    for (const alias of ['orders', 'shipping_shiprocket', 'ai']) expect((await as(`/modules/${alias}/install`, { body: {} })).status).toBe(201);
    for (const [method, p, body] of [
      ['PUT', '/modules/fetch-origins', { fetch_origins: [{ origin: llm.origin, module: 'ai' }] }],
      ['PATCH', `/admin/tenants/${owner.tenantId}/private-networks`, { allow_private_networks: true }],
      ['POST', '/ai/providers', { id: 'standin', name: 'Stand-in', type: 'vendora_compatible', base_url: `${llm.origin}/v1`, models: ['stand-in-model'] }],
      ['PUT', '/ai/providers/standin/credentials', { api_key: 'sk-standin-0123456789', model: 'stand-in-model' }],
      ['PUT', '/ai/config', { default_provider: 'standin' }],
    ] as const) {
      const res = await as(p, { method, body });
      expect([p, res.status < 300]).toEqual([p, true]);
    }
    const order = await as('/orders', {
      body: {
        customer: { id: 'restart-1', name: 'Asha Rao', email: 'asha@example.com' },
        items: [{ name: 'Kurta', quantity: 1, unit_price: '1000.00', tax_rate: 0 }],
        shipping_address: { name: 'Asha Rao', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' },
        status: 'confirmed',
      },
    });
    expect(order.status).toBe(201);
    expect((await as(`/orders/${order.body.id}/payments`, { body: { method: 'bank_transfer', amount: order.body.total } })).status).toBe(201);
    llm.script({ content: JSON.stringify({ recommendation: 'APPROVE', reasoning: 'Damaged in transit.' }) });
    const paused = await as('/ai/agent/graph/run', { body: { flow_type: 'refund_approval', input_data: { order_id: order.body.id, refund_amount: '800.00', reason: 'damaged', return_id: 'RET-9', return_status: 'approved' } } });
    expect(paused.body).toMatchObject({ status: 'paused', current_node: 'ApproveRefund', requires_human_input: true });
    await a.platform.stop();
    a = undefined;

    b = await startTestPlatform(env, db);
    const bs = (p: string, init: { method?: string; body?: unknown } = {}) => b!.api(p, { token: owner.token, tenant: 'acme', ...init });
    expect((await bs(`/ai/agent/graph/${paused.body.run_id}/status`)).body).toMatchObject({
      status: 'paused', current_node: 'ApproveRefund', state: { LoadRefundContext: { order_id: order.body.id }, EvaluateRefund: { recommendation: 'APPROVE' } },
    });
    const done = await bs('/ai/agent/graph/resume', { body: { run_id: paused.body.run_id, human_input: { decision: 'APPROVE', notes: 'after restart' } } });
    expect(done.body).toMatchObject({ status: 'completed', final_output: { outcome: 'APPROVE', approved_by: 'human', refund: { amount: '800.00', status: 'completed' } } });
    expect(done.body.node_results.map((n: { node_name: string }) => n.node_name)).toEqual(['LoadRefundContext', 'EvaluateRefund', 'RefundDecision', 'ApproveRefund', 'ProcessRefund']);
    expect((await bs(`/orders/${order.body.id}/refunds`)).body.refunds).toEqual([expect.objectContaining({ amount: '800.00', status: 'completed' })]);
  }, 180_000);
});
