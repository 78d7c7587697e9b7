/**
 * Issue 8: the orders module in the real sandbox, over real HTTP, with the real bus, queue and
 * PostgreSQL; Razorpay and Shiprocket stood in by servers on 127.0.0.1 speaking their APIs.
 */
import type { TestHost } from '../../../sdk/testing';
import { createOrder, orderBody, recorded, startOrdersWithProviders, type OrdersWithProviders, unordered } from './support';

let rig: OrdersWithProviders;
let host: TestHost;
let rzp: OrdersWithProviders['rzp'];
const tracking = new Map<string, Array<Record<string, unknown>>>();

beforeAll(async () => {
  rig = await startOrdersWithProviders(tracking);
  ({ host, rzp } = rig);
}, 60_000);

afterAll(() => rig?.close());

const create = (over: Record<string, unknown> = {}) => createOrder(host, over);

describe('spec 3: orders, States and transitions, Events', () => {
  it('an order made over REST without a source is "manual" (ctx.caller is "http" in the handler)', async () => {
    expect((await create()).source).toBe('manual');
    expect((await create({ source: 'shopify' })).source).toBe('shopify');
  });

  it('creates an order with priced, taxed items and publishes order.created once', async () => {
    const o = await create();
    expect(o).toMatchObject({ status: 'confirmed', payment_status: 'pending', subtotal: '1000.00', tax_total: '180.00', total: '1180.00', balance_due: '1180.00', can_ship: true, currency: 'INR' });
    expect(o.order_number).toMatch(/^ORD-\d{6}$/);
    expect(o.items[0]).toMatchObject({ taxable_amount: '1000.00', tax_rate: '18.00', cgst: '90.00', sgst: '90.00', igst: '0.00', total: '1180.00' });
    await host.eventually(async () => expect(await recorded(host, 'order.created', o.id)).toHaveLength(1));
    const got = await host.request('GET', `/orders/${o.order_number}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(o.id);
  });

  it('lists with filters, search, sort and pagination', async () => {
    const tag = `SRCH-${Date.now()}`;
    for (let i = 0; i < 3; i++) await create({ order_number: `${tag}-${i}`, items: [{ name: 'Cap', quantity: 1, unit_price: `${100 + i}.00`, tax_rate: 0 }] });
    const page1 = await host.request('GET', `/orders?search=${tag}&sort=-total&per_page=2&page=1`);
    expect(page1.status).toBe(200);
    expect(page1.body.pagination).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
    expect(page1.body.data.map((o: { order_number: string }) => o.order_number)).toEqual([`${tag}-2`, `${tag}-1`]);
    const page2 = await host.request('GET', `/orders?search=${tag}&sort=-total&per_page=2&page=2`);
    expect(page2.body.data.map((o: { order_number: string }) => o.order_number)).toEqual([`${tag}-0`]);
    const none = await host.request('GET', `/orders?search=${tag}&status=delivered`);
    expect(none.body.pagination.total).toBe(0);
  });

  it('moves confirmed → processing → ready_to_ship with one status_changed per change; refuses skipping and shipping by status', async () => {
    const o = await create();
    expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'processing' })).body.status).toBe('processing');
    expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'ready_to_ship' })).body).toMatchObject({ status: 'ready_to_ship', can_ship: true });
    const back = await host.request('POST', `/orders/${o.id}/status`, { status: 'confirmed' });
    expect(back.status).toBe(409);
    expect(back.body.code).toBe('INVALID_STATUS');
    const shipped = await host.request('POST', `/orders/${o.id}/status`, { status: 'shipped' });
    expect(shipped.status).toBe(409);
    await host.eventually(async () => {
      const changes = await recorded(host, 'order.status_changed', o.id);
      expect(unordered(changes)).toEqual(unordered([
        { order_id: o.id, order_number: o.order_number, old_status: 'confirmed', new_status: 'processing' },
        { order_id: o.id, order_number: o.order_number, old_status: 'processing', new_status: 'ready_to_ship' },
      ]));
    });
  });

  it('unknown order: 404; bad input: 422 and nothing written', async () => {
    expect((await host.request('GET', '/orders/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await host.request('POST', '/orders/NOPE-1/payments', { method: 'cod', amount: '1.00' })).status).toBe(404);
    const before = (await host.request('GET', '/orders?per_page=1')).body.pagination.total;
    const bad = await host.request('POST', '/orders', orderBody({ items: [{ name: 'X', quantity: 1, unit_price: '-5' }] }));
    expect(bad.status).toBe(422);
    expect(bad.body.details.errors['items.0.unit_price']).toBeDefined();
    const bad2 = await host.request('POST', '/orders', orderBody({ items: [{ name: 'X', quantity: 1, unit_price: '10', tax_rate: 7 }] }));
    expect(bad2.status).toBe(422);
    expect((await host.request('GET', '/orders?per_page=1')).body.pagination.total).toBe(before);
  });

  it('cancel, then no payments; delete only without records', async () => {
    const o = await create();
    expect((await host.request('POST', `/orders/${o.id}/cancel`, { reason: 'customer asked' })).body).toMatchObject({ status: 'cancelled', cancel_reason: 'customer asked', can_ship: false });
    expect((await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '10.00' })).status).toBe(409);
    expect((await host.request('DELETE', `/orders/${o.id}`)).status).toBe(200);
    expect((await host.request('GET', `/orders/${o.id}`)).status).toBe(404);
  });
});

describe('spec 3: Order payment — reconciliation after each payment kind', () => {
  it('cod with collected_by, bank_transfer, then a gateway payment: partial → paid, in the same transaction', async () => {
    const o = await create(); // total 1180.00
    const cod = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '180.00', collected_by: 'Ravi (rider 12)' });
    expect(cod.status).toBe(201);
    expect(cod.body).toMatchObject({ method: 'cod', status: 'completed', amount: '180.00', collected_by: 'Ravi (rider 12)', provider_module: null });
    expect(cod.body.order).toMatchObject({ payment_status: 'partial', total_paid: '180.00', balance_due: '1000.00' });
    const bank = await host.request('POST', `/orders/${o.id}/payments`, { method: 'bank_transfer', amount: '500.50', external_payment_id: 'UTR123' });
    expect(bank.body.order).toMatchObject({ payment_status: 'partial', total_paid: '680.50', balance_due: '499.50' });
    const online = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '499.50', external_payment_id: 'pay_ABC1' });
    expect(online.body).toMatchObject({ method: 'razorpay', provider_module: 'payment-razorpay' });
    expect(online.body.order).toMatchObject({ payment_status: 'paid', total_paid: '1180.00', balance_due: '0.00' });
    const dup = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '1.00', external_payment_id: 'pay_ABC1' });
    expect(dup.status).toBe(409);
    await host.eventually(async () => {
      const updates = await recorded(host, 'order.payment_updated', o.id);
      expect(unordered(updates.map((u) => u.payment_status))).toEqual(['paid', 'partial', 'partial']);
    });
  });

  it('concurrent payments do not lose an update', async () => {
    const o = await create(); // 1180.00
    const results = await Promise.all(Array.from({ length: 8 }, () => host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '147.50' })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ total_paid: '1180.00', balance_due: '0.00', payment_status: 'paid' });
  });

  it('refuses negative, non-numeric and over-precise amounts, writing nothing', async () => {
    const o = await create();
    for (const amount of ['-1.00', 'abc', '1.001', 0, '']) {
      const r = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount });
      expect([r.status, r.body.code]).toEqual([422, 'VALIDATION_FAILED']);
    }
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments).toEqual([]);
  });

  it('payment link through payment-razorpay.createLink for the balance due, in paise with basic auth', async () => {
    const o = await create();
    await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '100.00' });
    const link = await host.request('POST', `/orders/${o.id}/payments/link`, { provider_module: 'payment-razorpay' });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ status: 'pending', provider_module: 'payment-razorpay', amount: '1080.00', payment_link_url: expect.stringMatching(/^https:\/\/rzp\.io\/i\//) });
    const sent = rzp.seen.filter((s) => s.url === '/v1/payment_links').pop()!;
    // Spec 3: reference = order_number (Razorpay's reference_id adds a suffix: it must be unique per link).
    expect(sent.body).toMatchObject({ amount: 108000, currency: 'INR', reference_id: expect.stringMatching(new RegExp(`^${o.order_number}-`)), notes: { reference: o.order_number }, customer: { email: o.customer.email, contact: o.customer.phone } });
    // The gateway reports the payment: confirmation reconciles.
    const done = await host.request('POST', `/orders/${o.id}/payments/${link.body.id}/confirm`, { status: 'completed', external_payment_id: 'pay_LINK1' });
    expect(done.body.order).toMatchObject({ payment_status: 'paid', balance_due: '0.00' });
  });

  it('unknown provider module: 422, nothing written', async () => {
    const o = await create();
    const r = await host.request('POST', `/orders/${o.id}/payments/link`, { provider_module: 'payment-stripe' });
    expect([r.status, r.body.code]).toEqual([422, 'UNKNOWN_PROVIDER']);
    // A payment recorded as made through a gateway that is not installed: its refunds would have nowhere to go.
    const paid = await host.request('POST', `/orders/${o.id}/payments`, { method: 'paypal', amount: '1.00', external_payment_id: 'PAYID-1' });
    expect([paid.status, paid.body.code]).toEqual([422, 'UNKNOWN_PROVIDER']);
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments).toEqual([]);
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ total_paid: '0.00', payment_status: 'pending' });
  });
});

describe('spec 3: Refund', () => {
  it('forwards an external payment refund to Razorpay, reconciles, publishes refund_processed once; refuses above what was paid', async () => {
    const o = await create();
    const pay = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '1180.00', external_payment_id: 'pay_REF1' });
    const over = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: pay.body.id, amount: '1180.01', reason: 'too much' });
    expect([over.status, over.body.code]).toEqual([422, 'REFUND_EXCEEDS_PAYMENT']);
    const r = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: pay.body.id, amount: '180.00', reason: 'one item returned', issue_credit_note: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'completed', provider_module: 'payment-razorpay', external_refund_id: expect.stringMatching(/^rfnd_/), amount: '180.00' });
    // Spec 3: payment_status follows total_paid (still the whole total); the refund shows in balance_due.
    expect(r.body.order).toMatchObject({ total_paid: '1180.00', total_refunded: '180.00', balance_due: '180.00', payment_status: 'paid' });
    expect(r.body.credit_note).toMatchObject({ type: 'credit_note', total: '180.00', total_tax: '27.46', invoice_number: expect.stringMatching(/^CN-\d{6}-\d{4}$/) });
    const sent = rzp.seen.filter((s) => s.url === '/v1/payments/pay_REF1/refund');
    expect(sent).toHaveLength(1);
    expect(sent[0].body.amount).toBe(18000);
    const rest = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: pay.body.id, amount: '1000.01', reason: 'x' });
    expect(rest.status).toBe(422);
    await host.eventually(async () => expect(await recorded(host, 'order.refund_processed', o.id)).toHaveLength(1));
  });

  it('a refund the gateway declines is recorded failed and releases the amount', async () => {
    const o = await create();
    const pay = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '100.00', external_payment_id: 'pay_declined' });
    const r = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: pay.body.id, amount: '50.00', reason: 'x' });
    expect([r.status, r.body.code]).toEqual([502, 'PROVIDER_ERROR']);
    const refunds = (await host.request('GET', `/orders/${o.id}/refunds`)).body.refunds;
    expect(refunds).toMatchObject([{ status: 'failed', amount: '50.00' }]);
    const cod = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '10.00' });
    const local = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: cod.body.id, amount: '10.00', reason: 'cash back' });
    expect(local.body).toMatchObject({ status: 'completed', provider_module: null });
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments.find((p: { id: string }) => p.id === pay.body.id).refunded_amount).toBe('0.00');
  });
});
