/**
 * Spec 3 (orders part) conformance, checked from outside as a client would: every endpoint over real
 * HTTP against the real sandbox, bus, queue and PostgreSQL, with Razorpay and Shiprocket stood in on
 * 127.0.0.1. One describe per spec section; each asserts the fields, shapes, statuses, error codes,
 * states, transitions, defaults and rules that section states. Also spec 2 Tools: the 10 orders tools.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { createOrder, holdsAndStays, ORDERS_DIR, recorded, startOrdersWithProviders, type OrdersWithProviders, unordered } from './support';

let rig: OrdersWithProviders;
let host: TestHost;
let rzp: OrdersWithProviders['rzp'];
type Answer = { status: number; body: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  rig = await startOrdersWithProviders();
  ({ host, rzp } = rig);
}, 90_000);

afterAll(() => rig?.close());

/** A confirmed order of 2 × 500.00 at 18 % GST intra-state: total 1180.00. */
const order = (over: Record<string, unknown> = {}) => createOrder(host, over);

/**
 * 422 naming the field in `errors`, whether the manifest schema refused the input or the module's
 * own checks did (those add `code` and `details`; README, 422 shape).
 */
function expectInvalid(res: Answer, field: string) {
  expect(res.status).toBe(422);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.errors?.[field]?.length).toBeGreaterThan(0);
}

const track = (awb: string, status: string, at: string, reason?: string) =>
  host.request('POST', '/orders/shipments/tracking', { carrier_module: 'shipping-shiprocket', awb_number: awb, status, occurred_at: at, reason });

describe('spec 3: Order payment (fields, computed attributes, POST /orders/{order}/payments)', () => {
  it('records payments as separate records and reconciles total_paid, balance_due and payment_status pending → partial → paid', async () => {
    const o = await order();
    expect(o).toMatchObject({ payment_status: 'pending', total: '1180.00', currency: 'INR', is_cod: false, custom_fields: {}, customer: { name: 'Asha Rao' } });
    expect(o.items).toHaveLength(1);
    const first = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '500.00', collected_by: 'rider-7', metadata: { slip: 'A1' } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ order_id: o.id, method: 'cod', status: 'completed', amount: '500.00', currency: 'INR', metadata: { slip: 'A1' }, collected_by: 'rider-7', provider_module: null });
    expect(first.body.id).toMatch(UUID);
    expect(Number.isNaN(Date.parse(first.body.paid_at))).toBe(false);
    for (const key of ['external_payment_id', 'payment_link_url', 'payment_link_expires_at']) expect(first.body).toHaveProperty(key);
    expect(first.body.order).toMatchObject({ payment_status: 'partial', total_paid: '500.00', balance_due: '680.00' });
    const second = await host.request('POST', `/orders/${o.id}/payments`, { method: 'bank_transfer', amount: 680, external_payment_id: 'UTR-0001' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ method: 'bank_transfer', external_payment_id: 'UTR-0001', collected_by: null });
    expect(second.body.order).toMatchObject({ payment_status: 'paid', total_paid: '1180.00', balance_due: '0.00' });
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ payment_status: 'paid', total_paid: '1180.00', balance_due: '0.00' });
    await holdsAndStays(host, async () => expect(unordered((await recorded(host, 'order.payment_updated', o.id)).map((p) => p.payment_status))).toEqual(['paid', 'partial']));
  });

  it('an online gateway payment names its provider module payment-<gateway>; pending and failed payments do not count as paid', async () => {
    const o = await order();
    const online = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '100.00', external_payment_id: 'pay_conf_1', status: 'pending' });
    expect(online.status).toBe(201);
    expect(online.body).toMatchObject({ provider_module: 'payment-razorpay', method: 'razorpay', external_payment_id: 'pay_conf_1', status: 'pending', paid_at: null });
    expect(online.body.order).toMatchObject({ payment_status: 'pending', total_paid: '0.00', balance_due: '1180.00' });
  });

  it('bad input is refused with 422 naming the field, unknown orders with 404, and nothing is recorded', async () => {
    const o = await order();
    expectInvalid(await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: 'ten' }), 'amount');
    expectInvalid(await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '-1.00' }), 'amount');
    expectInvalid(await host.request('POST', `/orders/${o.id}/payments`, { amount: '1.00' }), 'method');
    const missing = await host.request('POST', '/orders/00000000-0000-4000-8000-000000000000/payments', { method: 'cod', amount: '1.00' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments).toEqual([]);
    // Every action on an unknown order is a 404, before anything else is looked at.
    const nobody = '00000000-0000-4000-8000-00000000beef';
    for (const [path, body] of [
      ['refund', { payment_id: '00000000-0000-4000-8000-000000000001', amount: '1.00', reason: 'x' }],
      ['ship', { carrier_module: 'shipping-shiprocket', awb_number: 'AWB-NOBODY' }],
      ['invoices', { type: 'invoice' }],
      ['payments/link', { provider_module: 'payment-razorpay' }],
    ] as const) {
      const res = await host.request('POST', `/orders/${nobody}/${path}`, body);
      expect([path, res.status, res.body.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it('POST /orders/{order}/payments/link asks the provider for the balance due, with currency, order_number reference and customer contact', async () => {
    const o = await order();
    await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '180.00' });
    const link = await host.request('POST', `/orders/${o.id}/payments/link`, { provider_module: 'payment-razorpay' });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ order_id: o.id, provider_module: 'payment-razorpay', status: 'pending', amount: '1000.00', currency: 'INR' });
    expect(link.body.payment_link_url).toMatch(/^https:\/\/rzp\.io\//);
    const sent = rzp.seen.filter((s) => s.url === '/v1/payment_links').at(-1)!.body;
    expect(sent).toMatchObject({ amount: 100000, currency: 'INR', reference_id: expect.stringMatching(new RegExp(`^${o.order_number}-`)), notes: { reference: o.order_number } });
    expect(sent.customer).toMatchObject({ email: o.customer.email, contact: o.customer.phone });
    const unknown = await host.request('POST', `/orders/${o.id}/payments/link`, { provider_module: 'payment-nowhere' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('UNKNOWN_PROVIDER');
  });
});

describe('spec 3: Refund (fields, POST /orders/{order}/refund)', () => {
  it('creates a refund record, publishes order.refund_processed and keeps balance_due = total − total_paid + refunded', async () => {
    const o = await order();
    const paid = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '1180.00' });
    const res = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '180.00', reason: 'damaged item' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ order_id: o.id, payment_id: paid.body.id, amount: '180.00', reason: 'damaged item', status: 'completed' });
    expect(res.body.id).toMatch(UUID);
    for (const key of ['provider_module', 'external_refund_id']) expect(res.body).toHaveProperty(key);
    expect(Number.isNaN(Date.parse(res.body.processed_at))).toBe(false);
    // payment_status follows total_paid (sum of completed payments), which a refund does not lower.
    expect(res.body.order).toMatchObject({ total_paid: '1180.00', total_refunded: '180.00', balance_due: '180.00', payment_status: 'paid' });
    await holdsAndStays(host, async () => expect(await recorded(host, 'order.refund_processed', o.id)).toEqual([expect.objectContaining({ refund_id: res.body.id, amount: '180.00' })]));
  });

  it('a payment refunded in full takes the status refunded and can be refunded no further', async () => {
    const o = await order();
    const paid = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '1180.00' });
    expect((await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '1000.00', reason: 'part' })).status).toBe(201);
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments[0].status).toBe('completed');
    const rest = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '180.00', reason: 'rest' });
    expect(rest.status).toBe(201);
    expect(rest.body.order).toMatchObject({ total_paid: '1180.00', total_refunded: '1180.00', balance_due: '1180.00', payment_status: 'paid' });
    expect((await host.request('GET', `/orders/${o.id}/payments`)).body.payments[0]).toMatchObject({ status: 'refunded', amount: '1180.00' });
    const again = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '1.00', reason: 'more' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'refunded' } });
  });

  it('forwards to the provider when the original payment was external', async () => {
    const o = await order();
    const paid = await host.request('POST', `/orders/${o.id}/payments`, { method: 'razorpay', amount: '1180.00', external_payment_id: `pay_conf_${o.id.slice(0, 8)}` });
    const res = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '100.00', reason: 'late' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ provider_module: 'payment-razorpay', status: 'completed' });
    expect(res.body.external_refund_id).toMatch(/^rfnd_/);
    expect(rzp.seen.some((s) => s.url === `/v1/payments/pay_conf_${o.id.slice(0, 8)}/refund` && s.body.amount === 10000)).toBe(true);
  });

  it('refuses a payment_id that is not a UUID, a missing reason and more than was paid (422); nothing is refunded', async () => {
    const o = await order();
    const paid = await host.request('POST', `/orders/${o.id}/payments`, { method: 'cod', amount: '100.00' });
    expectInvalid(await host.request('POST', `/orders/${o.id}/refund`, { payment_id: 'p-1', amount: '1.00', reason: 'x' }), 'payment_id');
    expectInvalid(await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '1.00' }), 'reason');
    const over = await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '100.01', reason: 'x' });
    expectInvalid(over, 'amount');
    expectInvalid(await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: '-1.00', reason: 'x' }), 'amount');
    expectInvalid(await host.request('POST', `/orders/${o.id}/refund`, { payment_id: paid.body.id, amount: 'abc', reason: 'x' }), 'amount');
    expect((await host.request('GET', `/orders/${o.id}/refunds`)).body.refunds).toEqual([]);
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ total_refunded: '0.00', total_paid: '100.00' });
  });
});

describe('spec 3: Invoice (POST /orders/{order}/invoices, number format, due date)', () => {
  it('issues invoice, proforma and credit note numbered <PREFIX>-<YYYYMM>-<NNNN>, sequential per prefix, due 30 days after creation', async () => {
    const o = await order({ same_state: false });
    const month = new Date().toISOString().slice(0, 7).replace('-', '');
    const a = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    expect(a.status).toBe(201);
    expect(a.body.invoice_number).toMatch(new RegExp(`^INV-${month}-\\d{4}$`));
    expect(a.body).toMatchObject({ order_id: o.id, type: 'invoice', subtotal: '1000.00', total_tax: '180.00', total: '1180.00', discount: '0.00', billing_name: 'Asha Rao' });
    expect(a.body.tax_details).toMatchObject({ cgst: '0.00', sgst: '0.00', igst: '180.00' });
    expect(['draft', 'issued', 'paid', 'cancelled']).toContain(a.body.status);
    expect(a.body.line_items).toHaveLength(1);
    expect(Date.parse(a.body.due_at) - Date.parse(a.body.issued_at)).toBe(30 * DAY_MS);
    const b = await host.request('POST', `/orders/${o.id}/invoices`, {});
    expect(b.body.type).toBe('invoice');
    expect(Number(b.body.invoice_number.slice(-4))).toBe(Number(a.body.invoice_number.slice(-4)) + 1);
    const pi = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'proforma' });
    expect(pi.body.invoice_number).toMatch(new RegExp(`^PI-${month}-\\d{4}$`));
    const cn = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'credit_note', amount: '118.00', reason: 'goodwill' });
    expect(cn.status).toBe(201);
    expect(cn.body.invoice_number).toMatch(new RegExp(`^CN-${month}-\\d{4}$`));
    expect(cn.body).toMatchObject({ type: 'credit_note', total: '118.00', total_tax: '18.00', subtotal: '100.00' });
    expectInvalid(await host.request('POST', `/orders/${o.id}/invoices`, { type: 'receipt' }), 'type');
  });
});

describe('spec 3: Shipment, States and transitions, Shipping endpoints', () => {
  it('can_ship is true only for confirmed, processing, ready_to_ship; a pending order cannot ship (409 INVALID_STATUS)', async () => {
    const o = await order({ status: 'pending' });
    expect(o.can_ship).toBe(false);
    const refused = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `P-${o.id}` });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'pending' } });
    // Nothing half-written: no shipment, the order as it was.
    expect((await host.request('GET', `/orders/${o.id}/shipments`)).body.shipments).toEqual([]);
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ status: 'pending', fulfillment_status: 'unfulfilled' });
    const steps: Array<[string, boolean]> = [['confirmed', true], ['processing', true], ['ready_to_ship', true], ['cancelled', false]];
    for (const [status, canShip] of steps) {
      const moved = await host.request('POST', `/orders/${o.id}/status`, { status });
      expect(moved.status).toBe(201);
      expect(moved.body).toMatchObject({ status, can_ship: canShip });
    }
    // Cancelled cannot ship either, and stays cancelled with no shipment.
    const cancelled = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `C-${o.id}` });
    expect([cancelled.status, cancelled.body.code]).toEqual([409, 'INVALID_STATUS']);
    expect((await host.request('GET', `/orders/${o.id}/shipments`)).body.shipments).toEqual([]);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('cancelled');
  });

  it('order processing moves one step at a time (confirmed → processing → ready_to_ship); skipping or going back is 409 INVALID_STATUS', async () => {
    const o = await order();
    const skip = await host.request('POST', `/orders/${o.id}/status`, { status: 'ready_to_ship' });
    expect(skip.status).toBe(409);
    expect(skip.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'confirmed', allowed: ['processing', 'cancelled'] } });
    expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'processing' })).body.status).toBe('processing');
    expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'confirmed' })).status).toBe(409);
    expect((await host.request('POST', `/orders/${o.id}/status`, { status: 'ready_to_ship' })).body.status).toBe('ready_to_ship');
  });

  it('partial fulfilment: ship with order_item_ids, then the rest; order shipped, events shipment_created, fulfilled, status_changed', async () => {
    const o = await order({ items: [{ name: 'Kurta', quantity: 1, unit_price: '500.00' }, { name: 'Scarf', quantity: 1, unit_price: '200.00' }] });
    const [kurta, scarf] = o.items.map((i: { id: string }) => i.id);
    const awb = `CONF-${o.id.slice(0, 8)}`;
    const first = await host.request('POST', `/orders/${o.id}/ship`, {
      carrier_module: 'shipping-shiprocket', awb_number: `${awb}-1`, tracking_url: 'https://track.example/1', estimated_delivery_at: '2031-01-05T10:00:00Z',
      dimensions: { length: 10, width: 8, height: 4, weight: 0.5 }, order_item_ids: [kurta],
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      order_id: o.id, carrier_module: 'shipping-shiprocket', awb_number: `${awb}-1`, tracking_url: 'https://track.example/1', order_item_ids: [kurta],
      dimensions: { length: 10, width: 8, height: 4, weight: 0.5 }, ndr_count: 0, estimated_delivery_at: '2031-01-05T10:00:00.000Z',
    });
    expect(['pending', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'rto_initiated', 'rto_received', 'cancelled']).toContain(first.body.status);
    expect(first.body.id).toMatch(UUID);
    for (const key of ['label_url', 'pickup_token', 'shipped_at', 'delivered_at']) expect(first.body).toHaveProperty(key);
    expect(first.body.order.status).toBe('shipped');
    const second = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `${awb}-2`, order_item_ids: [scarf] });
    expect(second.status).toBe(201);
    expect(second.body.order_item_ids).toEqual([scarf]);
    const list = await host.request('GET', `/orders/${o.id}/shipments`);
    expect(list.status).toBe(200);
    expect(list.body.shipments.map((s: { awb_number: string }) => s.awb_number)).toEqual([`${awb}-1`, `${awb}-2`]);
    expect(list.body.shipments[0].events).toEqual([]);
    await holdsAndStays(host, async () => {
      expect(await recorded(host, 'order.shipment_created', o.id)).toHaveLength(2);
      expect((await recorded(host, 'order.fulfilled', o.id)).map((p) => p.status)).toEqual(['shipped']);
      expect(await recorded(host, 'order.status_changed', o.id)).toEqual([{ order_id: o.id, order_number: o.order_number, old_status: 'confirmed', new_status: 'shipped' }]);
    });
  });

  it('carrier tracking moves shipped → out_for_delivery → delivered, recording tracking events (location, description, raw_data) and order.delivered', async () => {
    const o = await order();
    const awb = `TRK-${o.id.slice(0, 8)}`;
    expect((await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb })).status).toBe(201);
    const ofd = await host.request('POST', '/orders/shipments/tracking', {
      carrier_module: 'shipping-shiprocket', awb_number: awb, status: 'out_for_delivery', occurred_at: '2031-01-04T08:00:00Z', location: 'Bengaluru hub', description: 'Out with rider', raw_data: { scan: 17 },
    });
    expect(ofd.status).toBe(201);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('out_for_delivery');
    await track(awb, 'delivered', '2031-01-04T12:00:00Z');
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('delivered');
    const s = (await host.request('GET', `/orders/${o.id}/shipments`)).body.shipments[0];
    expect(s.status).toBe('delivered');
    expect(s.delivered_at).toBe('2031-01-04T12:00:00.000Z');
    expect(s.events[0]).toMatchObject({ shipment_id: s.id, status: 'out_for_delivery', location: 'Bengaluru hub', description: 'Out with rider', raw_data: { scan: 17 }, occurred_at: '2031-01-04T08:00:00.000Z' });
    expect(s.events[0].id).toMatch(UUID);
    await holdsAndStays(host, async () => {
      expect(unordered((await recorded(host, 'order.status_changed', o.id)).map((p) => p.new_status))).toEqual(unordered(['shipped', 'out_for_delivery', 'delivered']));
      expect(unordered((await recorded(host, 'order.fulfilled', o.id)).map((p) => p.status))).toEqual(unordered(['shipped', 'out_for_delivery']));
      expect(await recorded(host, 'order.delivered', o.id)).toHaveLength(1);
    });
  });

  it('NDR: each failed attempt opens a case and increments ndr_count; past the maximum attempts the shipment goes RTO (rto_initiated, then rto_received)', async () => {
    await host.request('PUT', '/order-settings', { ndr_max_attempts: 1, ndr_auto_reattempt: true });
    try {
      const o = await order();
      const awb = `NDR-${o.id.slice(0, 8)}`;
      await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb });
      const n1 = await track(awb, 'ndr', '2031-02-01T18:00:00Z', 'customer not available');
      expect(n1.body).toMatchObject({ ndr_count: 1, ndr_case: { attempt_number: 1, reason: 'customer not available', action: 'reattempt' } });
      expect(n1.body.ndr_case.shipment_id).toMatch(UUID);
      const n2 = await track(awb, 'ndr', '2031-02-02T18:00:00Z', 'refused');
      expect(n2.body).toMatchObject({ ndr_count: 2, status: 'rto_initiated', ndr_case: { attempt_number: 2, action: 'return_to_origin' } });
      expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('rto_initiated');
      await track(awb, 'rto_received', '2031-02-05T10:00:00Z');
      expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('rto_received');
    } finally {
      await host.request('PUT', '/order-settings', { ndr_max_attempts: 3 });
    }
  });

  it('POST /orders/bulk/ship creates shipments for many orders, each succeeding or failing on its own', async () => {
    const a = await order();
    const b = await order({ status: 'pending' });
    const res = await host.request('POST', '/orders/bulk/ship', {
      shipments: [
        { order_id: a.id, carrier_module: 'shipping-shiprocket', awb_number: `BULK-${a.id.slice(0, 8)}`, tracking_url: 'https://track.example/b' },
        { order_id: b.id, carrier_module: 'shipping-shiprocket', awb_number: `BULK-${b.id.slice(0, 8)}`, tracking_url: 'https://track.example/c' },
      ],
    });
    expect(res.status).toBe(201);
    // The answer has the shape of the other bulk actions (bulk status and cancel).
    expect(res.body).toMatchObject({ succeeded: 1, failed: 1 });
    expect(res.body.results[0]).toMatchObject({ order_id: a.id, ok: true, awb_number: `BULK-${a.id.slice(0, 8)}`, status: 'shipped' });
    expect(res.body.results[0].shipment_id).toMatch(UUID);
    expect(res.body.results[1]).toEqual({ order_id: b.id, ok: false, error: { code: 'INVALID_STATUS', message: expect.any(String), details: { current_status: 'pending' } } });
    expect((await host.request('GET', `/orders/${a.id}`)).body.status).toBe('shipped');
    expectInvalid(await host.request('POST', '/orders/bulk/ship', { shipments: [] }), 'shipments');
  });

  it('ship refuses a carrier_module not of the form shipping-<carrier> (422) and an unknown item (422); nothing is shipped', async () => {
    const o = await order();
    expectInvalid(await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'fedex', awb_number: 'X1' }), 'carrier_module');
    expectInvalid(await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: 'X2', order_item_ids: ['00000000-0000-4000-8000-000000000000'] }), 'order_item_ids');
    expect((await host.request('GET', `/orders/${o.id}/shipments`)).body.shipments).toEqual([]);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('confirmed');
  });
});

describe('spec 3: Tax configuration (calculation inputs, outputs, rate lookup order)', () => {
  const calc = (body: Record<string, unknown>) => host.request('POST', '/order-tax/calculate', body);

  it('intra-state halves into CGST and SGST, inter-state is IGST; same_state defaults to true; unsupported rates are refused', async () => {
    expect((await calc({ amount: '1000.00' })).body).toMatchObject({ rate: '18', cgst: '90.00', sgst: '90.00', igst: '0.00', total_tax: '180.00' });
    expect((await calc({ amount: '1000.00', same_state: false })).body).toMatchObject({ cgst: '0.00', sgst: '0.00', igst: '180.00', total_tax: '180.00' });
    for (const rate of [0, 5, 12, 18, 28]) expect((await calc({ amount: '100.00', rate_override: rate })).body.total_tax).toBe((rate).toFixed(2));
    expectInvalid(await calc({ amount: '100.00', rate_override: 7 }), 'rate_override');
    expectInvalid(await calc({ same_state: true }), 'amount');
  });

  it('rate lookup: rate_override, then the configuration holding the HSN code, then the default GST configuration, then 18', async () => {
    const hsn = await host.request('POST', '/order-tax-configurations', { name: 'Apparel', rate: '5.00', type: 'gst', hsn_codes: ['6109'] });
    expect(hsn.status).toBe(201);
    expect(hsn.body).toMatchObject({ name: 'Apparel', type: 'gst', is_default: false, hsn_codes: ['6109'] });
    expect(Number.isInteger(hsn.body.id)).toBe(true);
    // decimal(5,2): the same rate whether read back or just created.
    const read = await host.request('GET', `/order-tax-configurations/${hsn.body.id}`);
    expect([read.body.rate, hsn.body.rate]).toEqual(['5.00', '5.00']);
    const def = await host.request('POST', '/order-tax-configurations', { name: 'Standard', rate: 12, type: 'gst', is_default: true });
    try {
      expect((await calc({ amount: '100.00', hsn_code: '6109', rate_override: 28 })).body.rate).toBe('28');
      expect((await calc({ amount: '100.00', hsn_code: '6109' })).body).toMatchObject({ rate: '5', total_tax: '5.00' });
      expect((await calc({ amount: '100.00', hsn_code: '9999' })).body).toMatchObject({ rate: '12', total_tax: '12.00' });
      expectInvalid(await host.request('POST', '/order-tax-configurations', { name: 'Bad', rate: 10, type: 'gst' }), 'rate');
      expectInvalid(await host.request('POST', '/order-tax-configurations', { name: 'Bad', rate: 10, type: 'excise' }), 'type');
    } finally {
      await host.request('DELETE', `/order-tax-configurations/${def.body.id}`);
      await host.request('DELETE', `/order-tax-configurations/${hsn.body.id}`);
    }
    expect((await calc({ amount: '100.00', hsn_code: '6109' })).body).toMatchObject({ rate: '18', total_tax: '18.00' });
  });
});

describe('spec 3: Analytics (from and to date query parameters)', () => {
  it('the six endpoints answer for a range, and refuse a malformed date with 422', async () => {
    expect((await host.request('POST', '/orders/analytics/refresh', {})).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const q = `?from=${today}&to=${today}`;
    const dash = await host.request('GET', `/orders/analytics/dashboard${q}`);
    expect(dash.status).toBe(200);
    for (const key of ['total_orders', 'revenue', 'average_order_value', 'unique_customers', 'by_status', 'by_payment_status']) expect(dash.body).toHaveProperty(key);
    expect(dash.body.total_orders).toBeGreaterThan(0);
    for (const p of ['revenue', 'fulfillment', 'sources', 'products', 'cod-vs-prepaid']) expect((await host.request('GET', `/orders/analytics/${p}${q}`)).status).toBe(200);
    expectInvalid(await host.request('GET', '/orders/analytics/revenue?from=yesterday'), 'from');
  });

  it('GET /orders/stats (orders.getStats): the dashboard figures, fulfilment rates and COD versus prepaid of one range', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const q = `?from=${today}&to=${today}`;
    const [stats, dash] = [(await host.request('GET', `/orders/stats${q}`)).body, (await host.request('GET', `/orders/analytics/dashboard${q}`)).body];
    expect(stats).toMatchObject({ from: today, to: today, total_orders: dash.total_orders, revenue: dash.revenue, unique_customers: dash.unique_customers, by_status: dash.by_status });
    for (const key of ['delivery_rate', 'cancellation_rate', 'rto_rate']) expect(stats[key]).toMatch(/^\d+\.\d{2}$/);
    expect(stats.cod.orders + stats.prepaid.orders).toBe(dash.total_orders);
  });
});

describe('spec 3: Limits (tracking sync and analytics refresh intervals, webhook retry backoff)', () => {
  it('the module schedules the tracking sync every 30 minutes and the analytics refresh every 15; retries wait 60 seconds', async () => {
    const manifest = JSON.parse(await readFile(path.join(ORDERS_DIR, 'module.json'), 'utf8')) as { schedules: Array<{ operation: string; every_ms: number }> };
    const every = Object.fromEntries(manifest.schedules.map((s) => [s.operation, s.every_ms]));
    expect(every).toMatchObject({ 'orders.sync_tracking': 30 * 60_000, 'orders.refresh_analytics': 15 * 60_000, 'orders.deliver_webhooks': 60_000 });
    expect((await host.request('GET', '/order-settings')).body).toMatchObject({ ndr_max_attempts: 3, ndr_auto_reattempt: true, webhook_retry_backoff_ms: 60_000 });
    // Every setting the endpoint accepts is kept (the backoff was once accepted and dropped).
    expect((await host.request('PUT', '/order-settings', { webhook_retry_backoff_ms: 5_000 })).body.webhook_retry_backoff_ms).toBe(5_000);
    expect((await host.request('PUT', '/order-settings', { webhook_retry_backoff_ms: 60_000 })).body.webhook_retry_backoff_ms).toBe(60_000);
  });
});

describe('spec 3: Authentication (bearer token required)', () => {
  it('the orders endpoints need the bearer token (401 without it, or with one that is not valid)', async () => {
    const anonymous = await fetch(`${host.url}/api/v1/orders`, { headers: { 'x-tenant': host.tenantId } });
    expect(anonymous.status).toBe(401);
    const forged = await fetch(`${host.url}/api/v1/orders`, { headers: { 'x-tenant': host.tenantId, authorization: 'Bearer mnd_not-a-real-token' } });
    expect(forged.status).toBe(401);
    expect((await host.request('GET', '/orders')).status).toBe(200);
  });
});

describe('spec 2: Tools (the orders module contributes 10 AI tools)', () => {
  const ORDERS_TOOLS = ['orders.get', 'orders.getStats', 'orders.list', 'orders.history', 'orders.list_payments', 'orders.list_refunds', 'orders.list_shipments', 'orders.calculate_tax', 'orders.create', 'orders.update_status'];

  it('GET /ai/agent/tools lists exactly the 10 orders tools, module orders, each with a description', async () => {
    const res = await host.request('GET', '/ai/agent/tools');
    expect(res.status).toBe(200);
    const mine = res.body.data.filter((t: { name: string; module: string }) => t.module === 'orders' || t.name.startsWith('orders.'));
    expect(mine.map((t: { name: string }) => t.name).sort()).toEqual([...ORDERS_TOOLS].sort());
    for (const t of mine) {
      expect(t.module).toBe('orders');
      expect(t.description.length).toBeGreaterThan(10);
    }
  });

  it('rule 2: a member with ai.view and orders.view sees the 8 reading tools, not create (orders.create) or update_status (orders.manage)', async () => {
    expect((await host.request('POST', '/roles', { name: 'orders-ai-viewer', permissions: ['ai.view', 'orders.view'] })).status).toBe(201);
    const { token } = await host.addMember({ email: 'ai-viewer@test-org.example', name: 'AI viewer', role: 'orders-ai-viewer' });
    const res = await fetch(`${host.url}/api/v1/ai/agent/tools`, { headers: { authorization: `Bearer ${token}`, 'x-tenant': host.tenantId } });
    const names = ((await res.json()) as { data: Array<{ name: string }> }).data.map((t) => t.name).filter((n) => n.startsWith('orders.'));
    expect(names.sort()).toEqual(ORDERS_TOOLS.filter((n) => n !== 'orders.create' && n !== 'orders.update_status').sort());
  });
});
