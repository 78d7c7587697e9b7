/**
 * Issue 8: refunds Razorpay answers `pending`, settled later by its signed webhook or by the poll,
 * in the real sandbox over real HTTP, against the Razorpay stand-in on 127.0.0.1.
 */
import type { TestHost } from '../../../sdk/testing';
import { holdsAndStays, orderBody, recorded, startOrdersWithRazorpay } from './support';

const WEBHOOK_SECRET = 'rzp-webhook-secret-0123456789';
let setup: Awaited<ReturnType<typeof startOrdersWithRazorpay>>;
let host: TestHost;
let rzp: Awaited<ReturnType<typeof startOrdersWithRazorpay>>['rzp'];

beforeAll(async () => {
  setup = await startOrdersWithRazorpay(WEBHOOK_SECRET);
  ({ host, rzp } = setup);
}, 60_000);
afterAll(() => setup?.close());

const deliver = (refundId: string, secret = WEBHOOK_SECRET, headers: Record<string, string> = {}) =>
  rzp.deliver(setup.webhookUrl, secret, refundId, { 'x-tenant': host.tenantId, ...headers });

/** An order of 1180.00 paid in full through Razorpay with a payment id the stand-in refunds as pending. */
async function paidOrder() {
  const created = await host.request('POST', '/orders', orderBody());
  expect(created.status).toBe(201);
  const order = created.body;
  const pay = await host.request('POST', `/orders/${order.id}/payments`, { method: 'razorpay', amount: '1180.00', external_payment_id: `pay_pending_${order.id.slice(0, 8)}` });
  expect(pay.status).toBe(201);
  return { order, payment: pay.body };
}

const getOrder = async (id: string) => (await host.request('GET', `/orders/${id}`)).body;
const refundsOf = async (id: string) => (await host.request('GET', `/orders/${id}/refunds`)).body.refunds;
const paymentOf = async (orderId: string, paymentId: string) =>
  (await host.request('GET', `/orders/${orderId}/payments`)).body.payments.find((p: { id: string }) => p.id === paymentId);

describe('spec 3: Refund — pending at the gateway, completed by its webhook', () => {
  it('stays pending with its amount reserved, completes once on a signed refund.processed, refuses a bad signature', async () => {
    const { order, payment } = await paidOrder();
    const r = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '600.00', reason: 'two items returned', issue_credit_note: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'pending', provider_module: 'payment-razorpay', external_refund_id: expect.stringMatching(/^rfnd_/), processed_at: null });
    expect(r.body.credit_note).toBeUndefined();
    // Not yet refunded: totals and payment_status unchanged.
    expect(r.body.order).toMatchObject({ total_refunded: '0.00', payment_status: 'paid', balance_due: '0.00' });
    // Reserved: only 580.00 is left to refund while 600.00 is pending.
    const over = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '580.01', reason: 'too much' });
    expect([over.status, over.body.code, over.body.details.refundable]).toEqual([422, 'REFUND_EXCEEDS_PAYMENT', '580.00']);
    expect((await paymentOf(order.id, payment.id)).refunded_amount).toBe('600.00');

    const rfnd = r.body.external_refund_id;
    rzp.finish(rfnd, 'processed');
    const forged = await deliver(rfnd, 'not-the-webhook-secret');
    expect([forged.status, forged.body.code]).toEqual([401, 'INVALID_SIGNATURE']);
    const unsigned = await deliver(rfnd, WEBHOOK_SECRET, { 'x-razorpay-signature': '' });
    expect(unsigned.status).toBe(401);
    expect((await refundsOf(order.id))[0].status).toBe('pending');

    const hook = await deliver(rfnd);
    expect(hook.status).toBe(201);
    expect(hook.body).toMatchObject({ applied: true, refund: { id: r.body.id, status: 'completed' }, order: { total_refunded: '600.00', payment_status: 'paid', balance_due: '600.00' } });
    // Razorpay retries and duplicates: applied once.
    const again = await deliver(rfnd);
    expect([again.status, again.body.applied]).toEqual([201, false]);
    expect(await getOrder(order.id)).toMatchObject({ total_refunded: '600.00', payment_status: 'paid' });
    expect((await paymentOf(order.id, payment.id)).refunded_amount).toBe('600.00');
    const invoices = (await host.request('GET', `/orders/${order.id}/invoices`)).body;
    const notes = (invoices.invoices ?? invoices).filter((i: { type: string }) => i.type === 'credit_note');
    expect(notes).toMatchObject([{ total: '600.00', refund_id: r.body.id }]);
    await holdsAndStays(host, async () => expect(await recorded(host, 'order.refund_processed', order.id)).toMatchObject([{ refund_id: r.body.id, amount: '600.00', external_refund_id: rfnd }]));
  });

  it('refund.failed marks it failed and releases the reserved amount, publishing nothing', async () => {
    const { order, payment } = await paidOrder();
    const r = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '1180.00', reason: 'order lost' });
    expect(r.body.status).toBe('pending');
    rzp.finish(r.body.external_refund_id, 'failed');
    const hook = await deliver(r.body.external_refund_id);
    expect(hook.body).toMatchObject({ applied: true, refund: { status: 'failed', failure_reason: expect.any(String) } });
    expect((await paymentOf(order.id, payment.id)).refunded_amount).toBe('0.00');
    expect(await getOrder(order.id)).toMatchObject({ total_refunded: '0.00', payment_status: 'paid' });
    // The released amount can be refunded again.
    const retry = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '1180.00', reason: 'order lost, again' });
    expect([retry.status, retry.body.status]).toEqual([201, 'pending']);
    await new Promise((res) => setTimeout(res, 300));
    expect(await recorded(host, 'order.refund_processed', order.id)).toEqual([]);
  });

  it('the same webhook delivered five times at once is applied by exactly one', async () => {
    const { order, payment } = await paidOrder();
    const r = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '100.00', reason: 'late delivery' });
    rzp.finish(r.body.external_refund_id, 'processed');
    const hooks = await Promise.all(Array.from({ length: 5 }, () => deliver(r.body.external_refund_id)));
    expect(hooks.map((h) => h.status)).toEqual([201, 201, 201, 201, 201]);
    expect(hooks.filter((h) => h.body.applied)).toHaveLength(1);
    expect(await getOrder(order.id)).toMatchObject({ total_refunded: '100.00', payment_status: 'paid' });
    await holdsAndStays(host, async () => expect(await recorded(host, 'order.refund_processed', order.id)).toHaveLength(1));
  });

  it('acknowledges events it does not handle and refunds it does not know, changing nothing', async () => {
    const unknown = await deliver('rfnd_made_in_dashboard');
    expect([unknown.status, unknown.body.applied]).toEqual([201, false]);
    const { order, payment } = await paidOrder();
    const r = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '10.00', reason: 'goodwill' });
    // Still pending at Razorpay: the event would be refund.pending, which is not an outcome.
    const early = await deliver(r.body.external_refund_id);
    expect([early.status, early.body.applied]).toEqual([201, false]);
    expect((await refundsOf(order.id))[0].status).toBe('pending');
  });
});

describe('spec 3: Refund — pending refunds polled by the schedule refund_sync', () => {
  it('asks Razorpay (GET /v1/refunds/{id}) about refunds pending over 5 minutes and applies the answer once', async () => {
    const { order, payment } = await paidOrder();
    const r = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '180.00', reason: 'one item returned' });
    const rfnd = r.body.external_refund_id;
    // Too young to poll, and still pending at Razorpay anyway.
    const young = await host.request('POST', '/orders/refunds/sync', {});
    expect(young.body.errors).toEqual({});
    expect(rzp.seen.some((s) => s.url === `/v1/refunds/${rfnd}`)).toBe(false);

    const later = Date.now() + 6 * 60_000;
    host.clock.set(later);
    const stillPending = await host.request('POST', '/orders/refunds/sync', {});
    expect(stillPending.body).toMatchObject({ errors: {} });
    expect(rzp.seen.filter((s) => s.url === `/v1/refunds/${rfnd}`)).toHaveLength(1);
    expect((await refundsOf(order.id))[0].status).toBe('pending');

    rzp.finish(rfnd, 'processed');
    // The schedule (every 5 minutes) runs the poll without anyone asking.
    await host.runSchedules(Math.ceil(later / 300_000) * 300_000 + 1_000);
    await host.eventually(async () => expect((await refundsOf(order.id))[0]).toMatchObject({ status: 'completed', processed_at: expect.any(String) }));
    expect(await getOrder(order.id)).toMatchObject({ total_refunded: '180.00', payment_status: 'paid' });
    // The webhook arriving after the poll changes nothing.
    expect((await deliver(rfnd)).body.applied).toBe(false);
    await holdsAndStays(host, async () => expect(await recorded(host, 'order.refund_processed', order.id)).toHaveLength(1));
    host.clock.reset();
  });
});
