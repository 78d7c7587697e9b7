/**
 * Chain order flows (spec 3, Chain order; States: chain order operations). An order moves up the
 * chain one related-tenant call at a time (forward → receive in the parent, which keeps its own
 * copy), is accepted at the top (stock reserved), and its later states travel back down
 * (accepted, shipped, delivered, cancelled → sync in the child, then its child ...). Each state
 * change is a conditional update from the states it may come from: of two concurrent operations
 * on one copy exactly one changes it, the other answers INVALID_STATUS.
 *
 * Source states (spec 3 leaves them open; README: decisions):
 *   forward: pending_forward (a tenant below the top)      accept: pending_forward (the top only)
 *   process: accepted (the fulfiller)                       ship: accepted, processing (the fulfiller)
 *   deliver: shipped (the fulfiller)                        return: delivered (the fulfiller)
 *   cancel: pending_forward (where the order is now), or accepted/processing at the fulfiller
 */
import { assertSettlementCurrency, taxableValue } from './pricing';
import Decimal from 'decimal.js';
import { related, typedCall, type HandlerContext } from '../../../sdk';
import { markOriginDelivered, markOriginProcessing, markOriginShipped } from './origin-order';
import { requirePaid } from './payment';
import { chainErrors, codeOf, invalidStatus, noParent, notCatalogOrder, notFound, notTop } from './errors';
import { propagate } from './propagations';
import { ownParty, type GstParty } from './level-gst';
import { creditLevelInvoice, issueLevelInvoice, type InvoiceAmounts } from './level-invoices';

export const STATUSES = ['pending_forward', 'forwarded', 'accepted', 'processing', 'shipped', 'delivered', 'cancelled', 'returned', 'refunded'] as const;
/** A delivered order reversed: its goods came back (returned) or its prepaid money went back (refunded) (README: returns and refunds). */
export const REVERSED = ['returned', 'refunded'] as const;
export type ChainStatus = (typeof STATUSES)[number];

export type PathEntry = { tenant_id: string; tenant_name: string | null; level: number | null };
/**
 * A line of a copy at this level's cost. hsn_code and tax_rate are the origin's order line's (its GST);
 * sell_unit_price and sell_amount what this level charges the level below for it (the child's bound
 * cost of the line), on copies received since they travel with the forward (README: GST invoices between levels).
 */
export type Item = { sku: string; name: string; quantity: number; unit_cost: string; cost: string; hsn_code?: string | null; tax_rate?: string | null; sell_unit_price?: string; sell_amount?: string };

export type ChainOrderRow = {
  id: string;
  chain_ref: string;
  origin_tenant_id: string;
  origin_order_id: string | null;
  origin_order_number: string;
  chain_status: ChainStatus;
  chain_path: PathEntry[];
  child_tenant_id: string | null;
  parent_tenant_id: string | null;
  is_fulfiller: boolean;
  customer: Record<string, unknown>;
  customer_name: string | null;
  shipping_address: unknown;
  items: Item[];
  origin_total: string;
  your_cost: string;
  sell_total: string;
  cod_amount: string;
  payment_method: string;
  payment_status: string;
  carrier: string | null;
  tracking_number: string | null;
  shipped_at: string | null;
  delivered_at: string | null;
  /** When the fulfiller's stock reservation was closed (consumed at delivery, released at cancel). */
  stock_closed_at: string | null;
  cancel_reason: string | null;
  /** The child as the buyer on this level's invoice to it, as it sent itself with the forward. */
  buyer_party: GstParty | null;
  created_at: string;
  updated_at: string;
};

type QuoteOut = { items: Array<{ sku: string; quantity: number; name: string; unit_cost: string; cost: string; is_available: boolean }>; total_cost: string };
type Ops = {
  'reseller_catalog.quote': { input: { items: Array<{ sku: string; quantity: number }>; sub_reseller_id?: string; require_available?: boolean }; output: QuoteOut };
  'reseller_catalog.reserve_stock': { input: { reference: string; items: Array<{ sku: string; quantity: number }>; sub_reseller_id?: string; order_number?: string }; output: unknown };
  'reseller_catalog.release_stock': { input: { reference: string }; output: unknown };
  'reseller_catalog.consume_stock': { input: { reference: string }; output: unknown };
  'reseller_finance.record_delivery': { input: Record<string, unknown>; output: { recorded: boolean } };
  'reseller_finance.reverse_delivery': { input: { chain_ref: string; cause: string }; output: { reversed: boolean } };
  'orders.get': { input: { id: string }; output: OrderView };
};
export type OrderView = {
  id: string;
  order_number: string;
  customer: Record<string, unknown> | null;
  customer_name: string | null;
  shipping_address: unknown;
  is_cod: boolean;
  payment_status: string;
  currency: string;
  total: string;
  tax_total: string;
  items: Array<{ sku: string | null; name: string; quantity: number; hsn_code?: string | null; tax_rate?: string | null }>;
};

const call = (ctx: HandlerContext) => typedCall<Ops>(ctx.host);
export const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/** Spec 3, Events: {event, timestamp, tenant_id, data}. */
export const envelope = (ctx: HandlerContext, event: string, data: Record<string, unknown>) => ({ event, timestamp: isoNow(ctx), tenant_id: ctx.tenantId, data });

export async function find(ctx: HandlerContext, id: string): Promise<ChainOrderRow> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { id } });
  if (!row) throw notFound(id);
  return row;
}

/** This tenant on a chain path: platform.get_tenant (public) names it and gives its reseller level. */
async function self(ctx: HandlerContext): Promise<PathEntry> {
  const t = await ctx.host.call<{ id: string; name: string; reseller_level: number | null }>('platform.get_tenant', {});
  return { tenant_id: ctx.tenantId, tenant_name: t.name, level: t.reseller_level };
}

/**
 * Moves one copy from one of `from` to `to` (the conditional update is the lock), writes the
 * timeline and announces it. Returns the row as it is now, or throws INVALID_STATUS.
 */
export async function transition(ctx: HandlerContext, row: ChainOrderRow, action: string, from: readonly ChainStatus[], to: ChainStatus, values: Partial<ChainOrderRow>, note: string | null): Promise<ChainOrderRow> {
  const at = isoNow(ctx);
  const changed = await ctx.host.db.transaction(async (tx) => {
    const n = await tx.update<ChainOrderRow>('ChainOrder', { ...values, chain_status: to, updated_at: at }, { where: { id: row.id, chain_status: { $in: [...from] } } });
    if (n === 1) await tx.create('TimelineEntry', { chain_order_id: row.id, status: to, note, tenant_id: ctx.tenantId, created_at: at });
    return n;
  });
  if (changed !== 1) {
    const now = await find(ctx, row.id);
    throw invalidStatus(action, now.chain_status, from);
  }
  const next = { ...row, ...values, chain_status: to, updated_at: at };
  await ctx.host.emit('chain_order.status_changed', envelope(ctx, 'chain_order.status_changed', { chain_order_id: row.id, origin_order_number: row.origin_order_number, from: row.chain_status, to, note }));
  if (to === 'delivered') await ctx.host.emit('chain_order.delivered', envelope(ctx, 'chain_order.delivered', { chain_order_id: row.id, origin_order_number: row.origin_order_number }));
  return next;
}

/** POST /chain-orders {order_id}, and order.created: a chain order from an orders-module order whose every item is a catalog product. */
export async function createFromOrder(ctx: HandlerContext, orderId: string): Promise<{ row: ChainOrderRow; created: boolean }> {
  const order = await call(ctx)('orders.get', { id: orderId });
  const chainRef = `${ctx.tenantId}:${order.id}`;
  const existing = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
  if (existing) return { row: existing, created: false };
  assertSettlementCurrency(order.currency);
  const noSku = order.items.filter((i) => !i.sku).map((i) => i.name);
  if (noSku.length || order.items.length === 0) throw notCatalogOrder(noSku);
  let quote: QuoteOut;
  try {
    // Spec 3, Reseller product pricing: a product unavailable to this tenant never enters the chain (PRODUCT_UNAVAILABLE).
    quote = await call(ctx)('reseller_catalog.quote', { items: order.items.map((i) => ({ sku: i.sku!, quantity: Number(i.quantity) })), require_available: true });
  } catch (err) {
    if (codeOf(err) === 'NOT_FOUND') throw notCatalogOrder(((err as { details?: { skus?: string[] } }).details?.skus ?? []) as string[]);
    throw err;
  }
  const at = isoNow(ctx);
  const me = await self(ctx);
  const cod = order.is_cod;
  const values = {
    chain_ref: chainRef,
    origin_tenant_id: ctx.tenantId,
    origin_order_id: order.id,
    origin_order_number: order.order_number,
    chain_status: 'pending_forward' as const,
    chain_path: [me],
    customer: order.customer ?? {},
    customer_name: order.customer_name ?? ((order.customer?.name as string | undefined) ?? null),
    shipping_address: order.shipping_address ?? null,
    // Quote lines follow the order's lines; each keeps that line's GST (HSN code, rate) for the invoices between levels.
    items: quote.items.map((q, n) => ({ sku: q.sku, name: q.name, quantity: q.quantity, unit_cost: q.unit_cost, cost: q.cost, hsn_code: order.items[n]?.hsn_code ?? null, tax_rate: order.items[n]?.tax_rate ?? null })),
    origin_total: order.total,
    // The price that binds this level for this order, fixed now (carried up with the forward).
    your_cost: quote.total_cost,
    sell_total: taxableValue(order),
    cod_amount: cod ? order.total : '0.00',
    payment_method: cod ? 'cod' : 'prepaid',
    payment_status: cod ? 'pending' : order.payment_status,
    created_at: at,
    updated_at: at,
  };
  try {
    const row = await ctx.host.db.transaction(async (tx) => {
      const made = await tx.create<ChainOrderRow>('ChainOrder', values);
      await tx.create('TimelineEntry', { chain_order_id: made.id, status: 'pending_forward', note: 'created from order ' + order.order_number, tenant_id: ctx.tenantId, created_at: at });
      return made;
    });
    await ctx.host.emit('chain_order.created', envelope(ctx, 'chain_order.created', { chain_order_id: row.id, origin_order_number: row.origin_order_number }));
    return { row, created: true };
  } catch (err) {
    // The same order created twice at once (a redelivered order.created): the unique chain_ref keeps one.
    const again = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
    if (again) return { row: again, created: false };
    throw err;
  }
}

/**
 * The child's bound cost of each line, the parent's price of it on its invoice: kept only when the
 * lines add up to the child's cost (the one price the parent binds itself to), else the invoice
 * splits that cost over the lines (level-gst.ts).
 */
function soldLines(input: Forwarded): Array<{ sell_unit_price?: string; sell_amount?: string }> {
  const amounts = input.items.map((i) => i.cost);
  if (amounts.some((a) => a === undefined || !/^\d+\.\d{2}$/.test(a)) || !amounts.reduce((s, a) => s.plus(a!), new Decimal(0)).eq(input.child_cost)) return input.items.map(() => ({}));
  return input.items.map((i) => ({ sell_unit_price: i.unit_cost, sell_amount: i.cost }));
}

/** What the parent receives from a forwarding child. */
export interface Forwarded {
  chain_ref: string;
  origin_tenant_id: string;
  origin_order_number: string;
  chain_path: PathEntry[];
  customer: Record<string, unknown>;
  customer_name: string | null;
  shipping_address: unknown;
  /** Each line with its GST and the child's bound cost of it (what the parent's invoice to the child charges). */
  items: ForwardedItem[];
  origin_total: string;
  /** The child's cost of the order, bound when it entered the child's level: the parent's price to it. */
  child_cost: string;
  cod_amount: string;
  payment_method: string;
  payment_status: string;
  /** The child as the buyer on its parent's invoice (its business profile); absent from modules before 1.2.0. */
  buyer?: GstParty | null;
}
export type ForwardedItem = { sku: string; quantity: number; hsn_code?: string | null; tax_rate?: string | null; unit_cost?: string; cost?: string };

export async function forward(ctx: HandlerContext, id: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (row.chain_status !== 'pending_forward') throw invalidStatus('forwarded', row.chain_status, ['pending_forward']);
  const { tenant: parent } = await related(ctx.host).parent();
  if (!parent) throw noParent();
  const moved = await transition(ctx, row, 'forwarded', ['pending_forward'], 'forwarded', { parent_tenant_id: parent.id }, `forwarded to ${parent.name}`);
  const payload: Forwarded = {
    chain_ref: row.chain_ref,
    origin_tenant_id: row.origin_tenant_id,
    origin_order_number: row.origin_order_number,
    chain_path: row.chain_path,
    customer: row.customer,
    customer_name: row.customer_name,
    shipping_address: row.shipping_address,
    items: row.items.map((i) => ({ sku: i.sku, quantity: i.quantity, hsn_code: i.hsn_code ?? null, tax_rate: i.tax_rate ?? null, unit_cost: i.unit_cost, cost: i.cost })),
    origin_total: row.origin_total,
    child_cost: row.your_cost,
    cod_amount: row.cod_amount,
    payment_method: row.payment_method,
    payment_status: row.payment_status,
    buyer: await ownParty(ctx, row.chain_path.find((p) => p.tenant_id === ctx.tenantId)?.tenant_name ?? null),
  };
  try {
    // Spec 3, Reseller product pricing: the level holding an order from below checks, as it passes it
    // on, that the product is still available to that level (after the move, so a mark committed
    // before it is seen); the parent checks the same for this tenant as it receives the order.
    if (row.child_tenant_id) await requireAvailable(ctx, row);
    await related(ctx.host).call(parent.id, 'reseller_orders.receive', payload);
  } catch (err) {
    // The parent did not take it: the order is back where it was, to forward again or cancel.
    await ctx.host.db.update<ChainOrderRow>('ChainOrder', { chain_status: 'pending_forward', parent_tenant_id: null, updated_at: isoNow(ctx) }, { where: { id: row.id, chain_status: 'forwarded' } });
    throw err;
  }
  return moved;
}

/** Refuses (PRODUCT_UNAVAILABLE) an order whose products this tenant no longer sells to the level below it. */
async function requireAvailable(ctx: HandlerContext, row: ChainOrderRow) {
  try {
    await call(ctx)('reseller_catalog.quote', { items: row.items.map((i) => ({ sku: i.sku, quantity: i.quantity })), sub_reseller_id: row.child_tenant_id!, require_available: true });
  } catch (err) {
    // A child suspended since it sent the order is no longer one this tenant prices for: the order it
    // sent while active goes on, as it did before this check.
    if (codeOf(err) !== 'FORBIDDEN') throw err;
  }
}

/**
 * In the parent: its own copy of a forwarded order. Its cost is bound now, from its own catalog; its
 * price to the child is the child's bound cost, so a re-price between the child's costing and its
 * forward changes neither side of their remittance (spec 3, Reseller product pricing).
 */
export async function receive(ctx: HandlerContext, child: string, input: Forwarded): Promise<{ id: string }> {
  const existing = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: input.chain_ref } });
  if (existing) return { id: existing.id };
  // With sub_reseller_id the catalog also checks that the child is directly under this tenant; refused
  // (PRODUCT_UNAVAILABLE) when a product is not available to the child (spec 3, Reseller product pricing).
  const quote = await call(ctx)('reseller_catalog.quote', { items: input.items.map((i) => ({ sku: i.sku, quantity: i.quantity })), sub_reseller_id: child, require_available: true });
  const sold = soldLines(input);
  const at = isoNow(ctx);
  const me = await self(ctx);
  const row = await ctx.host.db.transaction(async (tx) => {
    const made = await tx.create<ChainOrderRow>('ChainOrder', {
      chain_ref: input.chain_ref,
      origin_tenant_id: input.origin_tenant_id,
      origin_order_id: null,
      origin_order_number: input.origin_order_number,
      chain_status: 'pending_forward',
      chain_path: [...input.chain_path, me],
      child_tenant_id: child,
      customer: input.customer,
      customer_name: input.customer_name,
      shipping_address: input.shipping_address,
      items: quote.items.map((q, n) => ({ sku: q.sku, name: q.name, quantity: q.quantity, unit_cost: q.unit_cost, cost: q.cost, hsn_code: input.items[n]?.hsn_code ?? null, tax_rate: input.items[n]?.tax_rate ?? null, ...sold[n] })),
      origin_total: input.origin_total,
      your_cost: quote.total_cost,
      sell_total: input.child_cost,
      buyer_party: input.buyer ? { ...input.buyer, tenant_id: child } : null,
      cod_amount: input.cod_amount,
      payment_method: input.payment_method,
      payment_status: input.payment_status,
      created_at: at,
      updated_at: at,
    });
    await tx.create('TimelineEntry', { chain_order_id: made.id, status: 'pending_forward', note: `received from sub-reseller ${child}`, tenant_id: ctx.tenantId, created_at: at });
    return made;
  });
  await ctx.host.emit('chain_order.created', envelope(ctx, 'chain_order.created', { chain_order_id: row.id, origin_order_number: row.origin_order_number }));
  return { id: row.id };
}

export async function accept(ctx: HandlerContext, id: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (row.chain_status !== 'pending_forward') throw invalidStatus('accepted', row.chain_status, ['pending_forward']);
  const { tenant: parent } = await related(ctx.host).parent();
  if (parent) throw notTop();
  // Stock first (all or nothing, never below zero); the same reference reserves once. The catalog
  // refuses products no longer available to the level below (spec 3, Reseller product pricing),
  // under the product's lock, so a mark racing this accept is seen or comes after it.
  await call(ctx)('reseller_catalog.reserve_stock', {
    reference: row.chain_ref,
    items: row.items.map((i) => ({ sku: i.sku, quantity: i.quantity })),
    order_number: row.origin_order_number,
    ...(row.child_tenant_id ? { sub_reseller_id: row.child_tenant_id } : {}),
  });
  try {
    const moved = await transition(ctx, row, 'accepted', ['pending_forward'], 'accepted', { is_fulfiller: true }, 'accepted; stock reserved');
    await pushDown(ctx, moved, 'accepted', {});
    return moved;
  } catch (err) {
    await call(ctx)('reseller_catalog.release_stock', { reference: row.chain_ref }).catch(() => undefined);
    throw err;
  }
}

/** The fulfiller starts fulfilling it (picking, packing): accepted → processing, at every level (README: states). */
export async function startProcessing(ctx: HandlerContext, id: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (!row.is_fulfiller) throw invalidStatus('processing', row.chain_status, ['accepted']);
  await markOriginProcessing(ctx, row);
  const moved = await transition(ctx, row, 'processing', ['accepted'], 'processing', {}, 'being fulfilled');
  await pushDown(ctx, moved, 'processing', {});
  return moved;
}

const SHIPS_FROM: ChainStatus[] = ['accepted', 'processing'];

export async function ship(ctx: HandlerContext, id: string, carrier: string, trackingNumber: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (!row.is_fulfiller || !SHIPS_FROM.includes(row.chain_status)) throw invalidStatus('shipped', row.chain_status, SHIPS_FROM);
  const shipping = { carrier, tracking_number: trackingNumber, shipped_at: isoNow(ctx) };
  // The fulfiller that sold the order itself (origin and top): its order ships in its orders module first (README: rule 8).
  await markOriginShipped(ctx, row, shipping);
  const moved = await transition(ctx, row, 'shipped', SHIPS_FROM, 'shipped', shipping, `shipped with ${carrier} (${trackingNumber})`);
  await pushDown(ctx, moved, 'shipped', shipping);
  return moved;
}

export async function deliver(ctx: HandlerContext, id: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (!row.is_fulfiller) throw invalidStatus('delivered', row.chain_status, ['shipped']);
  if (row.chain_status !== 'shipped') throw invalidStatus('delivered', row.chain_status, ['shipped']);
  // Spec 3, Order payment: a prepaid order's money is what the origin's orders module records as paid.
  if (row.payment_method === 'prepaid') await requirePaid(ctx, row);
  const at = isoNow(ctx);
  // README, GST invoices between levels: the sale to the level below is invoiced first (once per
  // order), as its remittance carries the invoice's total; then the settlement (idempotent per chain
  // order), so a copy is never delivered without its money recorded.
  const invoice = await issueLevelInvoice(ctx, row);
  await settle(ctx, row, invoice, null);
  // The reservation closes with the delivery (idempotent), so it no longer holds the product against deletion (spec 3, Master product).
  await call(ctx)('reseller_catalog.consume_stock', { reference: row.chain_ref });
  await markOriginDelivered(ctx, row, at);
  const moved = await transition(ctx, row, 'delivered', ['shipped'], 'delivered', { delivered_at: at, payment_status: 'paid', stock_closed_at: at }, 'delivered to the customer');
  // The child's settlement carries this invoice: it travels with the child's push (the child cannot
  // ask this tenant while this tenant's call to it is on the way).
  await pushDown(ctx, moved, 'delivered', { delivered_at: at }, { child: { parent_invoice: invoice } });
  return moved;
}

export async function cancel(ctx: HandlerContext, id: string, reason: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  const from: ChainStatus[] = row.is_fulfiller ? ['accepted', 'processing'] : ['pending_forward'];
  const moved = await transition(ctx, row, 'cancelled', from, 'cancelled', { cancel_reason: reason }, reason);
  if (row.is_fulfiller) {
    await call(ctx)('reseller_catalog.release_stock', { reference: row.chain_ref });
    await ctx.host.db.update<ChainOrderRow>('ChainOrder', { stock_closed_at: isoNow(ctx) }, { where: { id: row.id } });
  }
  await pushDown(ctx, moved, 'cancelled', { cancel_reason: reason });
  return moved;
}

/** The states a copy below may be in before each state that travels down. */
const BEFORE: Record<string, ChainStatus[]> = {
  accepted: ['forwarded'],
  processing: ['forwarded', 'accepted'],
  shipped: ['forwarded', 'accepted', 'processing'],
  delivered: ['shipped'],
  cancelled: ['forwarded', 'accepted', 'processing'],
  returned: ['delivered'],
  refunded: ['delivered'],
};

/**
 * Hands a state to every level below on the order's path, all at once. A tenant may call any
 * tenant below it, so each level is one call from here rather than a call nested per level: the
 * depth stays the same for a chain of 10, and as each level changes only its own copy the calls
 * need no order among them. A level that cannot be reached now (suspended, or failing) gets it
 * later (propagations.ts: the push job, then the re-drive schedule); its copy then catches up,
 * states in order (sync refuses a state whose predecessor has not arrived, and it is tried again).
 */
export async function pushDown(ctx: HandlerContext, row: ChainOrderRow, status: ChainStatus, values: Record<string, unknown>, opts: { later?: boolean; child?: Record<string, unknown> } = {}) {
  const below = row.chain_path.map((p) => p.tenant_id).filter((t) => t !== ctx.tenantId);
  // `later`: the levels below are waiting on this very call (a report on its way up), so each gets it from the push job.
  // `child`: what only the level just below is told (this level's own document to it).
  const valuesFor = (tenant: string) => (opts.child && tenant === row.child_tenant_id ? { ...values, ...opts.child } : values);
  await Promise.all(below.map((tenant) => propagate(ctx, { tenant, chain_ref: row.chain_ref, status, values: valuesFor(tenant) }, { later: opts.later })));
}

/**
 * Below the level that moved the order: its state change applied to this copy. The host lets only
 * a related tenant call; the child below this one is refused, so only a tenant above (on the path
 * the order was forwarded along) reports progress.
 */
export async function sync(ctx: HandlerContext, from: string, chainRef: string, status: ChainStatus, values: Record<string, unknown>): Promise<{ applied: boolean }> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
  if (!row) throw notFound(chainRef);
  if (!row.parent_tenant_id || from === row.child_tenant_id) throw chainErrors.forbidden('Only a tenant above this one, to which the order was forwarded, reports its progress.');
  if (row.chain_status === status) return { applied: false }; // a repeated report
  // Checked before anything follows (settlement, the origin's order, reversals); the transition checks again.
  if (!(BEFORE[status] ?? []).includes(row.chain_status)) throw invalidStatus(status, row.chain_status, BEFORE[status] ?? []);
  const allowed: Partial<ChainOrderRow> = {};
  for (const key of ['carrier', 'tracking_number', 'shipped_at', 'delivered_at', 'cancel_reason'] as const) if (typeof values[key] === 'string') allowed[key] = values[key] as string;
  if (status === 'delivered') {
    allowed.payment_status = 'paid';
    // The parent's invoice comes with the push when the parent sent it (the top to its child), else from the parent.
    const carried = from === row.parent_tenant_id ? invoiceAmountsOf(values.parent_invoice) : undefined;
    await settle(ctx, row, await issueLevelInvoice(ctx, row), carried);
  }
  // The origin's order in its orders module follows, before the copy does (a failure is retried with the push).
  if (status === 'processing') await markOriginProcessing(ctx, row);
  if (status === 'shipped') await markOriginShipped(ctx, row, allowed);
  if (status === 'delivered') await markOriginDelivered(ctx, row, allowed.delivered_at ?? null);
  if (isReversal(status)) {
    // This level's money is given back before its copy says so, as settlement comes before delivered.
    await reverseMoney(ctx, row, status);
  }
  await transition(ctx, row, status, BEFORE[status] ?? [], status, allowed, `${status} (reported by the tenant above)`);
  return { applied: true };
}

export const isReversal = (s: string): s is (typeof REVERSED)[number] => (REVERSED as readonly string[]).includes(s);

/** A returned or refunded order's money at this level, reversed by its own finance module (once per chain order). */
export async function reverseMoney(ctx: HandlerContext, row: ChainOrderRow, cause: (typeof REVERSED)[number]) {
  await call(ctx)('reseller_finance.reverse_delivery', { chain_ref: row.chain_ref, cause });
  // Its invoice to the level below is reversed with it (README: GST invoices between levels).
  await creditLevelInvoice(ctx, row, cause);
}

/**
 * The invoice this level's parent issued it for the order, as the parent answers it (issued there
 * now when the delivered state has not reached the parent's copy yet): null at the top, and for a
 * parent's copy delivered before invoices were issued (README: the GST moves through the wallets).
 * `carried`: the parent sent it with its push (then it cannot be asked: it is on the call's path).
 */
async function parentInvoice(ctx: HandlerContext, row: ChainOrderRow, carried: InvoiceAmounts | null | undefined): Promise<InvoiceAmounts | null> {
  if (!row.parent_tenant_id) return null;
  if (carried !== undefined) return carried;
  return (await related(ctx.host).call<{ invoice: InvoiceAmounts | null }>(row.parent_tenant_id, 'reseller_orders.invoice_to_child', { chain_ref: row.chain_ref })).invoice;
}

/** An invoice's amounts as a push carries them; undefined when it carries none (null: the parent has no invoice). */
function invoiceAmountsOf(v: unknown): InvoiceAmounts | null | undefined {
  if (v === null) return null;
  const amount = (x: unknown) => typeof x === 'string' && /^-?\d{1,12}\.\d{2}$/.test(x);
  const o = v as Partial<InvoiceAmounts> | undefined;
  return o && amount(o.total) && amount(o.total_tax) ? { total: o.total!, total_tax: o.total_tax! } : undefined;
}

/**
 * Spec 3: delivery triggers settlement; each level records its side with its own finance module.
 * Between a level and its parent the money is the parent's invoice total (its bound price plus that
 * invoice's GST: "tax follows the invoice that each level issues"), read from the invoice itself on
 * both sides (`own`, this level's to its child; its parent's, answered by the parent), so both
 * copies of a remittance carry the same amount to the paisa (`carried`: the parent's, sent with its
 * push; otherwise asked of the parent); a copy with no invoice (delivered
 * before invoices were issued) stays on the bound price.
 * COD was collected by the carrier for the origin (seller of record) and settles upstream: each level
 * owes its parent its parent's invoice total. A prepaid order was paid through the top's gateway and
 * settles downstream: each level owes its child the customer total less the child's invoice total;
 * where that is negative (a sale below the child's cost) the child owes the difference, as it would
 * under COD. Either way every level keeps the margin of its bound prices plus its net GST (what it
 * charged less what it was charged: owed to the tax authority, reported apart from earnings), and
 * the seller alone bears a sale below its cost (README: decisions).
 */
async function settle(ctx: HandlerContext, row: ChainOrderRow, own: InvoiceAmounts | null, carried: InvoiceAmounts | null | undefined) {
  const isOrigin = row.origin_tenant_id === ctx.tenantId;
  const bought = await parentInvoice(ctx, row, carried);
  // At the origin sell_total is the taxable value: the rest of the customer's total is its invoice's GST.
  const tax = isOrigin ? { tax: new Decimal(row.origin_total).minus(row.sell_total).toFixed(2) } : {};
  const base = { chain_ref: row.chain_ref, chain_order_id: row.id, origin_order_number: row.origin_order_number, ...tax, ...levelTax(own, bought) };
  // What this level pays its parent and charges its child (each invoice's total, or the bound price).
  const cost = new Decimal(bought?.total ?? row.your_cost);
  const price = new Decimal(own?.total ?? row.sell_total);
  const pay: Party[] = [];
  const receive: Party[] = [];
  // What `tenant` owes this level for the order: positive is a remittance from it, negative one to it.
  const owes = (tenant: string | null, amount: Decimal) => {
    if (tenant && !amount.isZero()) (amount.gt(0) ? receive : pay).push({ tenant_id: tenant, amount: amount.abs().toFixed(2) });
  };
  if (row.payment_method === 'cod') {
    owes(row.parent_tenant_id, cost.neg());
    owes(row.child_tenant_id, price);
    await call(ctx)('reseller_finance.record_delivery', {
      ...base,
      flow_type: 'upstream',
      collector_tenant_id: row.origin_tenant_id,
      collected: isOrigin ? { amount: row.origin_total, method: 'cod' } : null,
      pay,
      receive,
    });
    return;
  }
  // The top is the copy with no parent (the order was accepted there); a level below learns no tenant above its parent.
  const isTop = !row.parent_tenant_id;
  const total = new Decimal(row.origin_total);
  owes(row.parent_tenant_id, total.minus(cost));
  owes(row.child_tenant_id, price.minus(total));
  await call(ctx)('reseller_finance.record_delivery', {
    ...base,
    flow_type: 'downstream',
    collector_tenant_id: row.parent_tenant_id ?? ctx.tenantId,
    collected: isTop ? { amount: row.origin_total, method: 'prepaid' } : null,
    pay,
    receive,
  });
}

/** The GST of the invoices between levels in a level's money: charged to its child, charged by its parent (finance README: never earnings). */
export const levelTax = (charged: InvoiceAmounts | null, paid: InvoiceAmounts | null) => ({ gst_charged: charged?.total_tax ?? '0.00', gst_paid: paid?.total_tax ?? '0.00' });

type Party = { tenant_id: string; amount: string };
