/**
 * The orders hot paths (docs/perf/history.md, orders) measured in database round trips: the platform's
 * PostgreSQL connections run through a recording pass-through (./pg-recorder.ts), so every query
 * string or extended-protocol exchange the tenant database sees during a request is listed. The
 * event handlers the requests set off (webhooks, notification rules) run after the response and
 * are left out; so are the core's own reads (tenant, token) in the central database and the setup
 * of a connection the pool opens meanwhile.
 */
import { createTestHost, type TestHost } from '../../../sdk/testing';
import { startPgRecorder, type RoundTrip } from './pg-recorder';
import { ORDERS_DIR } from './support';

let host: TestHost;
let rec: Awaited<ReturnType<typeof startPgRecorder>>;

beforeAll(async () => {
  const real = new URL(process.env.MANDI_TEST_PG_URL || process.env.DATABASE_URL || '');
  rec = await startPgRecorder({ host: real.hostname, port: Number(real.port || 5432) });
  const via = new URL(real.href);
  via.hostname = '127.0.0.1';
  via.port = String(rec.port);
  const saved = process.env.MANDI_TEST_PG_URL;
  process.env.MANDI_TEST_PG_URL = via.href;
  try {
    host = await createTestHost({ modulePath: ORDERS_DIR });
  } finally {
    process.env.MANDI_TEST_PG_URL = saved;
  }
  // The definitions cache lives DEFINITION_TTL_MS by the platform clock, so a slow machine must not
  // let it lapse between two requests; a frozen clock also keeps new schedule slots from falling due.
  host.clock.freeze();
  // The module's schedules (webhook and notification retries, syncs, analytics) run when their slot
  // falls due; their queries would land among a request's. Let the runs of the slots due now finish.
  await host.runSchedules(undefined, { settle: true });
}, 60_000);

afterAll(async () => {
  host?.clock.reset();
  await host?.close();
  await rec?.close();
});

const ORDER = {
  customer: { email: 'rt@example.com', name: 'Round Trip' },
  items: [
    { name: 'Kurta', hsn_code: '6109', quantity: 2, unit_price: '500.00' },
    { name: 'Scarf', quantity: 1, unit_price: '249.50', tax_rate: 12 },
  ],
  shipping_address: { state: 'Karnataka' },
  status: 'confirmed',
};

const AFTER_RESPONSE = /"orders"\."(webhook_endpoints|notification_rules)"/;
/** Sequelize's setup of a connection the pool has just opened: the pool's, not the request's. */
const CONNECTION_SETUP = /^SET client_min_messages TO warning;/;

/** The request's answer and the round trips the tenant database saw while it ran. */
async function tripsOf(method: string, path: string, body: unknown) {
  const from = rec.trips.length;
  const res = await host.request(method, path, body);
  const trips = rec.trips.slice(from).filter((t) => t.database === host.tenantDatabase && !AFTER_RESPONSE.test(t.sql) && !CONNECTION_SETUP.test(t.sql));
  return { res, trips, sql: trips.map((t) => t.sql) };
}

const SCOPED_BEGIN = /^START TRANSACTION; SET LOCAL ROLE "mandi_mod_orders"; SET LOCAL search_path TO "orders"; SET LOCAL statement_timeout = \d+$/;
const LONE_READ = (table: string) => new RegExp(`^SET LOCAL ROLE "mandi_mod_orders"; .*SELECT .* FROM "orders"\\."${table}"`);

describe('spec 3 (Order create, Order payment, Invoice): round trips of the hot paths', () => {
  it('create: definitions read once, then cached; the transaction opens with its scope in one trip; 6 trips in all', async () => {
    const first = await tripsOf('POST', '/orders', ORDER);
    expect(first.res.status).toBe(201);
    // Cold: custom fields, seller state and GST configurations are read, each in one trip.
    expect(first.sql.slice(0, 3).map((s) => s.match(/FROM "orders"\."(\w+)"/)?.[1]).sort()).toEqual(['custom_fields', 'settings', 'tax_configurations']);

    const again = await tripsOf('POST', '/orders', ORDER);
    expect(again.res.status).toBe(201);
    expect(again.res.body).toMatchObject({ tax_total: '209.94', items: [{ tax_rate: '18.00' }, { tax_rate: '12.00' }] });
    expect(again.sql).toEqual([
      expect.stringMatching(SCOPED_BEGIN),
      expect.stringMatching(/^INSERT INTO "orders"\."_sequences"/),
      expect.stringMatching(/^INSERT INTO "orders"\."orders"/),
      expect.stringMatching(/^INSERT INTO "orders"\."order_items"/),
      expect.stringMatching(/^INSERT INTO "orders"\."order_status_history"/),
      'COMMIT;',
    ]);
    expect(new Set(again.trips.map((t: RoundTrip) => t.conn)).size).toBe(1);
  });

  it('a GST configuration, setting or custom field changed through the module counts from the very next create', async () => {
    await host.request('POST', '/orders', ORDER); // the definitions are cached now
    const config = await host.request('POST', '/order-tax-configurations', { name: 'Cotton', rate: 5, type: 'gst', hsn_codes: ['5208'] });
    expect(config.status).toBe(201);
    const cotton = { ...ORDER, items: [{ name: 'Cloth', hsn_code: '5208', quantity: 1, unit_price: '100.00' }] };
    const five = await tripsOf('POST', '/orders', cotton);
    expect(five.res.body.items[0]).toMatchObject({ tax_rate: '5.00', rate_source: 'hsn' });
    expect(five.sql).toContainEqual(expect.stringMatching(LONE_READ('tax_configurations')));
    expect((await host.request('PUT', `/order-tax-configurations/${config.body.id}`, { rate: 28 })).status).toBe(200);
    expect((await host.request('POST', '/orders', cotton)).body.items[0].tax_rate).toBe('28.00');

    expect((await host.request('PUT', '/order-settings', { seller_state: 'Kerala' })).status).toBe(200);
    expect((await host.request('POST', '/orders', cotton)).body).toMatchObject({ same_state: false, items: [{ igst: '28.00', cgst: '0.00' }] });

    expect((await host.request('POST', '/order-custom-fields', { field_key: 'gift_note', field_label: 'Gift note', field_type: 'text', is_required: true })).status).toBe(201);
    const refused = await host.request('POST', '/orders', cotton);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ 'custom_fields.gift_note': ['Gift note is required.'] });
    expect((await host.request('DELETE', '/order-custom-fields/gift_note')).status).toBe(200);
    expect((await host.request('POST', '/orders', cotton)).status).toBe(201);
  });

  it('payment: one transaction of 7 trips (order, insert, both sums, compare-and-set); totals reconciled', async () => {
    const order = (await host.request('POST', '/orders', ORDER)).body;
    const paid = await tripsOf('POST', `/orders/${order.id}/payments`, { method: 'cod', amount: '100.00' });
    expect(paid.res.status).toBe(201);
    expect(paid.res.body.order).toMatchObject({ payment_status: 'partial', total_paid: '100.00' });
    expect(paid.sql).toEqual([
      expect.stringMatching(SCOPED_BEGIN),
      expect.stringMatching(/^SELECT .* FROM "orders"\."orders"/),
      expect.stringMatching(/^INSERT INTO "orders"\."payments"/),
      expect.stringMatching(/^SELECT .* FROM "orders"\."payments"/),
      expect.stringMatching(/^SELECT .* FROM "orders"\."refunds"/),
      expect.stringMatching(/^UPDATE "orders"\."orders" SET .* "version" = \d+/),
      'COMMIT;',
    ]);
    // The sum read after the insert sees it: a second payment settles the rest.
    const rest = await host.request('POST', `/orders/${order.id}/payments`, { method: 'cod', amount: '1359.44' });
    expect(rest.body.order).toMatchObject({ payment_status: 'paid', total_paid: '1459.44', balance_due: '0.00' });
  });

  it('bulk cancel: one transaction of 6 trips for 31 orders (one read, a compare-and-set UPDATE per version, one history insert)', async () => {
    const orders = [];
    for (let i = 0; i < 31; i++) orders.push((await host.request('POST', '/orders', ORDER)).body);
    // A payment's compare-and-set moves the last order to version 2: its UPDATE is a second statement.
    expect((await host.request('POST', `/orders/${orders[30].id}/payments`, { method: 'cod', amount: '1.00' })).status).toBe(201);
    const bulk = await tripsOf('POST', '/orders/bulk/cancel', { order_ids: orders.map((o) => o.id), reason: 'round trips' });
    expect([bulk.res.status, bulk.res.body.succeeded]).toEqual([201, 31]);
    expect(bulk.sql).toEqual([
      expect.stringMatching(SCOPED_BEGIN),
      expect.stringMatching(/^SELECT .* FROM "orders"\."orders"/),
      expect.stringMatching(/^UPDATE "orders"\."orders" SET .* WHERE .*"version" = 1/),
      expect.stringMatching(/^UPDATE "orders"\."orders" SET .* WHERE .*"version" = 2/),
      expect.stringMatching(/^INSERT INTO "orders"\."order_status_history"/),
      'COMMIT;',
    ]);
  });

  it('invoice: the order, its lines and the business profile read in parallel, then a transaction of 4 trips', async () => {
    const order = (await host.request('POST', '/orders', ORDER)).body;
    const issued = await tripsOf('POST', `/orders/${order.id}/invoices`, { type: 'invoice', pdf: false });
    expect(issued.res.status).toBe(201);
    expect(issued.res.body.line_items).toHaveLength(2);
    expect(issued.sql.slice(0, 3).map((s) => s.match(/FROM "orders"\."(\w+)"/)?.[1]).sort()).toEqual(['order_items', 'orders', 'settings']);
    expect(issued.sql.slice(3)).toEqual([
      expect.stringMatching(SCOPED_BEGIN),
      expect.stringMatching(/^INSERT INTO "orders"\."_sequences"/),
      expect.stringMatching(/^INSERT INTO "orders"\."invoices"/),
      'COMMIT;',
    ]);
    // By order number, the lines wait for the order's id and still come out right.
    const byNumber = await host.request('POST', `/orders/${order.order_number}/invoices`, { type: 'proforma', pdf: false });
    expect(byNumber.body.line_items.map((l: { name: string }) => l.name)).toEqual(['Kurta', 'Scarf']);
  });
});
