/**
 * Provider contracts (DESIGN.md, Host capabilities for modules): `payment.createLink` goes to the
 * payment provider the tenant chose, in the real sandbox, with Razorpay stood in by a real server on
 * 127.0.0.1 and a second provider (test/contracts/fixtures/fakepay) installed beside it.
 */
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { razorpayStandIn } from '../../modules/orders/test/support';
import { addModules, dirs } from './support';

type Owner = Awaited<ReturnType<TestPlatform['install']>>;

describe('spec 3 Payments (payment.createLink) through the payment@1 contract: routed to the tenant\'s chosen provider', () => {
  let tp: TestPlatform;
  let owner: Owner;
  let rzp: Awaited<ReturnType<typeof razorpayStandIn>>;
  const as = (method: string, path: string, body?: unknown) => tp.api(path, { method, token: owner.token, tenant: 'acme', body });
  const install = async (alias: string) => {
    const res = await as('POST', `/modules/${alias}/install?wait=true`, {});
    if (res.status !== 201) throw new Error(`install ${alias}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const pay = (reference: string) =>
    tp.platform.kernel.bus.call({ kind: 'core' }, 'checkout.pay', { amount: '150.00', currency: 'INR', reference }, { tenantId: owner.tenantId, user: null });
  const asCheckout = (op: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: owner.tenantId, user: null });
  const payment = async () => (await as('GET', '/providers')).body.data.find((c: { contract: string }) => c.contract === 'payment');

  beforeAll(async () => {
    rzp = await razorpayStandIn('rzp_key', 'rzp_secret');
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await as('PATCH', '/admin/tenants/acme/private-networks', { allow_private_networks: true });
    await as('PUT', '/modules/fetch-origins', { fetch_origins: [{ origin: rzp.origin, module: 'payment_razorpay' }] });
    await addModules(tp, [dirs.orders, dirs.razorpay, dirs.fakepay, dirs.checkout]);
    await install('checkout');
  }, 240_000);
  afterAll(async () => {
    await tp?.close();
    await rzp?.close();
  });

  test('none installed: PROVIDER_MISSING says what to install', async () => {
    await expect(pay('R-0')).rejects.toMatchObject({ code: 'PROVIDER_MISSING', status: 422, details: { operation: 'payment.createLink', contract: 'payment' } });
    expect(await payment()).toEqual({
      contract: 'payment', id: 'payment@1', operations: ['payment.describe', 'payment.createLink', 'payment.link_status', 'payment.refund', 'payment.refund_status'],
      implementers: [], chosen: null, serving: null,
    });
  });

  test('one installed: it serves without a choice', async () => {
    await install('payment_fakepay');
    expect(await pay('R-1')).toEqual({ id: 'fp_R-1_150.00', url: 'https://pay.fakepay.example/R-1', status: 'created', expires_at: null });
    expect(await payment()).toMatchObject({ implementers: ['payment_fakepay'], chosen: null, serving: 'payment_fakepay' });
  });

  test('two installed and none chosen: PROVIDER_AMBIGUOUS names both; a choice routes, and switching it moves the next call', async () => {
    await install('payment_razorpay');
    await asCheckout('payment_razorpay.configure', { key_id: 'rzp_key', key_secret: 'rzp_secret', base_url: rzp.origin });
    await expect(pay('R-2')).rejects.toMatchObject({ code: 'PROVIDER_AMBIGUOUS', details: { candidates: ['payment_fakepay', 'payment_razorpay'] } });
    expect(await payment()).toMatchObject({ implementers: ['payment_fakepay', 'payment_razorpay'], chosen: null, serving: null });

    const chosen = await as('PUT', '/providers/payment', { module: 'payment_razorpay' });
    expect(chosen).toMatchObject({ status: 200, body: { chosen: 'payment_razorpay', serving: 'payment_razorpay' } });
    const before = rzp.seen.length;
    expect(await pay('R-3')).toMatchObject({ id: expect.stringMatching(/^plink_/), url: expect.stringMatching(/^https:\/\/rzp\.io\//) });
    expect(rzp.seen.slice(before).map((s) => s.url)).toEqual(['/v1/payment_links']);

    expect((await as('PUT', '/providers/payment', { module: 'payment_fakepay' })).body.serving).toBe('payment_fakepay');
    expect(await pay('R-4')).toMatchObject({ id: 'fp_R-4_150.00' });
    expect(rzp.seen.length).toBe(before + 1);
    // The choice is the tenant's setting; other settings in the same JSON survive it.
    const tenant = await tp.platform.central.models.Tenant.findByPk(owner.tenantId);
    expect(tenant!.settings).toMatchObject({ providers: { payment: 'payment_fakepay' }, modules: { fetch_origins: [{ origin: rzp.origin, module: 'payment_razorpay' }] } });
  });

  test('the audit record names the contract operation and the provider that served it', async () => {
    await pay('R-AUDIT');
    await tp.platform.kernel.audit.flush();
    const [row] = await tp.platform.central.sequelize.query<{ actor_id: string; details: Record<string, unknown> }>(
      `SELECT actor_id, details FROM audit_log WHERE tenant_id = $1 AND action = 'payment.createLink' ORDER BY id DESC LIMIT 1`,
      { bind: [owner.tenantId], type: 'SELECT' as never },
    );
    expect(row).toMatchObject({ actor_id: 'checkout', details: { contract: 'payment.createLink', provider: 'payment_fakepay' } });
  });

  test('choosing what is not an installed implementation is refused, and the choice stays', async () => {
    const notProvider = await as('PUT', '/providers/payment', { module: 'checkout' });
    expect(notProvider).toMatchObject({ status: 422, body: { code: 'PROVIDER_NOT_IMPLEMENTING', details: { candidates: ['payment_fakepay', 'payment_razorpay'] } } });
    expect(notProvider.body.message).toContain('"checkout" is not an installed implementation of payment@1');
    expect((await as('PUT', '/providers/payment', { module: 'payment_nowhere' })).status).toBe(422);
    expect((await as('PUT', '/providers/payment', { module: 7 })).status).toBe(422);
    expect((await as('PUT', '/providers/teleport', { module: 'payment_fakepay' })).status).toBe(404);
    expect(await payment()).toMatchObject({ chosen: 'payment_fakepay' });
  });

  test('only modules.manage may read or choose', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'mo@acme.example', role: 'member' });
    expect((await tp.api('/providers', { token: member.token, tenant: 'acme' })).status).toBe(403);
    expect((await tp.api('/providers/payment', { method: 'PUT', token: member.token, tenant: 'acme', body: { module: 'payment_razorpay' } })).status).toBe(403);
  });

  test("the call's input is the contract's: what no provider must accept is refused before any provider runs", async () => {
    await expect(asCheckout('checkout.pay', { amount: 150, currency: 'INR', reference: 'R-5' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(asCheckout('checkout.pay', { amount: '1.00', currency: 'INR', reference: 'R-6', tip: '1' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('consuming payment.refund reaches it at a named implementer (the gateway that took the payment), not a contract operation it does not consume', async () => {
    expect(await asCheckout('checkout.refund_at', { provider: 'payment_razorpay', refund: { payment_id: 'pay_9', amount: '1.00' } })).toMatchObject({ id: expect.stringMatching(/^rfnd_/), status: 'completed' });
    await expect(asCheckout('checkout.status_at', { provider: 'payment_razorpay', link_id: 'plink_1' })).rejects.toMatchObject({ code: 'OPERATION_NOT_CONSUMED' });
    await expect(asCheckout('checkout.refund_at', { provider: 'orders', refund: {} })).rejects.toMatchObject({ code: 'OPERATION_NOT_FOUND' });
  });

  test('spec 3: orders (which names no provider module) takes a payment link from the chosen provider and refunds where the payment was taken', async () => {
    await install('orders');
    const order = await as('POST', '/orders', {
      customer: { name: 'Asha', email: 'asha@example.in', phone: '+919812345678' },
      items: [{ name: 'Tea', quantity: 2, unit_price: '75.00' }],
      shipping_address: { name: 'Asha', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560002', country: 'India' },
    });
    expect(order.status).toBe(201);
    // shipping.getRates as spec 3 names it: no carrier named and none installed.
    const rates = await as('POST', `/orders/${order.body.id}/shipping-rates`, { pickup_pincode: '560001' });
    expect(rates).toMatchObject({ status: 422, body: { code: 'PROVIDER_MISSING', details: { operation: 'shipping.getRates', contract: 'shipping' } } });
    const link = await as('POST', `/orders/${order.body.id}/payments/link`, {});
    expect(link).toMatchObject({ status: 201, body: { provider_module: 'payment-fakepay', method: 'fakepay', status: 'pending', external_payment_id: expect.stringMatching(/^fp_/) } });
    await as('PUT', '/providers/payment', { module: 'payment_razorpay' });
    const second = await as('POST', `/orders/${order.body.id}/payments/link`, {});
    expect(second.body).toMatchObject({ provider_module: 'payment-razorpay', external_payment_id: expect.stringMatching(/^plink_/) });

    // A payment taken at FakePay is refunded at FakePay while the tenant's choice is Razorpay.
    const paid = await as('POST', `/orders/${order.body.id}/payments`, { method: 'fakepay', amount: '150.00', external_payment_id: 'fp_pay_1' });
    expect(paid.body).toMatchObject({ provider_module: 'payment-fakepay', status: 'completed' });
    const before = rzp.seen.length;
    const refund = await as('POST', `/orders/${order.body.id}/refund`, { payment_id: paid.body.id, amount: '50.00', reason: 'one tea broken' });
    expect(refund.status).toBe(201);
    expect(JSON.stringify(refund.body)).toContain('fprf_fp_pay_1');
    expect(rzp.seen.length).toBe(before);
  });

  test('an uninstalled choice falls back to the only implementer left', async () => {
    await as('PUT', '/providers/payment', { module: 'payment_fakepay' });
    // The module host directly: a lifecycle job still pushing its progress would outlive the platform's close.
    await tp.platform.kernel.modules.uninstall(owner.tenantId, 'payment_fakepay');
    expect(await payment()).toMatchObject({ implementers: ['payment_razorpay'], chosen: 'payment_fakepay', serving: 'payment_razorpay' });
    expect(await pay('R-7')).toMatchObject({ id: expect.stringMatching(/^plink_/) });
  });
});
