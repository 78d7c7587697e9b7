/**
 * reseller-orders (spec 3, Chain order; Endpoints: Chain orders): orders that travel up the
 * reseller chain to the level-0 tenant that holds the stock, and whose progress travels back down.
 * Declared here beside the handlers; `mandi module build` writes module.json. Flows: chain.ts;
 * decisions the spec leaves open: README.md.
 */
import { defineModule, operation, Type, type HandlerContext } from '../../../sdk';
import { accept, cancel, createFromOrder, deliver, forward, receive, ship, startProcessing, STATUSES, sync, type ChainOrderRow, type ChainStatus, type Forwarded } from './chain';
import { codeOf, notFound, onlyRelated } from './errors';
import { data } from './models';
import { findPage } from './paging';
import { paymentOf } from './payment';
import { listPropagations, propagationOf, PROPAGATION_STATES, PUSH_JOB, pushAttempt, REDRIVE_EVERY_MS, redriveStuck, retryOne, type PropagationState, type Push } from './propagations';
import { reportPartialRefund } from './partial-refunds';
import { onRefundProcessed, reportRefund, returnOrder } from './reversal';
import { closeFinishedReservations, STOCK_REPAIR_EVERY_MS } from './stock-repair';
import { present } from './view';
import { CSV_COLUMNS, csvRows, invoicePdf, invoicesOfOrder, invoicesOfPeriod, invoicesToChild, invoiceToChild, MAX_ROWS } from './level-invoices';
import Decimal from 'decimal.js';

/** Spec 3, Errors and Limits: {error, code, details}; per user, reads 100 and writes 30 a minute. */
const LIMITS = { GET: '100/60', POST: '30/60' } as const;
const Uuid = Type.String({ format: 'uuid' });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' });
const Loose = Type.Object({}, { additionalProperties: true });
const Pagination = Type.Object({ current_page: Type.Integer(), last_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() });
const OrderOut = Type.Object({ order: Loose });
const ListIn = Type.Object(
  {
    status: Type.Optional(Type.StringEnum(STATUSES)),
    from_date: Type.Optional(Day),
    to_date: Type.Optional(Day),
    search: Type.Optional(Type.String({ maxLength: 100 })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  },
  { additionalProperties: false },
);
const ListOut = Type.Object({ orders: Type.Array(Loose), pagination: Pagination });
const internal = { graphql_expose: false, ai_tool: false } as const;
const Text = (max: number) => Type.Nullable(Type.String({ maxLength: max }));
/** The child as the buyer on its parent's invoice, sent with the forward (level-gst.ts GstParty). */
const GstPartyIn = Type.Object(
  { tenant_id: Type.String({ maxLength: 63 }), name: Text(255), gstin: Type.Nullable(Type.String({ pattern: '^[0-9]{2}[0-9A-Z]{13}$' })), address_lines: Type.Array(Type.String({ maxLength: 255 }), { maxItems: 5 }), state: Text(100), state_code: Type.Nullable(Type.String({ pattern: '^[0-9]{2}$' })) },
  { additionalProperties: false },
);
const InvoicesOut = Type.Object({ invoices: Type.Array(Loose) });
/** What a remittance between two levels carries of the seller's invoice or credit note (README: the GST moves through the wallets). */
const InvoiceAmountsOut = Type.Object({ total: Type.String(), total_tax: Type.String() });
const PeriodIn = { direction: Type.Optional(Type.StringEnum(['issued', 'received'] as const)), from_date: Type.Optional(Day), to_date: Type.Optional(Day) };

type ListInput = { status?: ChainStatus; from_date?: string; to_date?: string; search?: string; per_page?: number; page?: number };

/** Spec 3: search by order number or customer; from_date/to_date whole UTC days. */
async function list(ctx: HandlerContext, input: ListInput, scope: Record<string, unknown>) {
  const where: Record<string, unknown> = { ...scope };
  if (input.status) where.chain_status = input.status;
  const range: Record<string, string> = {};
  if (input.from_date) range.$gte = `${input.from_date}T00:00:00.000Z`;
  if (input.to_date) range.$lte = `${input.to_date}T23:59:59.999Z`;
  if (Object.keys(range).length) where.created_at = range;
  if (input.search) {
    const like = `%${input.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.$or = [{ origin_order_number: { $iLike: like } }, { customer_name: { $iLike: like } }];
  }
  const { rows, pagination } = await findPage<ChainOrderRow>(ctx, 'ChainOrder', where, [['created_at', 'DESC'], ['id', 'DESC']], input);
  return { orders: rows.map(present), pagination };
}

const route = (method: 'GET' | 'POST', path: string, extra: Record<string, unknown> = {}) => ({ method, path, error_shape: 'reseller' as const, rate_limit: LIMITS[method], ...extra });

/** order.created errors that only mean the order is not the chain's (spec 3, Chain order): not retried. */
const IGNORED_ORDERS = new Set(['NOT_CATALOG_ORDER', 'PRODUCT_UNAVAILABLE', 'CURRENCY_NOT_SETTLED']);

export default defineModule({
  name: 'reseller_orders',
  version: '1.2.0',
  description: 'Reseller network chain orders: forwarded up the chain to the stock holder, accepted, shipped and delivered, with COD settlement at every level.',
  compatibility: { platform: '^2.0.0' },
  dependencies: { orders: '^1.2.0', reseller_catalog: '^1.0.0', reseller_finance: '^1.1.0' },
  main: 'dist/index.js',
  consumes: ['orders.get', 'orders.update_status', 'orders.record_shipment', 'orders.mark_delivered', 'reseller_catalog.quote', 'reseller_catalog.reserve_stock', 'reseller_catalog.release_stock', 'reseller_catalog.consume_stock', 'reseller_finance.record_delivery', 'reseller_finance.reverse_delivery', 'reseller_finance.refund_share', 'orders.get_business_profile', 'documents.render_pdf'],
  permissions: [
    { name: 'reseller_orders.view', description: "See the tenant's chain orders, their timelines and stats." },
    { name: 'reseller_orders.manage', description: 'Create, forward, accept and cancel chain orders.' },
    { name: 'reseller_orders.fulfil', description: 'Ship and deliver the chain orders the tenant fulfils.' },
    { name: 'reseller_orders.repair', description: "See the states that could not be handed to the levels below (stuck propagations, with why) and retry them." },
  ],
  mobile: {
    screens: [
      { id: 'reseller_orders.list', title: 'Chain orders', icon: 'git-branch', layout: 'scroll', route: '/chain-orders', version: 1 },
      { id: 'reseller_orders.detail', title: 'Chain order', icon: 'truck', layout: 'scroll', route: '/chain-orders/:id', version: 1 },
    ],
    screenProviders: {
      'reseller_orders.list': { file: 'screens/reseller_orders.list.json' },
      'reseller_orders.detail': { file: 'screens/reseller_orders.detail.json' },
    },
  },
  data,
  events: {
    namespace: 'chain_order',
    publishes: ['chain_order.created', 'chain_order.status_changed', 'chain_order.delivered'],
    subscribes: {
      // Spec 3: a chain order is made on order.created when every item is a catalog product available to
      // this tenant (Reseller product pricing: is_available) and the order is in the settlement
      // currency; other orders are not ours.
      async 'order.created'(payload: { order_id?: string; id?: string; data?: { order_id?: string; id?: string } }, ctx) {
        const orderId = payload?.order_id ?? payload?.id ?? payload?.data?.order_id ?? payload?.data?.id;
        if (typeof orderId !== 'string') return;
        try {
          await createFromOrder(ctx, orderId);
        } catch (err) {
          if (!IGNORED_ORDERS.has(String(codeOf(err)))) throw err;
        }
      },
      // README, returns and refunds: a prepaid chain order refunded in full at the origin is reversed through the chain.
      // A partial one: each level gives back its share, pro rata (README: partial refunds).
      async 'order.refund_processed'(payload: { order_id?: string; data?: { order_id?: string } }, ctx) {
        const event = (typeof payload?.order_id === 'string' ? payload : payload?.data) as { order_id?: unknown } | undefined;
        if (typeof event?.order_id === 'string') await onRefundProcessed(ctx, event as { order_id: string });
      },
    },
  },
  jobs: { push: { operation: 'reseller_orders.push', attempts: PUSH_JOB.attempts, backoff: { type: 'exponential', delay_seconds: PUSH_JOB.delay_seconds }, timeout_seconds: 30 } },
  // Spec 3, States and transitions: a state that spent the push job's attempts is re-driven until it arrives.
  schedules: [
    { name: 'redrive_propagations', operation: 'reseller_orders.redrive_propagations', every_ms: REDRIVE_EVERY_MS, description: 'Retries the stuck propagations that are due (each backs off from 15 minutes to 6 hours).' },
    // Spec 3, Master product: reservations of orders finished before delivery closed them no longer hold their products.
    { name: 'close_finished_reservations', operation: 'reseller_orders.close_finished_reservations', every_ms: STOCK_REPAIR_EVERY_MS, description: 'Closes the stock reservations of delivered, returned, refunded and cancelled chain orders left open (orders finished before delivery closed them).' },
  ],
  limits: { timeout_ms: 30000 },
  operations: {
    list: operation({
      description: "The tenant's chain orders, newest first; filter by status, from_date, to_date, and search by order number or customer.",
      permission: 'reseller_orders.view',
      input: ListIn,
      output: ListOut,
      http: route('GET', '/chain-orders'),
      handler: (input, ctx) => list(ctx, input, {}),
    }),
    incoming: operation({
      description: 'Orders from sub-resellers awaiting action (to forward or accept).',
      permission: 'reseller_orders.view',
      ...internal,
      input: ListIn,
      output: ListOut,
      http: route('GET', '/chain-orders/incoming'),
      handler: (input, ctx) => list(ctx, input, { child_tenant_id: { $ne: null }, chain_status: 'pending_forward' }),
    }),
    forwarded: operation({
      description: 'Orders this tenant forwarded up the chain.',
      permission: 'reseller_orders.view',
      ...internal,
      input: ListIn,
      output: ListOut,
      http: route('GET', '/chain-orders/forwarded'),
      handler: (input, ctx) => list(ctx, input, { parent_tenant_id: { $ne: null } }),
    }),
    fulfillment: operation({
      description: 'Orders this tenant fulfils (accepted at the top), to ship and deliver.',
      permission: 'reseller_orders.view',
      ...internal,
      input: ListIn,
      output: ListOut,
      http: route('GET', '/chain-orders/fulfillment'),
      handler: (input, ctx) => list(ctx, input, { is_fulfiller: true, ...(input.status ? {} : { chain_status: { $in: ['accepted', 'processing', 'shipped'] } }) }),
    }),
    // Before get: a literal path is matched before /chain-orders/:id in declaration order.
    list_propagations: operation({
      description: 'The states this tenant could not hand to the levels below: open ones (retrying, stuck) unless a state is asked for, with the last error, attempts and the next retry.',
      permission: 'reseller_orders.repair',
      ...internal,
      input: Type.Object(
        {
          state: Type.Optional(Type.StringEnum(PROPAGATION_STATES)),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ propagations: Type.Array(Loose), pagination: Pagination }),
      http: route('GET', '/chain-orders/propagations'),
      handler: (input, ctx) => listPropagations(ctx, input as { state?: PropagationState; per_page?: number; page?: number }),
    }),
    retry_propagation: operation({
      description: 'Retries one propagation now; 502 PROPAGATION_FAILED when the level below still cannot take it. Sending one already applied changes nothing.',
      permission: 'reseller_orders.repair',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ applied: Type.Boolean(), propagation: Loose }),
      http: route('POST', '/chain-orders/propagations/:id/retry', { success_status: 200 }),
      handler: (input, ctx) => retryOne(ctx, input.id),
    }),
    // Before get: a literal path is matched before /chain-orders/:id in declaration order.
    list_invoices: operation({
      description: "The GST invoices and credit notes between levels this tenant issued (to its sub-resellers) and received (from its parent), issued in a period (UTC days): for its GST returns.",
      permission: 'reseller_orders.view',
      ...internal,
      input: Type.Object(PeriodIn, { additionalProperties: false }),
      output: InvoicesOut,
      http: route('GET', '/chain-invoices'),
      handler: (input, ctx) => invoicesOfPeriod(ctx, input),
    }),
    export_invoices: operation({
      description: 'The same list as CSV, one row per document (the streamed CSV route).',
      permission: 'reseller_orders.view',
      ...internal,
      input: Type.Object({ ...PeriodIn, cursor: Type.Optional(Type.Nullable(Type.String({ maxLength: 200 }))) }, { additionalProperties: false }),
      output: Type.Object({ columns: Type.Array(Type.String()), rows: Type.Array(Type.Array(Type.Unknown())), next_cursor: Type.Nullable(Type.String()), filename: Type.String() }),
      http: route('GET', '/chain-invoices/export', { rate_limit: '5/60', stream: { format: 'csv', timeout_s: 120, concurrency: 2 } }),
      async handler(input, ctx) {
        const { invoices } = await invoicesOfPeriod(ctx, input);
        return { columns: [...CSV_COLUMNS], rows: csvRows(invoices), next_cursor: null, filename: `chain-invoices-${input.from_date ?? 'start'}-${input.to_date ?? 'now'}.csv` };
      },
    }),
    invoices_to_child: operation({
      description: `The GST documents this tenant issued to the calling sub-reseller, for one of its chain orders or a period (at most ${MAX_ROWS}); called by that sub-reseller's reseller_orders only.`,
      related: true,
      ...internal,
      input: Type.Object({ chain_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), from_date: Type.Optional(Day), to_date: Type.Optional(Day) }, { additionalProperties: false }),
      output: InvoicesOut,
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.invoices_to_child');
        return invoicesToChild(ctx, ctx.relatedFrom, input);
      },
    }),
    invoice_to_child: operation({
      description: "This tenant's GST invoice to the calling sub-reseller for one chain order (its total and GST, which their remittance carries), issued now if the order is being delivered; called by that sub-reseller's reseller_orders only.",
      related: true,
      ...internal,
      input: Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ invoice: Type.Nullable(InvoiceAmountsOut) }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.invoice_to_child');
        return invoiceToChild(ctx, ctx.relatedFrom, input.chain_ref);
      },
    }),
    sync: operation({
      description: "Applies the parent's progress on a forwarded order (accepted, processing, shipped, delivered, cancelled, returned, refunded) to this tenant's copy; called by the parent's reseller_orders only.",
      related: true,
      ...internal,
      input: Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }), status: Type.StringEnum(['accepted', 'processing', 'shipped', 'delivered', 'cancelled', 'returned', 'refunded']), values: Loose }, { additionalProperties: false }),
      output: Type.Object({ applied: Type.Boolean() }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.sync');
        return sync(ctx, ctx.relatedFrom, input.chain_ref, input.status, input.values);
      },
    }),
    get_stats: operation({
      description: 'Counts of chain orders per status and their total value (the customer totals of orders not cancelled).',
      permission: 'reseller_orders.view',
      input: Type.Object({ from_date: Type.Optional(Day), to_date: Type.Optional(Day) }, { additionalProperties: false }),
      output: Type.Object({ stats: Type.Record(Type.String(), Type.Union([Type.Integer(), Type.String()])) }),
      http: route('GET', '/chain-orders/stats'),
      async handler(input, ctx) {
        const range: Record<string, string> = {};
        if (input.from_date) range.$gte = `${input.from_date}T00:00:00.000Z`;
        if (input.to_date) range.$lte = `${input.to_date}T23:59:59.999Z`;
        const base = Object.keys(range).length ? { created_at: range } : {};
        const stats: Record<string, number | string> = {};
        for (const s of ['pending_forward', 'forwarded', 'accepted', 'processing', 'shipped', 'delivered'] as const) {
          stats[s] = await ctx.host.db.count('ChainOrder', { where: { ...base, chain_status: s } as never });
        }
        let value = new Decimal(0);
        for (let offset = 0; ; offset += 1000) {
          const rows = await ctx.host.db.find<ChainOrderRow>('ChainOrder', { where: { ...base, chain_status: { $ne: 'cancelled' } } as never, attributes: ['origin_total'], limit: 1000, offset });
          for (const r of rows) value = value.plus(r.origin_total);
          if (rows.length < 1000) break;
        }
        stats.total_value = value.toFixed(2);
        return { stats };
      },
    }),
    get: operation({
      description: "One chain order as this tenant sees it: status, chain path, items, pricing (origin total, your cost, your margin, COD amount), shipping, payment.",
      permission: 'reseller_orders.view',
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: OrderOut,
      http: route('GET', '/chain-orders/:id'),
      async handler(input, ctx) {
        const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { id: input.id } });
        if (!row) throw notFound(input.id);
        return { order: { ...present(row), propagation: await propagationOf(ctx, row.id) } };
      },
    }),
    get_timeline: operation({
      description: "A chain order's timeline at this tenant: each status it took, when, and why.",
      permission: 'reseller_orders.view',
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ timeline: Type.Array(Loose) }),
      http: route('GET', '/chain-orders/:id/timeline'),
      async handler(input, ctx) {
        if (!(await ctx.host.db.findOne('ChainOrder', { where: { id: input.id }, attributes: ['id'] }))) throw notFound(input.id);
        const timeline = await ctx.host.db.find<{ id: string; chain_order_id: string; status: string; note: string | null; tenant_id: string; created_at: string }>('TimelineEntry', { where: { chain_order_id: input.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], attributes: ['status', 'note', 'tenant_id', 'created_at'] });
        return { timeline };
      },
    }),
    invoices: operation({
      description: "A chain order's GST invoices and credit notes between levels that concern this tenant: the one it received from the level above and the one it issued to the level below.",
      permission: 'reseller_orders.view',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: InvoicesOut,
      http: route('GET', '/chain-orders/:id/invoices'),
      handler: (input, ctx) => invoicesOfOrder(ctx, input.id),
    }),
    invoice_pdf: operation({
      description: "One of a chain order's invoices between levels as a PDF laid out by the host (the customer invoice's template): its download URL.",
      permission: 'reseller_orders.view',
      ...internal,
      input: Type.Object({ id: Uuid, invoice_id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ invoice_number: Type.String(), pdf_url: Type.String() }),
      http: route('GET', '/chain-orders/:id/invoices/:invoice_id/pdf'),
      handler: (input, ctx) => invoicePdf(ctx, input.id, input.invoice_id),
    }),
    create: operation({
      description: 'Makes a chain order from an orders-module order whose items all carry master-product SKUs (status pending_forward).',
      permission: 'reseller_orders.manage',
      ...internal,
      input: Type.Object({ order_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders'),
      async handler(input, ctx) {
        const { row, created } = await createFromOrder(ctx, input.order_id);
        return { message: created ? 'Chain order created.' : 'The chain order of this order already exists.', order: present(row) };
      },
    }),
    forward: operation({
      description: 'Forwards a pending chain order to the parent tenant.',
      permission: 'reseller_orders.manage',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/forward', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order forwarded.', order: present(await forward(ctx, input.id)) };
      },
    }),
    accept: operation({
      description: 'Accepts an incoming chain order at the top of the chain, reserving its stock.',
      permission: 'reseller_orders.manage',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/accept', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order accepted.', order: present(await accept(ctx, input.id)) };
      },
    }),
    process: operation({
      description: "Starts fulfilling an accepted chain order at the fulfiller (processing at every level; the origin's order moves to processing).",
      permission: 'reseller_orders.fulfil',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/process', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order being fulfilled.', order: present(await startProcessing(ctx, input.id)) };
      },
    }),
    ship: operation({
      description: 'Ships an accepted chain order with its carrier and tracking number; every level then sees it shipped.',
      permission: 'reseller_orders.fulfil',
      ...internal,
      input: Type.Object({ id: Uuid, tracking_number: Type.String({ minLength: 1, maxLength: 100 }), carrier: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/ship', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order shipped.', order: present(await ship(ctx, input.id, input.carrier, input.tracking_number)) };
      },
    }),
    deliver: operation({
      description: 'Marks a shipped chain order delivered; triggers COD settlement at every level.',
      permission: 'reseller_orders.fulfil',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/deliver', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order delivered.', order: present(await deliver(ctx, input.id)) };
      },
    }),
    cancel: operation({
      description: 'Cancels a chain order where it is now (pending_forward), or at the fulfiller before shipping (stock released).',
      permission: 'reseller_orders.manage',
      ...internal,
      input: Type.Object({ id: Uuid, reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/cancel', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order cancelled.', order: present(await cancel(ctx, input.id, input.reason)) };
      },
    }),
    return: operation({
      description: 'Takes back a delivered chain order at the fulfiller: every level gives back its margin and the remittances are cancelled or owed back.',
      permission: 'reseller_orders.fulfil',
      ...internal,
      input: Type.Object({ id: Uuid, reason: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), order: Loose }),
      http: route('POST', '/chain-orders/:id/return', { success_status: 200 }),
      async handler(input, ctx) {
        return { message: 'Chain order returned.', order: present(await returnOrder(ctx, input.id, input.reason)) };
      },
    }),
    report_refund: operation({
      description: "Hands a prepaid chain order's full refund at the origin up the chain to the top; called by the reseller_orders of the sub-reseller the order came from only.",
      related: true,
      ...internal,
      input: Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ reported: Type.Boolean() }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.report_refund');
        return reportRefund(ctx, ctx.relatedFrom, input.chain_ref);
      },
    }),
    report_partial_refund: operation({
      description: "Hands a prepaid chain order's partial refund at the origin up the chain, each level applying its share on the way back; called by the reseller_orders of the sub-reseller the order came from only.",
      related: true,
      ...internal,
      input: Type.Object(
        {
          chain_ref: Type.String({ minLength: 1, maxLength: 100 }),
          refund_id: Type.String({ minLength: 1, maxLength: 100 }),
          amount: Type.String({ pattern: '^\\d{1,12}\\.\\d{2}$' }),
          total_refunded: Type.String({ pattern: '^\\d{1,12}\\.\\d{2}$' }),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ reported: Type.Boolean(), credit_note: Type.Optional(Type.Nullable(InvoiceAmountsOut)) }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.report_partial_refund');
        return reportPartialRefund(ctx, ctx.relatedFrom, input);
      },
    }),
    receive: operation({
      description: "Takes an order forwarded by a direct sub-reseller into this tenant's chain orders; called by the child's reseller_orders only.",
      related: true,
      ...internal,
      input: Type.Object(
        {
          chain_ref: Type.String({ minLength: 1, maxLength: 100 }),
          origin_tenant_id: Type.String({ minLength: 1, maxLength: 63 }),
          origin_order_number: Type.String({ minLength: 1, maxLength: 100 }),
          chain_path: Type.Array(Loose, { maxItems: 11 }),
          customer: Loose,
          customer_name: Type.Nullable(Type.String()),
          shipping_address: Type.Unknown(),
          items: Type.Array(
            Type.Object(
              {
                sku: Type.String(),
                quantity: Type.Integer({ minimum: 1 }),
                hsn_code: Type.Optional(Type.Nullable(Type.String({ maxLength: 20 }))),
                tax_rate: Type.Optional(Type.Nullable(Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,2})?$' }))),
                unit_cost: Type.Optional(Type.String({ pattern: '^\\d+\\.\\d{2}$' })),
                cost: Type.Optional(Type.String({ pattern: '^\\d+\\.\\d{2}$' })),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 200 },
          ),
          origin_total: Type.String(),
          child_cost: Type.String({ pattern: '^\\d+\\.\\d{2}$' }),
          cod_amount: Type.String(),
          payment_method: Type.String(),
          payment_status: Type.String(),
          buyer: Type.Optional(Type.Nullable(GstPartyIn)),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ id: Type.String() }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.receive');
        return receive(ctx, ctx.relatedFrom, input as Forwarded);
      },
    }),
    payment_of: operation({
      description: "In the origin: what its orders module records as paid for a prepaid chain order (spec 3, Order payment); called by the reseller_orders of a tenant above only.",
      related: true,
      ...internal,
      input: Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
      output: Type.Object({ payment_status: Type.String(), amount_paid: Type.String(), total: Type.String() }),
      async handler(input, ctx) {
        if (!ctx.relatedFrom) throw onlyRelated('reseller_orders.payment_of');
        return paymentOf(ctx, ctx.relatedFrom, input.chain_ref);
      },
    }),
    push: operation({
      description: 'Job: hands a state to a level below that could not be reached when it changed.',
      ...internal,
      input: Type.Object({ job: Type.String(), data: Loose, attempt: Type.Integer(), id: Type.String() }, { additionalProperties: true }),
      output: Type.Object({ applied: Type.Boolean() }),
      handler: (input, ctx) => pushAttempt(ctx, { ...input, data: input.data as Push }),
    }),
    close_finished_reservations: operation({
      description: 'Schedule (hourly): closes the stock reservations finished chain orders left open.',
      ...internal,
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ closed: Type.Integer() }),
      handler: (_input, ctx) => closeFinishedReservations(ctx),
    }),
    redrive_propagations: operation({
      description: 'Schedule (every 15 minutes): retries the stuck propagations that are due.',
      ...internal,
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ retried: Type.Integer(), done: Type.Integer(), stuck: Type.Integer() }),
      handler: (_input, ctx) => redriveStuck(ctx),
    }),
  },
});
