/** Orders: create (priced and taxed), list, get, status lifecycle, cancel, delete, history. */
import type { HandlerContext } from '../../../sdk';
import { invalid, invalidStatus, ordersErrors } from './errors';
import { D, parseAmount, parseQuantity, str, sum } from './money';
import {
  actorOf, findOrder, getSetting, inTransaction, itemsOf, loadOrder, moveStatus, nowIso, orderView, ORDER_STATUSES, publish, UUID_RE,
  type ItemRow, type OrderRow, type Outbox,
} from './store';
import { computeTax, gstConfigs, lookupRate } from './tax';
import { cachedDefinition } from './definition-cache';
import { customFieldFilter, valuesForNewOrder } from './custom-field-values';
import { parseGstin } from './gstin';

type ItemInput = { name: string; sku?: string; hsn_code?: string; quantity: unknown; unit_price: unknown; discount?: unknown; tax_rate?: unknown; weight?: unknown; unit?: string };
export type CreateInput = {
  order_number?: string;
  customer: { id?: string; name?: string; email?: string; phone?: string };
  items: ItemInput[];
  currency?: string;
  is_cod?: boolean;
  same_state?: boolean;
  status?: 'pending' | 'confirmed';
  discount?: unknown;
  shipping_total?: unknown;
  billing_address?: Record<string, unknown>;
  shipping_address?: Record<string, unknown>;
  billing_gstin?: string;
  custom_fields?: Record<string, unknown>;
  notes?: string;
  source?: string;
};

const norm = (s: unknown) => (typeof s === 'string' ? s.trim().toLowerCase() : '');

/** Intra-state unless told otherwise or the shipping state differs from the seller's state. */
async function sameState(ctx: HandlerContext, input: CreateInput): Promise<boolean> {
  if (typeof input.same_state === 'boolean') return input.same_state;
  const seller = norm(await cachedDefinition(ctx, 'seller_state', () => getSetting<string>(ctx.host.db, 'seller_state', '')));
  const buyer = norm((input.shipping_address ?? input.billing_address)?.state);
  return !(seller && buyer && seller !== buyer);
}

export async function createOrder(input: CreateInput, ctx: HandlerContext) {
  const db = ctx.host.db;
  if (!input.customer?.email && !input.customer?.phone && !input.customer?.id) throw invalid('customer', 'The customer needs an id, an email or a phone.');
  const billingGstin = parseGstin(input.billing_gstin, 'billing_gstin');
  const customFields = await valuesForNewOrder(ctx, input.custom_fields);
  const intra = await sameState(ctx, input);
  // Price every line first: nothing is written when any line is invalid.
  const lines: Array<Record<string, unknown> & { taxable_amount: string; tax_total: string; cgst: string; sgst: string; igst: string }> = [];
  const taxConfigs = () => cachedDefinition(ctx, 'tax_configs', () => gstConfigs(db));
  for (const [i, item] of input.items.entries()) {
    const quantity = parseQuantity(item.quantity, `items.${i}.quantity`);
    const unit = parseAmount(item.unit_price, `items.${i}.unit_price`, { allowZero: true });
    const discount = item.discount === undefined ? new D(0) : parseAmount(item.discount, `items.${i}.discount`, { allowZero: true });
    const gross = unit.times(quantity);
    if (discount.gt(gross)) throw invalid(`items.${i}.discount`, `The discount of item ${i + 1} is larger than its price.`);
    const taxable = new D(str(gross.minus(discount)));
    const { rate, source } = await lookupRate(taxConfigs, item.hsn_code, item.tax_rate);
    const tax = computeTax(taxable, rate, intra);
    lines.push({
      position: i + 1,
      name: item.name,
      sku: item.sku ?? null,
      hsn_code: item.hsn_code ?? null,
      quantity,
      unit_price: str(unit),
      discount: str(discount),
      taxable_amount: str(taxable),
      tax_rate: rate,
      rate_source: source,
      cgst: str(tax.cgst),
      sgst: str(tax.sgst),
      igst: str(tax.igst),
      tax_total: str(tax.total),
      total: str(taxable.plus(tax.total)),
      weight: item.weight === undefined ? null : String(item.weight),
      unit: item.unit?.trim().toUpperCase() || null,
    });
  }
  const orderDiscount = input.discount === undefined ? new D(0) : parseAmount(input.discount, 'discount', { allowZero: true });
  const shipping = input.shipping_total === undefined ? new D(0) : parseAmount(input.shipping_total, 'shipping_total', { allowZero: true });
  const subtotal = sum(lines.map((l) => l.taxable_amount));
  const taxTotal = sum(lines.map((l) => l.tax_total));
  if (orderDiscount.gt(subtotal)) throw invalid('discount', 'The order discount is larger than the subtotal.');
  const total = subtotal.minus(orderDiscount).plus(taxTotal).plus(shipping);
  const taxDetails = {
    same_state: intra,
    cgst: str(sum(lines.map((l) => l.cgst))),
    sgst: str(sum(lines.map((l) => l.sgst))),
    igst: str(sum(lines.map((l) => l.igst))),
    total_tax: str(taxTotal),
  };
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const created = await inTransaction(db, async (tx) => {
    let number = input.order_number;
    if (number) {
      if (await tx.findOne('Order', { where: { order_number: number } })) {
        throw ordersErrors.duplicateOrderNumber(number);
      }
    } else {
      const n = await tx.sequence('order_number');
      number = `ORD-${String(n).padStart(6, '0')}`;
    }
    const order = await tx.create<OrderRow>('Order', {
      order_number: number,
      status: input.status ?? 'pending',
      payment_status: 'pending',
      fulfillment_status: 'unfulfilled',
      customer_id: input.customer.id ?? input.customer.email ?? input.customer.phone ?? null,
      customer: input.customer,
      customer_name: input.customer.name ?? null,
      currency: input.currency ?? 'INR',
      is_cod: input.is_cod ?? false,
      same_state: intra,
      subtotal: str(subtotal),
      discount: str(orderDiscount),
      shipping_total: str(shipping),
      tax_total: str(taxTotal),
      total: str(total),
      total_paid: '0.00',
      total_refunded: '0.00',
      total_credited: '0.00',
      balance_due: str(total),
      tax_details: taxDetails,
      billing_address: input.billing_address ?? null,
      shipping_address: input.shipping_address ?? null,
      billing_gstin: billingGstin,
      custom_fields: customFields,
      notes: input.notes ?? null,
      source: input.source ?? (ctx.caller === 'http' || ctx.caller === 'graphql' ? 'manual' : ctx.caller),
      version: 1,
      created_at: at,
      updated_at: at,
    });
    // Sent together: the transaction runs them in turn, but their trips into the host overlap.
    const [items] = await Promise.all([
      tx.bulkCreate<ItemRow>('OrderItem', lines.map((l) => ({ ...l, order_id: order.id }))),
      tx.create('StatusChange', { order_id: order.id, from_status: null, to_status: order.status, reason: 'created', actor: actorOf(ctx), created_at: at }),
    ]);
    return { order, items };
  });
  const o = created.order;
  outbox.push(['order.created', { id: o.id, order_id: o.id, order_number: o.order_number, customer_id: o.customer_id, customer: o.customer, total: o.total, currency: o.currency, status: o.status, is_cod: o.is_cod, source: o.source, created_at: o.created_at }]);
  await publish(ctx, outbox);
  return orderView(o, created.items);
}

export async function getOrder(input: { id: string }, ctx: HandlerContext) {
  const db = ctx.host.db;
  // Asked by id, the items are read beside the order (one round trip's wait, not two); by order number, after it.
  const byId = UUID_RE.test(input.id) ? input.id.toLowerCase() : undefined;
  const [order, early] = await Promise.all([loadOrder(db, input.id), byId ? itemsOf(db, byId) : undefined]);
  return orderView(order, early && order.id === byId ? early : await itemsOf(db, order.id));
}

type ListInput = {
  status?: string; payment_status?: string; fulfillment_status?: string; is_cod?: boolean; customer_id?: string; search?: string;
  from?: string; to?: string; sort?: string; page?: number; per_page?: number; custom_fields?: Record<string, unknown>;
} & Record<string, unknown>;

/** Spec 1's screen sort values (Filter definition: newest, oldest, price_asc) as columns. */
const SORT_WORDS: Record<string, string> = { newest: '-created_at', oldest: 'created_at', price_asc: 'total', price_desc: '-total' };

export async function listOrders(input: ListInput, ctx: HandlerContext) {
  const where: Record<string, unknown> = {};
  const and: Record<string, unknown>[] = [];
  if (input.status) where.status = { $in: String(input.status).split(',') };
  if (input.payment_status) where.payment_status = { $in: String(input.payment_status).split(',') };
  if (input.fulfillment_status) where.fulfillment_status = input.fulfillment_status;
  if (typeof input.is_cod === 'boolean') where.is_cod = input.is_cod;
  if (input.customer_id) where.customer_id = input.customer_id;
  const range: Record<string, string> = {};
  for (const [key, op] of [['from', '$gte'], ['to', '$lte']] as const) {
    const v = input[key];
    if (v === undefined) continue;
    if (Number.isNaN(Date.parse(v))) throw invalid(key, `The ${key} date must be an ISO 8601 date.`);
    range[op] = new Date(key === 'to' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59.999Z` : v).toISOString();
  }
  if (Object.keys(range).length) where.created_at = range;
  if (input.search) {
    const like = `%${String(input.search).replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    and.push({ $or: [{ order_number: { $iLike: like } }, { customer_id: { $iLike: like } }, { customer_name: { $iLike: like } }] });
  }
  // Filterable custom fields (spec 3) match in SQL: JSONB containment on custom_fields.
  const custom = input.custom_fields === undefined ? null : await customFieldFilter(ctx.host.db, input.custom_fields);
  if (custom) and.push(custom);
  if (and.length) where.$and = and;
  const sort = SORT_WORDS[input.sort ?? ''] ?? input.sort ?? '-created_at';
  const desc = sort.startsWith('-');
  const column = desc ? sort.slice(1) : sort;
  const perPage = input.per_page ?? 20;
  const page = input.page ?? 1;
  const [rows, total] = await Promise.all([
    ctx.host.db.find<OrderRow>('Order', { where, order: [[column as keyof OrderRow, desc ? 'DESC' : 'ASC'], ['id', 'ASC']], limit: perPage, offset: (page - 1) * perPage }),
    ctx.host.db.count('Order', { where }),
  ]);
  return { data: rows.map((o) => orderView(o)), pagination: { current_page: page, per_page: perPage, total, last_page: Math.max(1, Math.ceil(total / perPage)) } };
}

/** `shipped` is entered only by creating a shipment, never by a status change. */
export const shipOnly = (current: string) =>
  invalidStatus('An order becomes shipped when a shipment is created: use POST /orders/{order}/ship.', current);

/**
 * One order's status change in its own transaction, its events published after the commit; the
 * single-order endpoints and the bulk actions share it. `from` is the status it had.
 */
export async function changeStatus(ctx: HandlerContext, input: { id: string; status: string; reason?: string }): Promise<{ order: OrderRow; from: string }> {
  if (!(ORDER_STATUSES as readonly string[]).includes(input.status)) throw invalid('status', `Unknown status "${input.status}".`);
  if (input.status === 'shipped') {
    throw shipOnly((await loadOrder(ctx.host.db, input.id)).status);
  }
  const outbox: Outbox = [];
  const at = nowIso(ctx);
  let from = '';
  const order = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const current = await loadOrder(tx, input.id);
    from = current.status;
    return moveStatus(tx, current, input.status, { at, reason: input.reason, actor: actorOf(ctx), outbox });
  });
  await publish(ctx, outbox);
  return { order, from };
}

export async function updateStatus(input: { id: string; status: string; reason?: string }, ctx: HandlerContext) {
  const { order } = await changeStatus(ctx, input);
  return orderView(order, await itemsOf(ctx.host.db, order.id));
}

export const cancelOrder = (input: { id: string; reason?: string }, ctx: HandlerContext) => updateStatus({ id: input.id, status: 'cancelled', reason: input.reason }, ctx);

export async function deleteOrder(input: { id: string }, ctx: HandlerContext) {
  return inTransaction(ctx.host.db, async (tx) => {
    const order = await loadOrder(tx, input.id);
    for (const model of ['Payment', 'Invoice', 'Shipment']) {
      if ((await tx.count(model, { where: { order_id: order.id } })) > 0) {
        throw ordersErrors.orderHasRecords(order.order_number, model);
      }
    }
    await tx.destroy('OrderItem', { where: { order_id: order.id } });
    await tx.destroy('StatusChange', { where: { order_id: order.id } });
    await tx.destroy('Refund', { where: { order_id: order.id } });
    await tx.destroy<OrderRow>('Order', { where: { id: order.id, version: order.version } });
    return { deleted: true as const, id: order.id };
  });
}

export async function history(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  const rows = await ctx.host.db.find<{ id: string; order_id: string }>('StatusChange', { where: { order_id: order.id }, order: [['id', 'ASC']], limit: 1000 });
  return { order_id: order.id, history: rows };
}

export { findOrder };
