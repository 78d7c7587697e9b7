/**
 * Issue 9 items 6 and 3b: the order list filtered by custom fields over 100,000 orders (GET
 * /orders?custom_fields[key]=value: JSONB containment through host.db $contains), with the GIN
 * index of the orders migration 002 and without it (sequential scan); and POST /orders/bulk/status
 * for 500 orders (one set-based transaction, then an event per order).
 *
 * Orders are seeded with one INSERT … SELECT (this measures reads, not creates); field definitions,
 * lists and the bulk call go through REST into the sandbox like any client's.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import { median } from './support/stats';

const ORDERS_DIR = path.join(__dirname, '..', 'modules', 'orders');
const ORDERS = 100_000;
const SAMPLES = 15;
const BULK = 500;

/** channel: phone on 1 order in 100, web on half; priority 0–99; gift on every other order. */
const SEED = `
  INSERT INTO orders.orders (order_number, status, customer, custom_fields, created_at, updated_at)
  SELECT 'B-' || i, 'confirmed', '{}'::jsonb,
         jsonb_build_object('channel', CASE WHEN i % 100 = 0 THEN 'phone' WHEN i % 2 = 0 THEN 'web' ELSE 'store' END,
                            'priority', i % 100, 'gift', i % 2 = 0),
         now() - make_interval(secs => i), now()
  FROM generate_series(1, ${ORDERS}) AS i`;

const QUERIES = [
  { name: 'channel=phone (1%)', query: 'custom_fields[channel]=phone' },
  { name: 'channel=web (50%)', query: 'custom_fields[channel]=web' },
  { name: 'channel=web & priority=42 (1%)', query: 'custom_fields[channel]=web&custom_fields[priority]=42' },
];

const benchmark: Benchmark = {
  description: 'orders: list filtered by custom fields over 100,000 orders (GIN index vs none), bulk status of 500 orders',
  async run(ctx) {
    return withBenchPlatform({ name: 'cf', log: ctx.log, env: { API_RATE_LIMIT: '1000000000/60', BUS_RATE_LIMIT: '1000000000/60' } }, async (bench) => {
      const { platform } = bench;
      await addLocalModule(platform, ORDERS_DIR);
      const { tenantId: tenant, api } = await installOwner(bench, { name: 'Bench Fields', slug: 'benchcf' });
      await platform.kernel.modules.install(tenant, 'orders');
      const sql = (q: string) => platform.tenantDbs.with(tenant, (db) => db.query(q));

      await api('POST', '/order-custom-fields', { field_key: 'channel', field_label: 'Channel', field_type: 'select', options: ['web', 'store', 'phone'], is_filterable: true });
      await api('POST', '/order-custom-fields', { field_key: 'priority', field_label: 'Priority', field_type: 'number', is_filterable: true });
      ctx.log(`order-custom-fields: seeding ${ORDERS.toLocaleString('en-US')} orders`);
      await sql(SEED);
      await sql('ANALYZE orders.orders');

      const measure = async (query: string) => {
        const times: number[] = [];
        let total = 0;
        for (let i = 0; i < SAMPLES + 2; i++) {
          const t0 = performance.now();
          const page = await api<{ pagination: { total: number } }>('GET', `/orders?per_page=20&${query}`);
          if (i >= 2) times.push(performance.now() - t0); // two unmeasured warm-up requests
          total = page.pagination.total;
        }
        return { total, p50: median(times) };
      };
      type Measured = Awaited<ReturnType<typeof measure>>;
      const indexed: Measured[] = [];
      for (const q of QUERIES) indexed.push(await measure(q.query));
      await sql('DROP INDEX orders.orders_custom_fields_gin');
      const scanned: Measured[] = [];
      for (const q of QUERIES) scanned.push(await measure(q.query));
      const rows: Row[] = QUERIES.map((q, i) => ({
        measure: `GET /orders?${q.query}`, filter: q.name, 'matching orders': indexed[i].total, 'p50 ms, GIN index': indexed[i].p50, 'p50 ms, no index': scanned[i].p50,
      }));

      const ids = ((await sql(`SELECT id FROM orders.orders ORDER BY order_number LIMIT ${BULK}`)) as unknown as [Array<{ id: string }>])[0].map((r) => r.id);
      const t0 = performance.now();
      const bulk = await api<{ succeeded: number }>('POST', '/orders/bulk/status', { order_ids: ids, status: 'processing', reason: 'bench' });
      const bulkMs = performance.now() - t0;
      if (bulk.succeeded !== BULK) throw new Error(`bulk status: ${bulk.succeeded} of ${BULK} succeeded`);
      rows.push({ measure: 'POST /orders/bulk/status', filter: `${BULK} orders, one request`, 'matching orders': BULK, 'p50 ms, GIN index': bulkMs, 'p50 ms, no index': null });
      return {
        title: `Order list filtered by custom fields over ${ORDERS.toLocaleString('en-US')} orders; bulk status`,
        rows,
        notes: [
          `Each list: median of ${SAMPLES} sequential requests (per_page=20; the answer includes the total count, which reads every matching row).`,
          'The list runs `custom_fields @> {...}` (host.db $contains) plus ORDER BY created_at; "no index" is after DROP INDEX orders_custom_fields_gin.',
          `Bulk status: one request, ${BULK} orders moved in one set-based transaction (one read, a compare-and-set UPDATE per version, one history insert), then an order.status_changed event each (wall time of the request).`,
          `${bench.setup}.`,
        ],
      };
    });
  },
};

export default benchmark;
