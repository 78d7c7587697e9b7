/**
 * Bulk CSV export (spec 3 POST /orders/bulk/export {filters: {status, date_from, date_to}, columns};
 * Limits: export timeout 300 s, up to 2 workers). The route declares `stream: {format: "csv"}`: the
 * host calls `export_page` again and again with a keyset cursor and streams each page to the client,
 * so no side ever holds every row.
 *
 * - Keyset on order_number (unique, indexed): pages never overlap or skip, however rows change.
 * - Columns: order columns and item columns; the default is the import format (IMPORT_COLUMNS), so
 *   an export can be imported again. With any item_* column there is one CSV row per item (an order
 *   without items gives one row with empty item cells); otherwise one row per order.
 * - An unknown column or a bad filter is a 422 on the first page, before anything is streamed.
 */
import type { HandlerContext, Static } from '../../../sdk';
import type { ExportPage } from './outputs';
import { invalid } from './errors';
import { IMPORT_COLUMNS } from './import-rows';
import { ORDER_STATUSES, type ItemRow, type OrderRow } from './store';

type Getter = (o: OrderRow) => unknown;
const customer = (key: string): Getter => (o) => (o.customer ?? {})[key] ?? '';
/** Orders made through the API carry only `customer.name`: its first word is the first name, the rest the last. */
const namePart = (part: 'first_name' | 'last_name'): Getter => (o) => {
  const c = (o.customer ?? {}) as Record<string, unknown>;
  if (c.first_name !== undefined || c.last_name !== undefined) return c[part] ?? '';
  const [first = '', ...rest] = String(c.name ?? '').trim().split(/\s+/);
  return part === 'first_name' ? first : rest.join(' ');
};
const ORDER_COLUMNS: Record<string, { attr: keyof OrderRow; get?: Getter }> = {
  order_number: { attr: 'order_number' },
  status: { attr: 'status' },
  payment_status: { attr: 'payment_status' },
  fulfillment_status: { attr: 'fulfillment_status' },
  customer_id: { attr: 'customer_id' },
  customer_name: { attr: 'customer', get: customer('name') },
  customer_first_name: { attr: 'customer', get: namePart('first_name') },
  customer_last_name: { attr: 'customer', get: namePart('last_name') },
  customer_email: { attr: 'customer', get: customer('email') },
  customer_phone: { attr: 'customer', get: customer('phone') },
  currency: { attr: 'currency' },
  subtotal: { attr: 'subtotal' },
  discount: { attr: 'discount' },
  shipping_total: { attr: 'shipping_total' },
  tax_total: { attr: 'tax_total' },
  total: { attr: 'total' },
  total_paid: { attr: 'total_paid' },
  balance_due: { attr: 'balance_due' },
  is_cod: { attr: 'is_cod' },
  source: { attr: 'source' },
  notes: { attr: 'notes' },
  created_at: { attr: 'created_at' },
  updated_at: { attr: 'updated_at' },
};
const ITEM_COLUMNS: Record<string, keyof ItemRow> = {
  item_name: 'name',
  item_sku: 'sku',
  item_hsn_code: 'hsn_code',
  item_quantity: 'quantity',
  item_price: 'unit_price',
  item_total: 'total',
};
export const EXPORT_COLUMNS = [...Object.keys(ORDER_COLUMNS), ...Object.keys(ITEM_COLUMNS)];
const ORDERS_PER_PAGE = 1000;
const ORDERS_PER_ITEM_PAGE = 250;

type ExportInput = {
  filters?: { status?: string | string[]; payment_status?: string | string[]; source?: string; date_from?: string; date_to?: string };
  columns?: string[];
  cursor?: string | null;
};

const list = (v: string | string[] | undefined) => (v === undefined ? [] : (Array.isArray(v) ? v : String(v).split(',')).map((s) => s.trim()).filter(Boolean));

function dateBound(value: string | undefined, field: string, endOfDay: boolean): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (Number.isNaN(Date.parse(value))) throw invalid(`filters.${field}`, `The ${field} filter must be a date (YYYY-MM-DD) or an ISO 8601 time.`);
  return new Date(endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : value).toISOString();
}

function whereOf(filters: NonNullable<ExportInput['filters']>, cursor: string | null) {
  const where: Record<string, unknown> = {};
  const statuses = list(filters.status);
  const unknown = statuses.filter((s) => !(ORDER_STATUSES as readonly string[]).includes(s));
  if (unknown.length) throw invalid('filters.status', `Unknown status ${unknown.join(', ')}; use ${ORDER_STATUSES.join(', ')}.`);
  if (statuses.length) where.status = { $in: statuses };
  const payments = list(filters.payment_status);
  if (payments.length) where.payment_status = { $in: payments };
  if (filters.source) where.source = filters.source;
  const from = dateBound(filters.date_from, 'date_from', false);
  const to = dateBound(filters.date_to, 'date_to', true);
  if (from || to) where.created_at = { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
  if (cursor !== null) where.order_number = { $gt: cursor };
  return where;
}

async function itemsOf(ctx: HandlerContext, orderIds: string[], columns: (keyof ItemRow)[]): Promise<Map<string, ItemRow[]>> {
  const byOrder = new Map<string, ItemRow[]>();
  const attributes = [...new Set<keyof ItemRow>(['order_id', 'position', ...columns])];
  for (let offset = 0; ; offset += 1000) {
    const rows = await ctx.host.db.find<ItemRow>('OrderItem', { where: { order_id: { $in: orderIds } }, order: [['order_id', 'ASC'], ['position', 'ASC']], limit: 1000, offset, attributes });
    for (const r of rows) byOrder.set(r.order_id, [...(byOrder.get(r.order_id) ?? []), r]);
    if (rows.length < 1000) return byOrder;
  }
}

export async function exportPage(input: ExportInput, ctx: HandlerContext) {
  const columns = input.columns?.length ? input.columns : IMPORT_COLUMNS;
  const unknown = columns.filter((c) => !EXPORT_COLUMNS.includes(c));
  if (unknown.length) throw invalid('columns', `Unknown column(s) ${unknown.join(', ')}; available: ${EXPORT_COLUMNS.join(', ')}.`);
  const cursor = input.cursor ?? null;
  const where = whereOf(input.filters ?? {}, cursor);
  const perItem = columns.some((c) => c in ITEM_COLUMNS);
  const attrs = new Set<keyof OrderRow>(['id', 'order_number']);
  for (const c of columns) if (ORDER_COLUMNS[c]) attrs.add(ORDER_COLUMNS[c].attr);
  const limit = perItem ? ORDERS_PER_ITEM_PAGE : ORDERS_PER_PAGE;
  const orders = await ctx.host.db.find<OrderRow>('Order', { where, order: [['order_number', 'ASC']], limit, attributes: [...attrs] });
  const itemColumns = columns.filter((c) => c in ITEM_COLUMNS).map((c) => ITEM_COLUMNS[c]!);
  const items = perItem && orders.length ? await itemsOf(ctx, orders.map((o) => o.id), itemColumns) : undefined;
  const orderCells = (o: OrderRow, c: string) => {
    const col = ORDER_COLUMNS[c]!;
    return col.get ? col.get(o) : o[col.attr];
  };
  // Cells are scalars: columns name scalar columns or fields of the customer object.
  type Row = Static<typeof ExportPage>['rows'][number];
  const rows: Row[] = [];
  for (const o of orders) {
    const lines: Array<ItemRow | null> = items ? (items.get(o.id) ?? [null]) : [null];
    for (const item of lines) rows.push(columns.map((c) => (c in ITEM_COLUMNS ? (item ? item[ITEM_COLUMNS[c]!] : '') : orderCells(o, c))) as Row);
  }
  const stamp = new Date(ctx.host.now()).toISOString().replace(/[-:]/g, '').slice(0, 15);
  return { columns, rows, next_cursor: orders.length === limit ? orders[orders.length - 1]!.order_number : null, filename: `orders-${stamp}.csv` };
}
