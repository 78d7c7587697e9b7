/** Issue 8: GST, invoices and shipping of the orders module, over real HTTP in the real sandbox. */
import type { TestHost } from '../../../sdk/testing';
import { orderBody, recorded, shiprocketStandIn, startOrdersHost, unordered } from './support';

let host: TestHost;
let sr: Awaited<ReturnType<typeof shiprocketStandIn>>;
const tracking = new Map<string, Array<Record<string, unknown>>>();
const WEBHOOK_TOKEN = 'sr-webhook-token-0123456789';

beforeAll(async () => {
  sr = await shiprocketStandIn(tracking);
  host = await startOrdersHost({ shipping_shiprocket: [sr.origin] });
  expect((await host.request('PUT', '/shipping-shiprocket/settings', { email: 'ops@test-org.example', password: 'sr-pass', base_url: sr.origin, webhook_token: WEBHOOK_TOKEN })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  host?.clock.reset();
  await host?.close();
  await sr?.close();
});

const tax = (body: Record<string, unknown>) => host.request('POST', '/order-tax/calculate', body);
const create = async (over: Record<string, unknown> = {}) => {
  const res = await host.request('POST', '/orders', orderBody(over));
  expect(res.status).toBe(201);
  return res.body;
};

describe('spec 3 Tax configuration: tax calculation (GST)', () => {
  it.each([
    ['0', '1000.00', '0.00', '0.00', '0.00'],
    ['5', '1000.00', '25.00', '25.00', '50.00'],
    ['12', '1000.00', '60.00', '60.00', '120.00'],
    ['18', '1000.00', '90.00', '90.00', '180.00'],
    ['28', '1000.00', '140.00', '140.00', '280.00'],
    ['18', '99.99', '9.00', '9.00', '18.00'], // 99.99 × 18 / 200 = 8.9991 → 9.00 each half
    ['5', '10.10', '0.25', '0.25', '0.50'], // 0.2525 → 0.25
    ['28', '0.05', '0.01', '0.01', '0.02'], // 0.007 → 0.01 (half-up per component)
  ])('intra-state at %s%% on %s: CGST %s + SGST %s', async (rate, amount, cgst, sgst, total) => {
    const r = await tax({ amount, rate_override: rate, same_state: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ rate, cgst, sgst, igst: '0.00', total_tax: total, rate_source: 'override' });
  });

  it.each([
    ['0', '1000.00', '0.00'], ['5', '1000.00', '50.00'], ['12', '1000.00', '120.00'], ['18', '1000.00', '180.00'], ['28', '1000.00', '280.00'], ['18', '99.99', '18.00'], ['12', '0.04', '0.00'],
  ])('inter-state at %s%% on %s: IGST %s', async (rate, amount, igst) => {
    const r = await tax({ amount, rate_override: rate, same_state: false });
    expect(r.body).toMatchObject({ rate, cgst: '0.00', sgst: '0.00', igst, total_tax: igst });
  });

  it('looks the rate up: override, then HSN configuration, then the default GST configuration, then 18', async () => {
    expect((await tax({ amount: '100.00', hsn_code: '9999' })).body).toMatchObject({ rate: '18', rate_source: 'fallback', total_tax: '18.00' });
    const hsn = await host.request('POST', '/order-tax-configurations', { name: 'Apparel', rate: '5', type: 'gst', hsn_codes: ['6109', '6203'] });
    expect(hsn.status).toBe(201);
    expect((await tax({ amount: '100.00', hsn_code: '6109' })).body).toMatchObject({ rate: '5', rate_source: 'hsn', cgst: '2.50', sgst: '2.50' });
    expect((await tax({ amount: '100.00', hsn_code: '9999' })).body).toMatchObject({ rate: '18', rate_source: 'fallback' });
    const def = await host.request('POST', '/order-tax-configurations', { name: 'Standard', rate: 12, type: 'gst', is_default: true });
    expect((await tax({ amount: '100.00', hsn_code: '9999' })).body).toMatchObject({ rate: '12', rate_source: 'default', total_tax: '12.00' });
    expect((await tax({ amount: '100.00', hsn_code: '6109', rate_override: 28 })).body).toMatchObject({ rate: '28', rate_source: 'override' });
    // A second default replaces the first; an unsupported GST rate is refused.
    await host.request('POST', '/order-tax-configurations', { name: 'Luxury default', rate: '28', type: 'gst', is_default: true });
    expect((await host.request('GET', `/order-tax-configurations/${def.body.id}`)).body.is_default).toBe(false);
    expect((await tax({ amount: '100.00' })).body.rate).toBe('28');
    expect((await host.request('POST', '/order-tax-configurations', { name: 'Bad', rate: '7', type: 'gst' })).status).toBe(422);
    expect((await tax({ amount: '100', rate_override: '15' })).status).toBe(422);
    // Orders use the same lookup per line; clean up so later orders see 18 by fallback.
    for (const c of (await host.request('GET', '/order-tax-configurations')).body.data) expect((await host.request('DELETE', `/order-tax-configurations/${c.id}`)).status).toBe(200);
  });

  it('orders shipped out of the seller state pay IGST', async () => {
    await host.request('PUT', '/order-settings', { seller_state: 'Maharashtra' });
    const o = await create(); // ships to Karnataka
    expect(o).toMatchObject({ same_state: false, tax_total: '180.00', tax_details: { igst: '180.00', cgst: '0.00', sgst: '0.00' } });
    await host.request('PUT', '/order-settings', { seller_state: 'Karnataka' });
    expect((await create()).tax_details).toMatchObject({ cgst: '90.00', sgst: '90.00', igst: '0.00' });
  });
});

describe('spec 3: Invoice numbering, credit notes and PDF', () => {
  it('numbers per prefix and month (India\'s, UTC+05:30), across a month boundary (settable clock), due 30 days out, PDF downloadable', async () => {
    const o = await create();
    host.clock.set(new Date('2031-01-31T18:29:00Z')); // 23:59 on 31 January in India
    const inv1 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    const pi1 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'proforma' });
    const inv2 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    host.clock.set(new Date('2031-01-31T18:31:00Z')); // 00:01 on 1 February in India
    const inv3 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    const cn1 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'credit_note', amount: '118.00', reason: 'damaged item' });
    // A credit note above what is left to credit is refused and takes no number: the next one is 0002.
    const over = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'credit_note', amount: '1062.01', reason: 'x' });
    expect([over.status, over.body.code]).toEqual([422, 'CREDIT_EXCEEDS_TOTAL']);
    const cn2 = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'credit_note', amount: '1.00', reason: 'goodwill', pdf: false });
    host.clock.reset();
    expect([inv1, pi1, inv2, inv3, cn1, cn2].map((r) => r.body.invoice_number)).toEqual(['INV-203101-0001', 'PI-203101-0001', 'INV-203101-0002', 'INV-203102-0001', 'CN-203102-0001', 'CN-203102-0002']);
    expect(inv1.body).toMatchObject({ type: 'invoice', status: 'issued', subtotal: '1000.00', total_tax: '180.00', total: '1180.00', billing_name: 'Asha Rao' });
    expect(Date.parse(inv1.body.due_at) - Date.parse(inv1.body.issued_at)).toBe(30 * 86_400_000);
    expect(inv1.body.due_at.slice(0, 10)).toBe('2031-03-02');
    expect(inv1.body.tax_details).toMatchObject({ cgst: '90.00', sgst: '90.00', igst: '0.00' });
    expect(inv1.body.line_items).toHaveLength(1);
    expect(cn1.body).toMatchObject({ total: '118.00', total_tax: '18.00', subtotal: '100.00', reason: 'damaged item', tax_details: { cgst: '9.00', sgst: '9.00' } });
    expect(inv1.body.pdf_path).toMatch(/^documents\/.+\/orders\/INV-203101-0001-[0-9a-f]+\.pdf$/);
    const pdf = await fetch(`${host.url}/api/v1/documents/orders/${inv1.body.pdf_path.split('/').pop()}`, { headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId } });
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a credit note\'s tax is the order\'s share, split in equal CGST and SGST halves (intra-state), or IGST (inter-state)', async () => {
    const intra = await create({ items: [{ name: 'Shawl', quantity: 1, unit_price: '1000.00', tax_rate: 12 }] }); // 1120.00 with 120.00 tax
    const cn = await host.request('POST', `/orders/${intra.id}/invoices`, { type: 'credit_note', amount: '100.00', reason: 'goodwill', pdf: false });
    // 100 × 120 / 1120 = 10.714…: each half 5.357… rounds to 5.36; the tax is the sum of the halves.
    expect(cn.body).toMatchObject({ total: '100.00', total_tax: '10.72', subtotal: '89.28', tax_details: { cgst: '5.36', sgst: '5.36', igst: '0.00' } });
    const inter = await create({ same_state: false, items: [{ name: 'Shawl', quantity: 1, unit_price: '1000.00', tax_rate: 12 }] });
    const cn2 = await host.request('POST', `/orders/${inter.id}/invoices`, { type: 'credit_note', amount: '100.00', reason: 'goodwill', pdf: false });
    expect(cn2.body).toMatchObject({ total_tax: '10.71', subtotal: '89.29', tax_details: { cgst: '0.00', sgst: '0.00', igst: '10.71' } });
  });

  it('50 concurrent invoice requests get 50 distinct consecutive numbers', async () => {
    const o = await create();
    host.clock.set(new Date('2032-06-15T10:00:00Z'));
    try {
      const res = await Promise.all(Array.from({ length: 50 }, () => host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice', pdf: false })));
      expect(res.map((r) => r.status)).toEqual(Array(50).fill(201));
      const numbers = res.map((r) => r.body.invoice_number).sort();
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `INV-203206-${String(i + 1).padStart(4, '0')}`));
    } finally {
      host.clock.reset();
    }
  });
});

describe('spec 3: Shipping, partial shipments, tracking and NDR', () => {
  it('ships partially by order_item_ids, repeatedly, with events; refuses a status that cannot ship and an unknown carrier', async () => {
    const o = await create({ items: [{ name: 'A', quantity: 1, unit_price: '100.00' }, { name: 'B', quantity: 1, unit_price: '200.00' }] });
    const [a, b] = o.items.map((i: { id: string }) => i.id);
    const unknown = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-bluedart', awb_number: 'X1' });
    expect([unknown.status, unknown.body.code]).toEqual([422, 'UNKNOWN_CARRIER']);
    const first = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `AWB-${o.id.slice(0, 8)}-1`, order_item_ids: [a] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'pending', order_item_ids: [a], order: { status: 'shipped', fulfillment_status: 'partial' } });
    const again = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `AWB-${o.id.slice(0, 8)}-X`, order_item_ids: [a] });
    expect([again.status, again.body.code]).toEqual([409, 'ITEMS_ALREADY_SHIPPED']);
    const second = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `AWB-${o.id.slice(0, 8)}-2` });
    expect(second.body).toMatchObject({ order_item_ids: [b], order: { status: 'shipped', fulfillment_status: 'fulfilled' } });
    const third = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `AWB-${o.id.slice(0, 8)}-3` });
    expect(third.status).toBe(409);
    const list = await host.request('GET', `/orders/${o.id}/shipments`);
    expect(list.body.shipments).toHaveLength(2);
    const pending = await create({ status: 'pending' });
    const refused = await host.request('POST', `/orders/${pending.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: 'NEVER' });
    expect([refused.status, refused.body.code]).toEqual([409, 'INVALID_STATUS']);
    await host.eventually(async () => {
      expect(await recorded(host, 'order.shipment_created', o.id)).toHaveLength(2);
      expect(await recorded(host, 'order.fulfilled', o.id)).toHaveLength(1);
      expect((await recorded(host, 'order.status_changed', o.id)).map((c) => c.new_status)).toEqual(['shipped']);
    });
  });

  it('a booked second package tells the carrier only its own items and their weight', async () => {
    const o = await create({ items: [{ name: 'Lamp', quantity: 2, unit_price: '100.00', weight: '1.25' }, { name: 'Rug', quantity: 1, unit_price: '300.00', weight: '4' }] });
    const [lamp, rug] = o.items.map((i: { id: string }) => i.id);
    const first = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `AWB-${o.id.slice(0, 8)}-L`, order_item_ids: [lamp] });
    expect(first.status).toBe(201);
    const second = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', book: true });
    expect(second.status).toBe(201);
    expect(second.body.order_item_ids).toEqual([rug]);
    const adhoc = sr.seen.filter((s) => s.url === '/v1/external/orders/create/adhoc').pop()!;
    expect(adhoc.body.order_items).toEqual([expect.objectContaining({ name: 'Rug', units: 1 })]);
    expect(adhoc.body.weight).toBe(4);
  });

  it('books through Shiprocket (COD amount = order total), syncs tracking, delivers with order.delivered', async () => {
    const o = await create({ is_cod: true });
    const shipped = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', book: true, dimensions: { length: 20, width: 15, height: 5, weight: 0.8 } });
    expect(shipped.status).toBe(201);
    const awb = shipped.body.awb_number;
    expect(awb).toMatch(/^SRAWB\d+$/);
    const adhoc = sr.seen.filter((s) => s.url === '/v1/external/orders/create/adhoc').pop()!;
    expect(adhoc.body).toMatchObject({ order_id: o.order_number, payment_method: 'COD', sub_total: '1180.00', billing_pincode: '560001' });
    tracking.set(awb, [
      { date: '2030-01-05 10:00:00', activity: 'Picked up', location: 'Mumbai', 'sr-status-label': 'PICKED UP' },
      { date: '2030-01-06 09:00:00', activity: 'Out for delivery', location: 'Bengaluru', 'sr-status-label': 'OUT FOR DELIVERY' },
    ]);
    const sync1 = await host.request('POST', '/orders/shipments/sync', {});
    expect(sync1.body.errors).toEqual({});
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('out_for_delivery');
    tracking.get(awb)!.push({ date: '2030-01-06 15:00:00', activity: 'Delivered', location: 'Bengaluru', 'sr-status-label': 'DELIVERED' });
    // The 30-minute schedule (manifest `schedules`) polls the carrier without anyone asking.
    await host.runSchedules(Date.UTC(2030, 0, 6, 16, 0, 5));
    await host.eventually(async () => expect((await host.request('GET', `/orders/${o.id}/shipments`)).body.status).toBe('delivered'));
    await host.request('POST', '/orders/shipments/sync', {}); // a repeated poll changes nothing
    const after = await host.request('GET', `/orders/${o.id}/shipments`);
    expect(after.body.status).toBe('delivered');
    expect(after.body.shipments[0].events.map((e: { status: string }) => e.status)).toEqual(['picked_up', 'out_for_delivery', 'delivered']);
    await host.eventually(async () => {
      expect(await recorded(host, 'order.delivered', o.id)).toHaveLength(1);
      expect(unordered((await recorded(host, 'order.status_changed', o.id)).map((c) => c.new_status))).toEqual(unordered(['shipped', 'out_for_delivery', 'delivered']));
      expect(await recorded(host, 'order.fulfilled', o.id)).toHaveLength(2); // shipped, out for delivery
    });
  });

  it('Shiprocket\'s tracking webhook (a public route, no bearer token) moves the order when its token matches', async () => {
    const o = await create();
    const awb = `WH-${o.id.slice(0, 8)}`;
    await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb });
    const hook = (token: string | undefined, body: Record<string, unknown>) =>
      fetch(`${host.url}/api/v1/shipping-shiprocket/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant': host.tenantId, ...(token ? { 'x-api-key': token } : {}) },
        body: JSON.stringify(body),
      });
    const forged = await hook('not-the-token', { awb, current_status: 'OUT FOR DELIVERY' });
    expect(forged.status).toBe(401);
    expect((await hook(undefined, { awb, current_status: 'OUT FOR DELIVERY' })).status).toBe(401);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('shipped');
    const ok = await hook(WEBHOOK_TOKEN, { awb, current_status: 'OUT FOR DELIVERY', current_timestamp: '2030-03-01 09:30:00', location: 'Pune' });
    expect(ok.status).toBe(201);
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('out_for_delivery');
  });

  it('one failed attempt pushed by the webhook and then seen by the 30-minute poll is one NDR, not two', async () => {
    await host.request('PUT', '/order-settings', { ndr_max_attempts: 3, ndr_auto_reattempt: true });
    const o = await create();
    const awb = `ONE-${o.id.slice(0, 8)}`;
    await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb });
    const scans = [
      { date: '2030-05-01 09:00:00', activity: 'Out for delivery', location: 'Pune Hub', 'sr-status-label': 'OUT FOR DELIVERY' },
      { date: '2030-05-01 18:10:00', activity: 'Customer not available', location: 'Pune', 'sr-status-label': 'UNDELIVERED' },
    ];
    // Shiprocket's push: the current status at the top (its own timestamp, no location) and the scans.
    const pushed = await fetch(`${host.url}/api/v1/shipping-shiprocket/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': host.tenantId, 'x-api-key': WEBHOOK_TOKEN },
      body: JSON.stringify({ awb, current_status: 'UNDELIVERED', current_timestamp: '2030-05-01 18:12:37', scans }),
    });
    expect(pushed.status).toBe(201);
    tracking.set(awb, scans);
    expect((await host.request('POST', '/orders/shipments/sync', {})).body.errors).toEqual({});
    const shipment = (await host.request('GET', `/orders/${o.id}/shipments`)).body.shipments[0];
    expect(shipment.ndr_count).toBe(1);
    expect(shipment.ndr_cases).toEqual([expect.objectContaining({ attempt_number: 1, reason: 'Customer not available' })]);
  });

  it('a partly shipped order takes its next package while the first is out for delivery, and is delivered once every package is', async () => {
    const o = await create({ items: [{ name: 'A', quantity: 1, unit_price: '100.00' }, { name: 'B', quantity: 1, unit_price: '200.00' }] });
    const [a, b] = o.items.map((i: { id: string }) => i.id);
    const report = (awb: string, status: string, at: string) =>
      fetch(`${host.url}/api/v1/shipping-shiprocket/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant': host.tenantId, 'x-api-key': WEBHOOK_TOKEN },
        body: JSON.stringify({ awb, current_status: status, current_timestamp: at }),
      });
    const first = `PART-${o.id.slice(0, 8)}-1`;
    expect((await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: first, order_item_ids: [a] })).status).toBe(201);
    expect((await report(first, 'OUT FOR DELIVERY', '2030-04-01 09:00:00')).status).toBe(201);
    expect((await report(first, 'DELIVERED', '2030-04-01 15:00:00')).status).toBe(201);
    // One package delivered, one item never shipped: the order is on its way, not delivered.
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ status: 'out_for_delivery', fulfillment_status: 'partial' });

    const second = `PART-${o.id.slice(0, 8)}-2`;
    const rest = await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: second });
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ order_item_ids: [b], order: { status: 'out_for_delivery', fulfillment_status: 'fulfilled' } });
    expect((await report(second, 'DELIVERED', '2030-04-03 11:00:00')).status).toBe(201);
    expect((await host.request('GET', `/orders/${o.id}`)).body).toMatchObject({ status: 'delivered', fulfillment_status: 'fulfilled' });
    await host.eventually(async () => expect(await recorded(host, 'order.delivered', o.id)).toHaveLength(1));
  });

  it('NDR: each failed attempt opens a case and counts; past the maximum the shipment and order go RTO', async () => {
    await host.request('PUT', '/order-settings', { ndr_max_attempts: 2, ndr_auto_reattempt: true });
    const o = await create();
    const awb = `NDR-${o.id.slice(0, 8)}`;
    await host.request('POST', `/orders/${o.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb });
    const update = (status: string, at: string, reason?: string) => host.request('POST', '/orders/shipments/tracking', { carrier_module: 'shipping-shiprocket', awb_number: awb, status, occurred_at: at, reason });
    expect((await update('out_for_delivery', '2030-02-01T09:00:00Z')).body.status).toBe('out_for_delivery');
    const n1 = await update('ndr', '2030-02-01T18:00:00Z', 'customer not available');
    expect(n1.body).toMatchObject({ ndr_count: 1, ndr_case: { attempt_number: 1, action: 'reattempt' } });
    expect((await update('ndr', '2030-02-01T18:00:00Z', 'customer not available')).body.duplicate).toBe(true);
    const n2 = await update('ndr', '2030-02-02T18:00:00Z', 'door locked');
    expect(n2.body).toMatchObject({ ndr_count: 2, ndr_case: { attempt_number: 2, action: 'reattempt' } });
    const n3 = await update('ndr', '2030-02-03T18:00:00Z', 'refused');
    expect(n3.body).toMatchObject({ ndr_count: 3, status: 'rto_initiated', ndr_case: { attempt_number: 3, action: 'return_to_origin' } });
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('rto_initiated');
    await update('rto_received', '2030-02-06T10:00:00Z');
    expect((await host.request('GET', `/orders/${o.id}`)).body.status).toBe('rto_received');
    // Without auto-reattempt a case is escalated until someone decides.
    await host.request('PUT', '/order-settings', { ndr_auto_reattempt: false, ndr_max_attempts: 3 });
    const o2 = await create();
    await host.request('POST', `/orders/${o2.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: `NDR2-${o2.id.slice(0, 8)}` });
    const esc = await host.request('POST', '/orders/shipments/tracking', { awb_number: `NDR2-${o2.id.slice(0, 8)}`, status: 'ndr', reason: 'address incomplete' });
    expect(esc.body.ndr_case).toMatchObject({ action: null, escalated: true, resolved_at: null });
    const decided = await host.request('POST', `/orders/ndr-cases/${esc.body.ndr_case.id}/resolve`, { action: 'return_to_origin' });
    expect(decided.body.action).toBe('return_to_origin');
    expect((await host.request('GET', `/orders/${o2.id}`)).body.status).toBe('rto_initiated');
  });

  it('carrier rates through shipping-shiprocket.getRates; bulk ship reports each order', async () => {
    const o = await create();
    const rates = await host.request('POST', `/orders/${o.id}/shipping-rates`, { carrier_module: 'shipping-shiprocket', pickup_pincode: '400001', weight: '0.5' });
    expect(rates.status).toBe(201);
    expect(rates.body.rates[0]).toMatchObject({ courier_name: 'Delhivery Surface', rate: '72.50' });
    const o2 = await create();
    const bulk = await host.request('POST', '/orders/bulk/ship', { shipments: [
      { order_id: o.id, carrier_module: 'shipping-shiprocket', awb_number: `BULK-${o.id.slice(0, 8)}` },
      { order_id: o2.id, carrier_module: 'shipping-nobody', awb_number: 'BULK-X' },
    ] });
    expect(bulk.body).toMatchObject({ succeeded: 1, failed: 1, results: [{ ok: true }, { ok: false, error: { code: 'UNKNOWN_CARRIER' } }] });
  });
});
