/**
 * Analytics (spec 3: six GET /orders/analytics/* endpoints with from and to dates). They read the
 * materialized views of migration 001 (mv_daily_order_stats, mv_order_source_stats,
 * mv_daily_customers, mv_daily_product_stats) through the core operation `data.read_view`; the
 * schedule `analytics_refresh` refreshes them every 15 minutes with REFRESH … CONCURRENTLY
 * (`data.refresh_view`), so reads never wait for a refresh. Figures are as of the last refresh
 * (`refreshed_at` in every answer); POST /orders/analytics/refresh refreshes at once.
 *
 * Definitions: days are UTC calendar days of created_at; `from`/`to` are inclusive dates
 * (YYYY-MM-DD, or an ISO timestamp whose date is used; default the last 30 days to today).
 * Orders counts include every status; revenue is the sum of order totals of orders that are not
 * cancelled; average order value = revenue / non-cancelled orders (2 places, half up).
 */
import type { HandlerContext } from '../../../sdk';
import { invalid } from './errors';
import { D, str, type Dec } from './money';
import { getSetting } from './store';

export const VIEWS = ['mv_daily_order_stats', 'mv_order_source_stats', 'mv_daily_customers', 'mv_daily_product_stats'];

type Range = { from?: string; to?: string };
type DailyRow = { day: string; status: string; payment_status: string; is_cod: boolean; order_count: string; total_amount: string };
type SourceRow = { day: string; source: string; cancelled: boolean; order_count: string; total_amount: string };

const DAY = /^\d{4}-\d{2}-\d{2}/;

function range(input: Range, ctx: HandlerContext): { from: string; to: string } {
  const today = new Date(ctx.host.now()).toISOString().slice(0, 10);
  const day = (v: string | undefined, field: string, fallback: string) => {
    if (v === undefined || v === '') return fallback;
    const m = DAY.exec(v);
    if (!m || Number.isNaN(Date.parse(m[0]))) throw invalid(field, `${field} must be a date (YYYY-MM-DD).`);
    return m[0];
  };
  const to = day(input.to, 'to', today);
  const from = day(input.from, 'from', new Date(Date.parse(to) - 29 * 86_400_000).toISOString().slice(0, 10));
  if (from > to) throw invalid('from', 'from must not be after to.');
  return { from, to };
}

const READ_LIMIT = 100_000;

/** The view's rows in the range (a day's few status and source combinations: bounded by days, not orders). */
async function read<T>(ctx: HandlerContext, view: string, r: { from: string; to: string }): Promise<T[]> {
  const res = await ctx.host.call<{ rows: T[] }>('data.read_view', { view, range: { column: 'day', from: r.from, to: r.to }, order_by: 'day', limit: READ_LIMIT });
  // Never a silently partial figure.
  if (res.rows.length >= READ_LIMIT) throw invalid('from', `The range holds more than ${READ_LIMIT} rows of ${view}; ask for a shorter range.`);
  return res.rows;
}

/** The view's rows in the range summed up by PostgreSQL (data.read_view's aggregate): per-customer and per-product views grow with the business. */
async function summed<T>(ctx: HandlerContext, view: string, r: { from: string; to: string }, aggregate: Record<string, string[]>, orderBy?: string[], limit?: number): Promise<T[]> {
  const res = await ctx.host.call<{ rows: T[] }>('data.read_view', { view, range: { column: 'day', from: r.from, to: r.to }, aggregate, ...(orderBy ? { order_by: orderBy } : {}), limit: limit ?? READ_LIMIT });
  return res.rows;
}

const refreshedAt = (ctx: HandlerContext) => getSetting<string | null>(ctx.host.db, 'analytics_refreshed_at', null);

function bucket<K extends string>(map: Map<K, { orders: number; revenue: Dec }>, key: K, orders: number, revenue: Dec) {
  const b = map.get(key) ?? { orders: 0, revenue: new D(0) };
  b.orders += orders;
  b.revenue = b.revenue.plus(revenue);
  map.set(key, b);
}
const out = <K extends string>(map: Map<K, { orders: number; revenue: Dec }>) =>
  Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, { orders: v.orders, revenue: str(v.revenue) }]));
const revenueOf = (r: { status?: string; cancelled?: boolean; total_amount: string }) => (r.status === 'cancelled' || r.cancelled ? new D(0) : new D(r.total_amount));

export async function dashboard(input: Range, ctx: HandlerContext) {
  const r = range(input, ctx);
  const [rows, [customers]] = await Promise.all([
    read<DailyRow>(ctx, 'mv_daily_order_stats', r),
    summed<{ count_distinct_customer_key: string }>(ctx, 'mv_daily_customers', r, { count_distinct: ['customer_key'] }),
  ]);
  let orders = 0;
  let kept = 0;
  let revenue = new D(0);
  const byStatus = new Map<string, { orders: number; revenue: Dec }>();
  const byPayment = new Map<string, { orders: number; revenue: Dec }>();
  for (const row of rows) {
    const n = Number(row.order_count);
    orders += n;
    if (row.status !== 'cancelled') kept += n;
    revenue = revenue.plus(revenueOf(row));
    bucket(byStatus, row.status, n, new D(row.total_amount));
    bucket(byPayment, row.payment_status, n, revenueOf(row));
  }
  return {
    from: r.from,
    to: r.to,
    total_orders: orders,
    revenue: str(revenue),
    average_order_value: kept ? str(revenue.div(kept)) : '0.00',
    unique_customers: Number(customers?.count_distinct_customer_key ?? 0),
    by_status: out(byStatus),
    by_payment_status: out(byPayment),
    refreshed_at: await refreshedAt(ctx),
  };
}

export async function revenue(input: Range, ctx: HandlerContext) {
  const r = range(input, ctx);
  const days = new Map<string, { orders: number; revenue: Dec }>();
  for (const row of await read<DailyRow>(ctx, 'mv_daily_order_stats', r)) bucket(days, row.day, Number(row.order_count), revenueOf(row));
  const data = [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, v]) => ({ date: day, orders: v.orders, revenue: str(v.revenue) }));
  return { from: r.from, to: r.to, data, refreshed_at: await refreshedAt(ctx) };
}

const rate = (n: number, of: number) => (of ? new D(n).div(of).times(100).toDecimalPlaces(2).toFixed(2) : '0.00');

export async function fulfillment(input: Range, ctx: HandlerContext) {
  const r = range(input, ctx);
  const count: Record<string, number> = {};
  let total = 0;
  for (const row of await read<DailyRow>(ctx, 'mv_daily_order_stats', r)) {
    const n = Number(row.order_count);
    total += n;
    count[row.status] = (count[row.status] ?? 0) + n;
  }
  const rto = (count.rto_initiated ?? 0) + (count.rto_received ?? 0);
  return {
    from: r.from,
    to: r.to,
    total_orders: total,
    delivered: count.delivered ?? 0,
    cancelled: count.cancelled ?? 0,
    rto,
    delivery_rate: rate(count.delivered ?? 0, total),
    cancellation_rate: rate(count.cancelled ?? 0, total),
    rto_rate: rate(rto, total),
    refreshed_at: await refreshedAt(ctx),
  };
}

export async function sources(input: Range, ctx: HandlerContext) {
  const r = range(input, ctx);
  const by = new Map<string, { orders: number; revenue: Dec }>();
  for (const row of await read<SourceRow>(ctx, 'mv_order_source_stats', r)) bucket(by, row.source, Number(row.order_count), revenueOf(row));
  const data = [...by].map(([source, v]) => ({ source, orders: v.orders, revenue: str(v.revenue) })).sort((a, b) => b.orders - a.orders || (a.source < b.source ? -1 : 1));
  return { from: r.from, to: r.to, data, refreshed_at: await refreshedAt(ctx) };
}

export async function products(input: Range & { limit?: number; sort?: string }, ctx: HandlerContext) {
  const r = range(input, ctx);
  const order = input.sort === 'revenue' ? ['-sum_revenue', '-sum_quantity', 'min_name'] : ['-sum_quantity', '-sum_revenue', 'min_name'];
  const rows = await summed<{ min_name: string; min_sku: string | null; sum_quantity: string; sum_revenue: string }>(
    ctx, 'mv_daily_product_stats', r, { group_by: ['product_key'], sum: ['quantity', 'revenue'], min: ['name', 'sku'] }, order, input.limit ?? 10,
  );
  const data = rows.map((p) => ({ name: p.min_name, sku: p.min_sku, quantity: Number(p.sum_quantity), revenue: str(new D(p.sum_revenue)) }));
  return { from: r.from, to: r.to, data, refreshed_at: await refreshedAt(ctx) };
}

export async function codVsPrepaid(input: Range, ctx: HandlerContext) {
  const r = range(input, ctx);
  const by = new Map<'cod' | 'prepaid', { orders: number; revenue: Dec }>([
    ['cod', { orders: 0, revenue: new D(0) }],
    ['prepaid', { orders: 0, revenue: new D(0) }],
  ]);
  for (const row of await read<DailyRow>(ctx, 'mv_daily_order_stats', r)) bucket(by, row.is_cod ? 'cod' : 'prepaid', Number(row.order_count), revenueOf(row));
  const split = out(by);
  return { from: r.from, to: r.to, cod: split.cod, prepaid: split.prepaid, refreshed_at: await refreshedAt(ctx) };
}

/** Schedule `analytics_refresh` (every 15 minutes) and POST /orders/analytics/refresh. */
export async function refreshAnalytics(_input: unknown, ctx: HandlerContext) {
  const views = [];
  for (const view of VIEWS) views.push(await ctx.host.call<{ view: string; concurrently: boolean; duration_ms: number }>('data.refresh_view', { view }));
  const at = new Date(ctx.host.now()).toISOString();
  await ctx.host.db.upsert('Setting', { key: 'analytics_refreshed_at', value: at });
  return { refreshed_at: at, views };
}
