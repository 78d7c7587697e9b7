/**
 * Spec 3, Order payment ("payment_status of the order reconciles automatically") for payment links:
 * a link made through POST /orders/{order}/payments/link is settled when the customer pays it, by
 * Razorpay's signed payment_link.* webhook or by the payment_link_sync poll, in the real sandbox
 * over real HTTP, against the Razorpay stand-in on 127.0.0.1.
 */
import type { TestHost } from '../../../sdk/testing';
import { orderBody, recorded, startOrdersWithRazorpay } from './support';

const WEBHOOK_SECRET = 'rzp-webhook-secret-links-0123';
let setup: Awaited<ReturnType<typeof startOrdersWithRazorpay>>;
let host: TestHost;
let rzp: Awaited<ReturnType<typeof startOrdersWithRazorpay>>['rzp'];

beforeAll(async () => {
  setup = await startOrdersWithRazorpay(WEBHOOK_SECRET);
  ({ host, rzp } = setup);
}, 60_000);
afterAll(() => setup?.close());

const deliverLink = (linkId: string, secret = WEBHOOK_SECRET) =>
  rzp.deliverLink(setup.webhookUrl, secret, linkId, { 'x-tenant': host.tenantId });

/** An order of 1180.00 with 180.00 paid cash and a Razorpay link for the 1000.00 left. */
async function orderWithLink() {
  const order = (await host.request('POST', '/orders', orderBody())).body;
  expect((await host.request('POST', `/orders/${order.id}/payments`, { method: 'cod', amount: '180.00' })).status).toBe(201);
  const link = await host.request('POST', `/orders/${order.id}/payments/link`, { provider_module: 'payment-razorpay' });
  expect(link.body).toMatchObject({ status: 'pending', amount: '1000.00', external_payment_id: expect.stringMatching(/^plink_/) });
  return { order, payment: link.body, linkId: link.body.external_payment_id as string };
}

const getOrder = async (id: string) => (await host.request('GET', `/orders/${id}`)).body;
const paymentOf = async (orderId: string, paymentId: string) =>
  (await host.request('GET', `/orders/${orderId}/payments`)).body.payments.find((p: { id: string }) => p.id === paymentId);

describe('spec 3 Order payment: a payment link the customer pays settles the order', () => {
  it('payment_link.paid (signed) completes the payment with the gateway\'s payment id once; the order reconciles to paid', async () => {
    const { order, payment, linkId } = await orderWithLink();
    expect(await getOrder(order.id)).toMatchObject({ payment_status: 'partial', balance_due: '1000.00' });
    const payId = rzp.payLink(linkId);

    const forged = await deliverLink(linkId, 'not-the-webhook-secret');
    expect([forged.status, forged.body.code]).toEqual([401, 'INVALID_SIGNATURE']);
    expect((await paymentOf(order.id, payment.id)).status).toBe('pending');

    const first = await deliverLink(linkId);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ applied: true, payment: { status: 'completed', external_payment_id: payId }, order: { payment_status: 'paid', total_paid: '1180.00', balance_due: '0.00' } });
    // Razorpay retries its webhooks: a repeat changes nothing.
    const again = await deliverLink(linkId);
    expect([again.status, again.body.applied]).toEqual([201, false]);
    expect(await paymentOf(order.id, payment.id)).toMatchObject({ status: 'completed', amount: '1000.00', external_payment_id: payId, paid_at: expect.any(String), metadata: { link_id: linkId, link_status: 'paid' } });
    await host.eventually(async () => expect((await recorded(host, 'order.payment_updated', order.id)).map((e) => e.payment_status)).toEqual(expect.arrayContaining(['partial', 'paid'])));
    expect((await recorded(host, 'order.payment_updated', order.id)).filter((e) => e.payment_status === 'paid')).toHaveLength(1);

    // Refunds go to the captured payment, not the link.
    const refund = await host.request('POST', `/orders/${order.id}/refund`, { payment_id: payment.id, amount: '100.00', reason: 'late delivery' });
    expect(refund.status).toBe(201);
    expect(rzp.seen.filter((s) => s.method === 'POST' && s.url.endsWith('/refund')).at(-1)!.url).toBe(`/v1/payments/${payId}/refund`);
  });

  it('payment_link.expired fails the pending payment and leaves the order as it was', async () => {
    const { order, payment, linkId } = await orderWithLink();
    rzp.endLink(linkId, 'expired');
    const res = await deliverLink(linkId);
    expect(res.body).toMatchObject({ applied: true, payment: { status: 'failed' }, order: { payment_status: 'partial', balance_due: '1000.00' } });
    expect(await paymentOf(order.id, payment.id)).toMatchObject({ status: 'failed', paid_at: null, metadata: { link_status: 'expired' } });
    // A new link can be made for what is still due.
    expect((await host.request('POST', `/orders/${order.id}/payments/link`, { provider_module: 'payment-razorpay' })).body).toMatchObject({ amount: '1000.00', status: 'pending' });
  });

  it('a link made elsewhere (Razorpay\'s dashboard) is acknowledged, nothing applied', async () => {
    const res = await deliverLink('plink_elsewhere');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ applied: false, reason: expect.stringMatching(/not known here/) });
  });
});

describe('spec 3 Order payment: the payment_link_sync poll settles links whose webhook never came', () => {
  it('asks Razorpay about links pending over 5 minutes (GET /v1/payment_links/{id}) and applies paid and expired answers', async () => {
    const t0 = Date.parse('2033-03-01T10:00:00Z');
    host.clock.freeze(t0);
    try {
      const paid = await orderWithLink();
      const expired = await orderWithLink();
      const open = await orderWithLink();
      const payId = rzp.payLink(paid.linkId);
      rzp.endLink(expired.linkId, 'expired');

      const asked = (linkId: string) => rzp.seen.some((s) => s.method === 'GET' && s.url === `/v1/payment_links/${linkId}`);
      // Too early: these links are not asked about.
      expect((await host.request('POST', '/orders/payment-links/sync', {})).status).toBe(201);
      expect([paid, expired, open].some((l) => asked(l.linkId))).toBe(false);

      // The schedule's slot at 10:10; the links were made at 10:00.
      host.clock.freeze(t0 + 10 * 60_000);
      await host.runSchedules(t0 + 10 * 60_000);
      // The poll asks about the links one by one, oldest first: once the last has been asked, the
      // answers before it have been applied.
      await host.eventually(async () => expect(asked(open.linkId)).toBe(true));
      expect(await paymentOf(paid.order.id, paid.payment.id)).toMatchObject({ status: 'completed', external_payment_id: payId, amount: '1000.00' });
      expect(await getOrder(paid.order.id)).toMatchObject({ payment_status: 'paid', balance_due: '0.00' });
      expect((await paymentOf(expired.order.id, expired.payment.id)).status).toBe('failed');
      expect((await paymentOf(open.order.id, open.payment.id)).status).toBe('pending');

      // A webhook that arrives after the poll settled the link is a repeat.
      expect((await deliverLink(paid.linkId)).body.applied).toBe(false);
    } finally {
      host.clock.reset();
    }
  });
});
