/**
 * Issue 9 (orders part 2): outbound webhooks and analytics, through real HTTP, the real sandbox,
 * the real queue and PostgreSQL, with a real receiving HTTP server on 127.0.0.1.
 * Spec 3: Outbound webhooks (body, X-Webhook-Signature), Limits (3 retries with 60 s backoff,
 * auto-disable after 10 consecutive failures, delivery log), Analytics (materialized views
 * refreshed every 15 minutes, from/to).
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestHost } from '../../../sdk/testing';
import { orderBody, startOrdersHost } from './support';
import { receiver } from './webhook-receiver';

let host: TestHost;
const SECRET = 'whsec_0123456789abcdef';

beforeAll(async () => {
  host = await startOrdersHost({});
}, 60_000);
afterAll(() => host?.close());

// The owner is a super admin: the one who may allow private networks for the tenant.
const allowPrivate = async (allow: boolean) =>
  expect((await host.request('PATCH', `/admin/tenants/${host.tenantId}/private-networks`, { allow_private_networks: allow })).status).toBe(200);

const create = async (over: Record<string, unknown> = {}) => {
  const res = await host.request('POST', '/orders', orderBody(over));
  expect(res.status).toBe(201);
  return res.body;
};

const deliveries = async (id: string) => (await host.request('GET', `/order-webhooks/${id}/deliveries`)).body;

describe('spec 3 Outbound webhooks: SSRF rule', () => {
  it('refuses URLs on the platform network unless an admin allows them, and non-http schemes', async () => {
    await allowPrivate(false);
    const local = await host.request('POST', '/order-webhooks', { url: 'http://127.0.0.1:9/x', secret: SECRET, events: ['order.created'] });
    expect(local.status).toBe(422);
    expect(JSON.stringify(local.body)).toMatch(/private or loopback address/);
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.1.2.3/', 'http://[::1]/', 'file:///etc/passwd', 'ftp://example.com/']) {
      expect((await host.request('POST', '/order-webhooks', { url, secret: SECRET, events: ['order.created'] })).status).toBe(422);
    }
    // Allowed at registration while the admin allows it; refused again at delivery once revoked.
    await allowPrivate(true);
    // Cloud metadata stays out of reach even then.
    expect((await host.request('POST', '/order-webhooks', { url: 'http://169.254.169.254/latest/meta-data', secret: SECRET, events: ['order.created'] })).status).toBe(422);
    const rx = await receiver(() => 200);
    const ep = await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.created'] });
    expect(ep.status).toBe(201);
    await allowPrivate(false);
    await create();
    await host.eventually(async () => {
      const log = await deliveries(ep.body.id);
      expect(log.data[0]).toMatchObject({ status: 'retrying', last_status: null });
      expect(log.data[0].last_error).toMatch(/refused: .*private or loopback address/);
    });
    expect(rx.got).toHaveLength(0);
    await host.request('DELETE', `/order-webhooks/${ep.body.id}`);
    await rx.close();
  });

  it('registers a host that does not resolve yet (DNS may come later); its deliveries fail and are logged until it does', async () => {
    await allowPrivate(false);
    // RFC 2606: .invalid never resolves.
    const ep = await host.request('POST', '/order-webhooks', { url: 'https://hooks.shop.invalid/orders', secret: SECRET, events: ['order.created'] });
    expect(ep.status).toBe(201);
    await create();
    await host.eventually(async () => {
      const log = await deliveries(ep.body.id);
      expect(log.data[0]).toMatchObject({ status: 'retrying', last_status: null });
      expect(log.data[0].last_error).toMatch(/does not resolve/);
    });
    await host.request('DELETE', `/order-webhooks/${ep.body.id}`);
  });
});

describe('spec 3 Outbound webhooks: signed deliveries, retries, auto-disable, log', () => {
  beforeAll(() => allowPrivate(true));

  it('delivers {event, payload, timestamp} signed with HMAC-SHA256 of the raw body, with delivery id and timestamp headers', async () => {
    const rx = await receiver(() => 200);
    const ep = await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.created', 'order.status_changed'], is_active: true });
    expect(ep.status).toBe(201);
    expect(ep.body).not.toHaveProperty('secret');
    const o = await create();
    await host.request('POST', `/orders/${o.id}/status`, { status: 'processing' });
    await host.eventually(async () => expect(rx.got).toHaveLength(2));
    const bodies = rx.got.map((g) => {
      // The receiver's check: HMAC of the exact bytes received, under the shared secret.
      expect(g.headers['x-webhook-signature']).toBe(createHmac('sha256', SECRET).update(g.raw).digest('hex'));
      expect(createHmac('sha256', 'wrong-secret-0000').update(g.raw).digest('hex')).not.toBe(g.headers['x-webhook-signature']);
      const body = JSON.parse(g.raw);
      expect(g.headers['x-webhook-id']).toBe(body.id);
      expect(g.headers['x-webhook-timestamp']).toBe(body.timestamp);
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
      return body;
    });
    const changed = bodies.find((b) => b.event === 'order.status_changed');
    expect(changed.payload).toEqual({ order_id: o.id, order_number: o.order_number, old_status: 'confirmed', new_status: 'processing' });
    expect(bodies.find((b) => b.event === 'order.created').payload.order_number).toBe(o.order_number);
    await host.eventually(async () => {
      const log = await deliveries(ep.body.id);
      expect(log.total).toBe(2);
      for (const d of log.data) {
        expect(d).toMatchObject({ status: 'delivered', attempts: 1, last_status: 200 });
        expect(typeof d.last_duration_ms).toBe('number');
        expect(d.attempt_log).toHaveLength(1);
      }
    });
    await host.request('DELETE', `/order-webhooks/${ep.body.id}`);
    await rx.close();
  });

  it('an order event delivered to the module again (at least once) adds no delivery and sends none twice', async () => {
    const [a, b] = [await receiver(() => 200), await receiver(() => 200)];
    const eps = [];
    for (const rx of [a, b]) eps.push((await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.delivered'] })).body);
    const payload = { order_id: '00000000-0000-4000-8000-00000000d1d1', order_number: 'ORD-REDELIVER' };
    const eventId = await host.emit('order.delivered', payload, { settle: true });
    expect([a.got.length, b.got.length]).toEqual([1, 1]);
    // The queue hands the same event to the module once more, as after a node died mid-handler.
    expect(await host.redeliver(eventId, 'orders')).toBe('completed');
    expect([a.got.length, b.got.length]).toEqual([1, 1]);
    for (const ep of eps) {
      const log = await deliveries(ep.id);
      expect(log.total).toBe(1);
      expect(log.data[0]).toMatchObject({ status: 'delivered', attempts: 1, event_id: eventId });
      await host.request('DELETE', `/order-webhooks/${ep.id}`);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it('retries 3 times 60 s apart (settable clock, schedule ticks), then fails; a success resets the failure count', async () => {
    let answer = 500;
    const rx = await receiver(() => answer);
    const ep = (await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.created'] })).body;
    const clock = host.clock;
    const t0 = Date.parse('2031-03-01T10:00:00Z');
    clock.freeze(t0);
    try {
      await create();
      await host.eventually(async () => expect((await deliveries(ep.id)).data[0]).toMatchObject({ status: 'retrying', attempts: 1, last_status: 500 }));
      const first = (await deliveries(ep.id)).data[0];
      expect(Date.parse(first.next_attempt_at) - t0).toBe(60_000);
      // 59 s later nothing is due.
      clock.freeze(t0 + 59_000);
      await host.runSchedules(t0 + 59_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(rx.got).toHaveLength(1);
      for (let n = 2; n <= 4; n++) {
        const at = t0 + (n - 1) * 60_000;
        clock.freeze(at);
        await host.runSchedules(at);
        await host.eventually(async () => expect((await deliveries(ep.id)).data[0].attempts).toBe(n));
      }
      const done = (await deliveries(ep.id)).data[0];
      expect(done).toMatchObject({ status: 'failed', attempts: 4, next_attempt_at: null });
      expect(done.attempt_log.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 500]);
      expect(rx.got.map((g) => g.headers['x-webhook-id'])).toEqual(Array(4).fill(done.id));
      expect((await host.request('GET', `/order-webhooks/${ep.id}`)).body).toMatchObject({ consecutive_failures: 4, is_active: true });
      answer = 200;
      await create();
      await host.eventually(async () => expect((await host.request('GET', `/order-webhooks/${ep.id}`)).body.consecutive_failures).toBe(0));
    } finally {
      clock.reset();
      await host.request('DELETE', `/order-webhooks/${ep.id}`);
      await rx.close();
    }
  });

  it('due retries go out side by side: receivers that hang do not hold back the others', async () => {
    // The receiver fails every first attempt, then holds each retry until three are in flight at once.
    let inFlight = 0;
    let most = 0;
    const held: Array<() => void> = [];
    const firsts = new Set<string>();
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = String(req.headers['x-webhook-id']);
        if (!firsts.has(id)) {
          firsts.add(id);
          return void res.writeHead(500).end();
        }
        inFlight++;
        most = Math.max(most, inFlight);
        const answer = () => {
          inFlight--;
          res.writeHead(200).end('ok');
        };
        held.push(answer);
        if (held.length === 3) held.splice(0).forEach((f) => f());
        else setTimeout(() => held.includes(answer) && held.splice(held.indexOf(answer), 1) && answer(), 8_000);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`;
    const eps = await Promise.all([1, 2, 3].map(async () => (await host.request('POST', '/order-webhooks', { url, secret: SECRET, events: ['order.created'] })).body));
    const clock = host.clock;
    const t0 = Date.parse('2031-04-01T10:00:00Z');
    clock.freeze(t0);
    try {
      await create();
      await host.eventually(async () => {
        for (const ep of eps) expect((await deliveries(ep.id)).data[0]).toMatchObject({ status: 'retrying', attempts: 1 });
      });
      clock.freeze(t0 + 60_000);
      const run = await host.request('POST', '/order-webhooks/retry-due', {});
      expect(run.body).toEqual({ attempted: 3 });
      expect(most).toBe(3);
      for (const ep of eps) expect((await deliveries(ep.id)).data[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      clock.reset();
      for (const ep of eps) await host.request('DELETE', `/order-webhooks/${ep.id}`);
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('disables an endpoint after 10 consecutive failed deliveries and stops delivering to it', async () => {
    const rx = await receiver(() => 503);
    const ep = (await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.created'] })).body;
    for (let i = 0; i < 10; i++) await create();
    await host.eventually(async () => expect((await host.request('GET', `/order-webhooks/${ep.id}`)).body).toMatchObject({ is_active: false, consecutive_failures: 10, disabled_reason: '10 consecutive failed delivery attempts' }), 20_000);
    expect(rx.got).toHaveLength(10);
    await host.eventually(async () => expect((await deliveries(ep.id)).data.every((d: { status: string }) => d.status === 'cancelled')).toBe(true));
    await create();
    await new Promise((r) => setTimeout(r, 1000));
    expect(rx.got).toHaveLength(10);
    expect((await deliveries(ep.id)).total).toBe(10);
    // Re-enabled by the user: the count starts afresh.
    const again = await host.request('PUT', `/order-webhooks/${ep.id}`, { is_active: true });
    expect(again.body).toMatchObject({ is_active: true, consecutive_failures: 0, disabled_at: null });
    await host.request('DELETE', `/order-webhooks/${ep.id}`);
    await rx.close();
  }, 40_000);

  it('an endpoint can follow imports: order.imported (one summary per import) is delivered like the spec\'s events', async () => {
    const rx = await receiver(() => 200);
    const ep = (await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.imported'] })).body;
    expect(ep.events).toEqual(['order.imported']);
    const summary = { import_id: 'imp-1', status: 'completed', source: 'csv_import', total_rows: 2, processed_rows: 2, created: 2, updated: 0, unchanged: 0, failed: 0 };
    await host.emit('order.imported', summary, { settle: true });
    await host.eventually(async () => expect(rx.got).toHaveLength(1));
    expect(JSON.parse(rx.got[0].raw)).toMatchObject({ event: 'order.imported', payload: summary });
    await host.request('DELETE', `/order-webhooks/${ep.id}`);
    await rx.close();
  });

  it('lists, updates and deletes endpoints; unknown events are refused', async () => {
    const rx = await receiver(() => 200);
    const bad = await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.exploded'] });
    expect(bad.status).toBe(422);
    const ep = (await host.request('POST', '/order-webhooks', { url: rx.url, secret: SECRET, events: ['order.created'] })).body;
    expect(ep.events).toEqual(['order.created']);
    expect(ep).not.toHaveProperty('secret');
    expect(ep.secret_hint).toBe(`…${SECRET.slice(-4)}`);
    // Spec 3: the secret is a string; a short one is taken, and its hint gives none of it away.
    const short = await host.request('POST', '/order-webhooks', { url: rx.url, secret: 's3cr3t', events: ['order.created'] });
    expect(short.status).toBe(201);
    expect(short.body.secret_hint).toBe('…');
    expect((await host.request('DELETE', `/order-webhooks/${short.body.id}`)).status).toBe(200);
    expect((await host.request('GET', '/order-webhooks')).body.data.map((e: { id: string }) => e.id)).toContain(ep.id);
    expect((await host.request('PUT', `/order-webhooks/${ep.id}`, { events: ['order.delivered'] })).body.events).toEqual(['order.delivered']);
    expect((await host.request('DELETE', `/order-webhooks/${ep.id}`)).status).toBe(200);
    expect((await host.request('GET', `/order-webhooks/${ep.id}`)).status).toBe(404);
    await rx.close();
  });
});

describe('spec 3 Analytics: materialized views refreshed by the 15-minute schedule equal a direct computation', () => {
  const sql = <T extends object>(q: string) => host.sql<T>(q);

  it('dashboard, revenue, fulfillment, sources, products and cod-vs-prepaid match SQL over the orders', async () => {
    const made = [];
    for (let i = 0; i < 12; i++) {
      made.push(
        await create({
          is_cod: i % 3 === 0,
          source: i % 2 ? 'shopify' : 'pos',
          items: [{ name: `P${i % 4}`, sku: `SKU-${i % 4}`, quantity: (i % 3) + 1, unit_price: `${100 + i * 7}.50` }],
        }),
      );
    }
    await host.request('POST', `/orders/${made[0].id}/cancel`, { reason: 'test' });
    await host.request('POST', `/orders/${made[1].id}/status`, { status: 'processing' });
    // Delivered and returned orders (their carrier path is tested elsewhere; here they are data) and a paid one.
    const [delivered, rto] = [[made[2].id], [made[3].id, made[4].id]];
    await host.arrange(async (sql) => {
      await sql(`UPDATE orders.orders SET status = 'delivered' WHERE id = '${delivered[0]}'`);
      await sql(`UPDATE orders.orders SET status = 'rto_initiated' WHERE id IN ('${rto[0]}', '${rto[1]}')`);
    });
    await host.request('POST', `/orders/${made[5].id}/payments`, { method: 'bank_transfer', amount: made[5].total });
    const today = new Date().toISOString().slice(0, 10);
    const q = `?from=${today}&to=${today}`;

    // Not refreshed yet after these orders: the views lag until the schedule runs.
    // The next 15-minute slot: the platform's own minute tick may already have run this one (one run
    // per slot), which would leave today's refresh from before these orders.
    const at = (Math.floor(Date.now() / 900_000) + 1) * 900_000 + 1000;
    const started = Date.now();
    expect(await host.runSchedules(at)).toBeGreaterThan(0);
    // Wait for the whole refresh (refreshed_at is written after the last view).
    const before = started;
    // (An earlier test's frozen 2031 clock may have left a future refreshed_at: require today's.)
    await host.eventually(async () => {
      const at = Date.parse((await host.request('GET', `/orders/analytics/dashboard${q}`)).body.refreshed_at ?? 0);
      expect(at >= before && at <= Date.now()).toBe(true);
    });

    const day = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = '${today}'`;
    const [direct] = await sql<{ n: string; revenue: string; kept: string; customers: string }>(
      `SELECT count(*) n, coalesce(sum(total) FILTER (WHERE status <> 'cancelled'), 0)::numeric(14,2)::text revenue, count(*) FILTER (WHERE status <> 'cancelled') kept,
              count(DISTINCT coalesce(customer_id, customer->>'email', customer->>'phone', 'order:' || id::text)) customers FROM orders.orders WHERE ${day}`,
    );
    const dash = (await host.request('GET', `/orders/analytics/dashboard${q}`)).body;
    expect(dash.total_orders).toBe(Number(direct!.n));
    expect(dash.revenue).toBe(direct!.revenue);
    expect(dash.unique_customers).toBe(Number(direct!.customers));
    const [aov] = await sql<{ v: string }>(`SELECT round(${direct!.revenue}::numeric / ${direct!.kept}, 2)::text v`);
    expect(dash.average_order_value).toBe(aov!.v);
    const statuses = await sql<{ status: string; n: string }>(`SELECT status, count(*) n FROM orders.orders WHERE ${day} GROUP BY status`);
    expect(Object.fromEntries(Object.entries(dash.by_status).map(([k, v]) => [k, (v as { orders: number }).orders]))).toEqual(Object.fromEntries(statuses.map((s) => [s.status, Number(s.n)])));
    expect(dash.by_status.cancelled.orders).toBeGreaterThanOrEqual(1);
    const payments = await sql<{ payment_status: string; n: string }>(`SELECT payment_status, count(*) n FROM orders.orders WHERE ${day} GROUP BY payment_status`);
    expect(Object.fromEntries(Object.entries(dash.by_payment_status).map(([k, v]) => [k, (v as { orders: number }).orders]))).toEqual(
      Object.fromEntries(payments.map((p) => [p.payment_status, Number(p.n)])),
    );
    expect(dash.by_payment_status.paid.orders).toBeGreaterThanOrEqual(1);

    const rev = (await host.request('GET', `/orders/analytics/revenue${q}`)).body;
    expect(rev.data).toEqual([{ date: today, orders: Number(direct!.n), revenue: direct!.revenue }]);

    const bySource = await sql<{ source: string; n: string; revenue: string }>(
      `SELECT coalesce(source,'unknown') source, count(*) n, coalesce(sum(total) FILTER (WHERE status <> 'cancelled'),0)::numeric(14,2)::text revenue FROM orders.orders WHERE ${day} GROUP BY 1`,
    );
    const src = (await host.request('GET', `/orders/analytics/sources${q}`)).body.data;
    expect(Object.fromEntries(src.map((s: { source: string; orders: number; revenue: string }) => [s.source, [s.orders, s.revenue]]))).toEqual(
      Object.fromEntries(bySource.map((s) => [s.source, [Number(s.n), s.revenue]])),
    );

    const cod = await sql<{ is_cod: boolean; n: string; revenue: string }>(
      `SELECT is_cod, count(*) n, coalesce(sum(total) FILTER (WHERE status <> 'cancelled'),0)::numeric(14,2)::text revenue FROM orders.orders WHERE ${day} GROUP BY 1`,
    );
    const cvp = (await host.request('GET', `/orders/analytics/cod-vs-prepaid${q}`)).body;
    for (const c of cod) expect(cvp[c.is_cod ? 'cod' : 'prepaid']).toEqual({ orders: Number(c.n), revenue: c.revenue });

    const prods = await sql<{ sku: string; q: string; revenue: string }>(
      `SELECT i.sku, sum(i.quantity) q, sum(i.total)::numeric(14,2)::text revenue FROM orders.order_items i JOIN orders.orders o ON o.id = i.order_id
        WHERE o.status <> 'cancelled' AND to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = '${today}' GROUP BY i.sku ORDER BY sum(i.quantity) DESC, sum(i.total) DESC`,
    );
    const top = (await host.request('GET', `/orders/analytics/products${q}&limit=100`)).body.data;
    expect(top.map((p: { sku: string; quantity: number; revenue: string }) => [p.sku, p.quantity, p.revenue])).toEqual(prods.map((p) => [p.sku, Number(p.q), p.revenue]));

    const ful = (await host.request('GET', `/orders/analytics/fulfillment${q}`)).body;
    const cancelled = statuses.find((s) => s.status === 'cancelled')!;
    const [rates] = await sql<{ delivered: string; rto: string; cancelled: string; delivery_rate: string; rto_rate: string; cancellation_rate: string }>(
      `SELECT count(*) FILTER (WHERE status = 'delivered') delivered, count(*) FILTER (WHERE status IN ('rto_initiated', 'rto_received')) rto,
              count(*) FILTER (WHERE status = 'cancelled') cancelled,
              round(count(*) FILTER (WHERE status = 'delivered') * 100.0 / count(*), 2)::text delivery_rate,
              round(count(*) FILTER (WHERE status IN ('rto_initiated', 'rto_received')) * 100.0 / count(*), 2)::text rto_rate,
              round(count(*) FILTER (WHERE status = 'cancelled') * 100.0 / count(*), 2)::text cancellation_rate
         FROM orders.orders WHERE ${day}`,
    );
    expect(Number(cancelled.n)).toBe(Number(rates!.cancelled));
    expect(ful).toEqual({
      from: today, to: today, total_orders: Number(direct!.n), refreshed_at: expect.any(String),
      delivered: Number(rates!.delivered), rto: Number(rates!.rto), cancelled: Number(rates!.cancelled),
      delivery_rate: rates!.delivery_rate, rto_rate: rates!.rto_rate, cancellation_rate: rates!.cancellation_rate,
    });
    expect(ful.delivered).toBeGreaterThanOrEqual(1);
    expect(ful.rto).toBeGreaterThanOrEqual(2);

    // A new order shows only after the next refresh (pre-computed, not live).
    await create();
    expect((await host.request('GET', `/orders/analytics/dashboard${q}`)).body.total_orders).toBe(Number(direct!.n));
    const refreshed = await host.request('POST', '/orders/analytics/refresh', {});
    expect(refreshed.body.views.every((v: { concurrently: boolean }) => v.concurrently)).toBe(true);
    // The TEMPORARY right a concurrent refresh needs is granted and revoked in its own transaction.
    const [temp] = await sql<{ t: boolean }>(`SELECT has_database_privilege('mandi_mod_orders', current_database(), 'TEMP') t`);
    expect(temp!.t).toBe(false);
    expect((await host.request('GET', `/orders/analytics/dashboard${q}`)).body.total_orders).toBe(Number(direct!.n) + 1);
    // Outside the range: nothing.
    expect((await host.request('GET', '/orders/analytics/dashboard?from=2001-01-01&to=2001-01-31')).body.total_orders).toBe(0);
    expect((await host.request('GET', '/orders/analytics/dashboard?from=2001-02-01&to=2001-01-01')).status).toBe(422);
  }, 60_000);

  it('data.read_view sums up in PostgreSQL: a distinct count or a top list is never cut short by the row limit', async () => {
    // Runs after the test above: the views are populated.
    const asOrders = <T>(input: Record<string, unknown>) => host.call<T>('data.read_view', input, { asModule: 'orders' });
    const [direct] = await sql<{ customers: string; rows: string }>(`SELECT count(DISTINCT customer_key)::text customers, count(*)::text rows FROM orders.mv_daily_customers`);
    expect(Number(direct!.customers)).toBeGreaterThan(1);
    const plain = await asOrders<{ rows: unknown[] }>({ view: 'mv_daily_customers', limit: 1 });
    expect(plain.rows).toHaveLength(1);
    const counted = await asOrders<{ rows: Array<{ count_distinct_customer_key: string }> }>({ view: 'mv_daily_customers', aggregate: { count_distinct: ['customer_key'] }, limit: 1 });
    expect(counted.rows).toEqual([{ count_distinct_customer_key: direct!.customers }]);

    const top = await asOrders<{ rows: Array<{ product_key: string; sum_quantity: string }> }>({
      view: 'mv_daily_product_stats', aggregate: { group_by: ['product_key'], sum: ['quantity'] }, order_by: ['-sum_quantity', 'product_key'], limit: 2,
    });
    const want = await sql<{ product_key: string; sum_quantity: string }>(
      `SELECT product_key, sum(quantity)::text sum_quantity FROM orders.mv_daily_product_stats GROUP BY 1 ORDER BY sum(quantity) DESC, 1 LIMIT 2`,
    );
    expect(top.rows).toEqual(want);
    await expect(asOrders({ view: 'mv_daily_customers', aggregate: { sum: ['nope'] } })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/no column "nope"/) });
    await expect(asOrders({ view: 'mv_daily_customers', aggregate: { count_distinct: ['customer_key'] }, order_by: 'customer_key' })).rejects.toMatchObject({ status: 422 });
  });
});
