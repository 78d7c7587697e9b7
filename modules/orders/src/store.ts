/**
 * Shared order plumbing: row types, loading an order by id or number, the order view (with the
 * computed can_ship), transactions retried on compare-and-set conflicts, and status moves.
 *
 * Concurrency: host.db has no row locks, so every change of an order row is a compare-and-set on
 * its `version` column (UPDATE … WHERE id = ? AND version = ?). Whoever loses re-runs its whole
 * transaction on fresh rows, so reconciled totals never lose a concurrent payment.
 */
import type { Db, DbTransaction, HandlerContext, ModuleError, RowOf } from '../../../sdk';
import { codeOf, notFound, ordersErrors, Retry, invalidStatus } from './errors';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type OrderRow = RowOf<Models['Order'], { customer: Record<string, unknown>; tax_details: Record<string, unknown>; billing_address: Record<string, unknown>; shipping_address: Record<string, unknown>; custom_fields: Record<string, unknown> }>;

export type ItemRow = RowOf<Models['OrderItem']>;

export const ORDER_STATUSES = ['pending', 'confirmed', 'processing', 'ready_to_ship', 'shipped', 'out_for_delivery', 'delivered', 'rto_initiated', 'rto_received', 'cancelled'] as const;
export const SHIPPABLE = new Set(['confirmed', 'processing', 'ready_to_ship']);

/**
 * Allowed transitions (spec 3, States and transitions). `shipped` is entered only by ship
 * (a shipment exists); the tracking states by carrier updates or by a user correcting them.
 * The spec leaves the source of rto_initiated unshown: any shipping state (shipped,
 * out_for_delivery) may return to origin.
 * Order processing moves confirmed → processing → ready_to_ship, one step at a time as the table
 * lists them. shipped → delivered is kept because carriers often report delivery without an
 * out-for-delivery scan.
 */
export const TRANSITIONS: Record<string, string[]> = {
  pending: ['confirmed', 'cancelled'],
  confirmed: ['processing', 'cancelled'],
  processing: ['ready_to_ship', 'cancelled'],
  ready_to_ship: ['cancelled'],
  shipped: ['out_for_delivery', 'delivered', 'rto_initiated'],
  out_for_delivery: ['delivered', 'rto_initiated'],
  delivered: [],
  rto_initiated: ['rto_received'],
  rto_received: [],
  cancelled: [],
};

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AnyDb = Db | DbTransaction;

export async function findOrder(db: AnyDb, id: string): Promise<OrderRow | null> {
  if (UUID_RE.test(id)) {
    const byId = await db.findOne<OrderRow>('Order', { where: { id: id.toLowerCase() } });
    if (byId) return byId;
  }
  return db.findOne<OrderRow>('Order', { where: { order_number: id } });
}

export async function loadOrder(db: AnyDb, id: string): Promise<OrderRow> {
  const order = await findOrder(db, id);
  if (!order) throw notFound('Order', id);
  return order;
}

export const itemsOf = (db: AnyDb, orderId: string) =>
  db.find<ItemRow>('OrderItem', { where: { order_id: orderId }, order: [['position', 'ASC']], limit: 1000 });

export function orderView(order: OrderRow, items?: ItemRow[]) {
  return { ...order, can_ship: SHIPPABLE.has(order.status), ...(items ? { items } : {}) };
}

export const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/** Events to publish once the transaction that caused them has committed. */
export type Outbox = Array<[string, unknown]>;

export async function publish(ctx: HandlerContext, outbox: Outbox) {
  for (const [event, payload] of outbox) await ctx.host.emit(event, payload);
}

/** Runs `work` in a transaction, again on a lost compare-and-set or a serialization conflict. */
export async function inTransaction<T>(db: Db, work: (tx: DbTransaction) => Promise<T>, attempts = 25): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      const code = codeOf(err);
      const retry = err instanceof Retry || code === 'DB_CONFLICT' || code === 'DB_RETRY' || (err as Error)?.message === 'concurrent update; retry';
      if (!retry) throw err;
      if (attempt >= attempts) throw ordersErrors.busy();
    }
  }
}

/** Compare-and-set on the order's version; throws Retry when someone else changed it first. */
export async function saveOrder(tx: DbTransaction, order: OrderRow, changes: Partial<OrderRow>, at: string): Promise<OrderRow> {
  const next = { ...changes, version: order.version + 1, updated_at: at };
  const n = await tx.update('Order', next, { where: { id: order.id, version: order.version } });
  if (n !== 1) throw new Retry();
  return { ...order, ...next } as OrderRow;
}

/** Why `from` may not move to `to` (TRANSITIONS), or null when it may. */
export function transitionRefusal(from: string, to: string): ModuleError | null {
  if ((TRANSITIONS[from] ?? []).includes(to)) return null;
  return invalidStatus(`An order in status "${from}" cannot move to "${to}".`, from, { allowed: TRANSITIONS[from] ?? [] });
}

/** The columns a move to `to` sets besides status (its timestamps and the cancel reason). */
export function statusColumns(to: string, at: string, reason: string | null | undefined): Partial<OrderRow> {
  const changes: Partial<OrderRow> = { status: to };
  if (to === 'delivered') changes.delivered_at = at;
  if (to === 'cancelled') {
    changes.cancelled_at = at;
    changes.cancel_reason = reason ?? null;
  }
  return changes;
}

/** order.status_changed plus the events a state carries (fulfilled, delivered), for after the commit. */
export function statusEvents(order: OrderRow, from: string, to: string, at: string): Outbox {
  const events: Outbox = [['order.status_changed', { order_id: order.id, order_number: order.order_number, old_status: from, new_status: to }]];
  const brief = { order_id: order.id, order_number: order.order_number, status: to, total: order.total, currency: order.currency, customer: order.customer };
  if (to === 'shipped' || to === 'out_for_delivery') events.push(['order.fulfilled', brief]);
  if (to === 'delivered') events.push(['order.delivered', { ...brief, delivered_at: at }]);
  return events;
}

/**
 * Moves the order to `to` (checked against TRANSITIONS unless `force`), records the history and
 * queues order.status_changed plus the events a state carries (fulfilled, delivered).
 */
export async function moveStatus(
  tx: DbTransaction,
  order: OrderRow,
  to: string,
  opts: { at: string; reason?: string | null; actor: string; outbox: Outbox; extra?: Partial<OrderRow>; force?: boolean },
): Promise<OrderRow> {
  const from = order.status;
  if (from === to) return opts.extra ? saveOrder(tx, order, opts.extra, opts.at) : order;
  const refusal = opts.force ? null : transitionRefusal(from, to);
  if (refusal) throw refusal;
  const saved = await saveOrder(tx, order, { ...opts.extra, ...statusColumns(to, opts.at, opts.reason) }, opts.at);
  await tx.create('StatusChange', { order_id: order.id, from_status: from, to_status: to, reason: opts.reason ?? null, actor: opts.actor, created_at: opts.at });
  opts.outbox.push(...statusEvents(order, from, to, opts.at));
  return saved;
}

export const actorOf = (ctx: HandlerContext) => (ctx.user ? `user:${ctx.user.id}` : ctx.caller);

export async function getSetting<T>(db: AnyDb, key: string, fallback: T): Promise<T> {
  const row = await db.findOne<{ key: string; value: unknown }>('Setting', { where: { key } });
  return row && row.value !== null && row.value !== undefined ? (row.value as T) : fallback;
}
