/**
 * Shipping (spec 3, Shipment / tracking event / NDR case, Shipping endpoints).
 *
 * - ship: one shipment per package; order_item_ids make it partial (omitted: every item not yet in
 *   a shipment). The first shipment moves the order to shipped (order.status_changed,
 *   order.fulfilled); every shipment publishes order.shipment_created. An order that is already
 *   shipped takes further packages while it has unshipped items. fulfillment_status tracks
 *   unfulfilled → partial → fulfilled.
 * - Tracking updates (carrier webhook or the 30-minute sync) are idempotent per shipment and
 *   (status, occurred_at, location). Order moves: out_for_delivery when a shipment is out for
 *   delivery; delivered when every shipment is delivered and every item shipped; rto_initiated /
 *   rto_received when a shipment returns.
 * - NDR: each failed attempt opens a case (attempt_number = ndr_count + 1) and increments
 *   ndr_count. Setting ndr_max_attempts (default 3) is the number of failed attempts tolerated:
 *   the attempt that exceeds it is resolved return_to_origin and starts RTO. Below it, with
 *   ndr_auto_reattempt (default true) the case is resolved reattempt at once; otherwise it is
 *   escalated (open, escalated=true) until POST /orders/ndr-cases/{case}/resolve decides.
 */
import type { DbTransaction, HandlerContext, RowOf, Static } from '../../../sdk';
import type { ShippingRates } from './outputs';
import { codeOf, invalid, invalidStatus, notFound, ordersErrors, Retry } from './errors';
import { D, str } from './money';
import { errorOf } from './bulk-plan';
import { callProvider, checkName, recordName } from './providers';
import { actorOf, getSetting, inTransaction, itemsOf, loadOrder, moveStatus, nowIso, publish, saveOrder, SHIPPABLE, TRANSITIONS, type AnyDb, type OrderRow, type Outbox } from './store';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type ShipmentRow = RowOf<Models['Shipment'], { order_item_ids: string[]; dimensions: Record<string, unknown> }>;
type EventRow = { id: string; shipment_id: string; status: string; location: string | null; description: string | null; raw_data: unknown; occurred_at: string; fingerprint: string };
type NdrRow = { id: string; shipment_id: string; order_id: string; attempt_number: number; reason: string | null; action: string | null; escalated: boolean; resolved_at: string | null; created_at: string };

const OPEN_SHIPMENT = ['pending', 'picked_up', 'in_transit', 'out_for_delivery', 'rto_initiated'];
const FINAL_SHIPMENT = new Set(['delivered', 'rto_received', 'cancelled']);

export type ShipInput = {
  id: string; carrier_module: string; carrier_name?: string; recorded_by?: string; awb_number?: string; tracking_url?: string; label_url?: string; estimated_delivery_at?: string;
  dimensions?: Record<string, unknown>; order_item_ids?: string[]; book?: boolean; pickup_address?: Record<string, unknown>;
};

type Booking = { awb_number: string; tracking_url?: string; label_url?: string; pickup_token?: string; estimated_delivery_at?: string; courier?: string };

/** States where the order is already on its way: a partly shipped order takes its next package there without moving. */
const UNDER_WAY = new Set(['shipped', 'out_for_delivery']);
const canTakePackage = (o: OrderRow) => SHIPPABLE.has(o.status) || (UNDER_WAY.has(o.status) && o.fulfillment_status === 'partial');

export async function ship(input: ShipInput, ctx: HandlerContext) {
  checkName(input.carrier_module, 'shipping', 'carrier_module');
  if (input.estimated_delivery_at !== undefined && Number.isNaN(Date.parse(input.estimated_delivery_at))) throw invalid('estimated_delivery_at', 'The estimated_delivery_at must be an ISO 8601 date-time.');
  if (!input.book && !input.awb_number) throw invalid('awb_number', 'The awb_number is required unless book is true.');
  const before = await loadOrder(ctx.host.db, input.id);
  if (!canTakePackage(before)) throw invalidStatus(`Order ${before.order_number} is ${before.status} and cannot ship (can_ship is true only for confirmed, processing, ready_to_ship).`, before.status);
  const items = await itemsOf(ctx.host.db, before.id);
  // The carrier must exist (and be one orders may call) before anything is written.
  const carrier = await callProvider<{ carrier_module: string }>(ctx, 'carrier', input.carrier_module, 'describe', {});
  void carrier;
  let booking: Booking | null = null;
  if (input.book) {
    // The carrier is told about the package the shipment will record: the listed items, else those not yet shipped.
    const shipped = await shippedItemIds(ctx.host.db, before.id);
    const wanted = input.order_item_ids ? items.filter((i) => input.order_item_ids!.includes(i.id)) : items.filter((i) => !shipped.has(i.id));
    const itemsWeight = weightOf(wanted);
    booking = await callProvider<Booking>(ctx, 'carrier', input.carrier_module, 'createShipment', {
      order_number: before.order_number, pickup_address: input.pickup_address ?? {}, delivery_address: before.shipping_address ?? {},
      items: wanted.map((i) => ({ name: i.name, sku: i.sku, quantity: i.quantity, unit_price: i.unit_price, hsn_code: i.hsn_code })),
      weight: input.dimensions?.weight ?? (new D(itemsWeight).isZero() ? null : itemsWeight), dimensions: input.dimensions ?? null, cod_amount: before.is_cod ? before.total : '0.00',
      customer: before.customer, payment_method: before.is_cod ? 'cod' : 'prepaid',
    });
  }
  const awb = booking?.awb_number ?? input.awb_number!;
  const carrierName = recordName(input.carrier_module);
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, input.id);
    if (!canTakePackage(order)) throw invalidStatus(`Order ${order.order_number} is ${order.status} and cannot ship.`, order.status);
    const out = await createShipment(tx, order, items.map((i) => i.id), { ...input, ...booking, awb_number: awb, carrier_module: carrierName }, at, actorOf(ctx), outbox);
    return out;
  });
  await publish(ctx, outbox);
  return { ...result.shipment, order: { id: result.order.id, order_number: result.order.order_number, status: result.order.status, fulfillment_status: result.order.fulfillment_status } };
}

/** Items of the order already in a package (a shipment not cancelled). */
async function shippedItemIds(db: AnyDb, orderId: string): Promise<Set<string>> {
  const open = await db.find<ShipmentRow>('Shipment', { where: { order_id: orderId, status: { $ne: 'cancelled' } }, limit: 1000 });
  return new Set(open.flatMap((s) => s.order_item_ids));
}

export async function createShipment(
  tx: DbTransaction, order: OrderRow, allItemIds: string[], input: ShipInput & Partial<Booking> & { awb_number: string }, at: string, actor: string, outbox: Outbox,
) {
  if (await tx.findOne('Shipment', { where: { carrier_module: input.carrier_module, awb_number: input.awb_number } })) {
    throw ordersErrors.duplicateAwb(input.awb_number, input.carrier_module);
  }
  const shipped = await shippedItemIds(tx, order.id);
  let ids: string[];
  if (input.order_item_ids) {
    const unknown = input.order_item_ids.filter((i) => !allItemIds.includes(i));
    if (unknown.length) throw invalid('order_item_ids', `Items ${unknown.join(', ')} are not items of order ${order.order_number}.`);
    const again = input.order_item_ids.filter((i) => shipped.has(i));
    if (again.length) throw ordersErrors.itemsAlreadyShipped(again);
    ids = [...new Set(input.order_item_ids)];
  } else {
    ids = allItemIds.filter((i) => !shipped.has(i));
  }
  if (ids.length === 0) throw ordersErrors.nothingToShip(order.order_number);
  const shipment = await tx.create<ShipmentRow>('Shipment', {
    order_id: order.id, carrier_module: input.carrier_module, awb_number: input.awb_number, status: 'pending', tracking_url: input.tracking_url ?? null,
    label_url: input.label_url ?? null, pickup_token: input.pickup_token ?? null,
    estimated_delivery_at: input.estimated_delivery_at ? new Date(input.estimated_delivery_at).toISOString() : null, order_item_ids: ids,
    dimensions: input.dimensions ?? null, cod_amount: order.is_cod ? order.total : '0.00', ndr_count: 0, shipped_at: at, created_at: at,
    carrier_name: input.carrier_name ?? null, recorded_by: input.recorded_by ?? null,
  });
  const fulfilled = shipped.size + ids.length >= allItemIds.length;
  const fulfillment = fulfilled ? 'fulfilled' : 'partial';
  const saved = UNDER_WAY.has(order.status)
    ? await saveOrder(tx, order, { fulfillment_status: fulfillment }, at)
    : await moveStatus(tx, order, 'shipped', { at, actor, outbox, extra: { fulfillment_status: fulfillment }, reason: `shipment ${input.awb_number}` , force: true });
  outbox.push(['order.shipment_created', {
    order_id: order.id, order_number: order.order_number, shipment_id: shipment.id, carrier_module: shipment.carrier_module, awb_number: shipment.awb_number,
    tracking_url: shipment.tracking_url, order_item_ids: ids, fulfillment_status: fulfillment,
  }]);
  return { shipment, order: saved };
}

/**
 * POST /orders/bulk/ship: each entry ships on its own (its own transaction, the same rules and events
 * as POST /orders/{order}/ship). The answer has the shape of the other bulk actions (README): results
 * in request order, `{order_id, ok: true, shipment_id, awb_number, status}` or
 * `{order_id, ok: false, error: {code, message, details?}}`, plus succeeded and failed counts.
 */
export async function bulkShip(input: { shipments: Array<{ order_id: string; carrier_module: string; awb_number: string; tracking_url?: string }> }, ctx: HandlerContext) {
  const results = [];
  for (const s of input.shipments) {
    try {
      const out = await ship({ id: s.order_id, carrier_module: s.carrier_module, awb_number: s.awb_number, tracking_url: s.tracking_url }, ctx);
      results.push({ order_id: s.order_id, ok: true as const, shipment_id: out.id, awb_number: out.awb_number, status: out.order.status });
    } catch (err) {
      results.push({ order_id: s.order_id, ok: false as const, error: errorOf(err) });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

export async function listShipments(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  const shipments = await ctx.host.db.find<ShipmentRow>('Shipment', { where: { order_id: order.id }, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: 1000 });
  const out = [];
  for (const s of shipments) {
    const events = await ctx.host.db.find<EventRow>('ShipmentEvent', { where: { shipment_id: s.id }, order: [['occurred_at', 'ASC']], limit: 1000, attributes: ['id', 'shipment_id', 'status', 'location', 'description', 'raw_data', 'occurred_at'] });
    const ndr = await ctx.host.db.find<NdrRow>('NdrCase', { where: { shipment_id: s.id }, order: [['attempt_number', 'ASC']], limit: 100 });
    out.push({ ...s, events, ndr_cases: ndr });
  }
  return { order_id: order.id, order_number: order.order_number, status: order.status, fulfillment_status: order.fulfillment_status, shipments: out };
}

/** Total weight of the lines (each line's weight times its quantity), as a decimal string. */
const weightOf = (items: Array<{ weight?: string | null; quantity: number }>) => str(items.reduce((a, i) => a.plus(new D(i.weight ?? '0').times(i.quantity)), new D(0)));

/** Rates from the carrier named, or (none named) from the tenant's carrier: shipping.getRates as spec 3 names it. */
export async function shippingRates(input: { id: string; carrier_module?: string; pickup_pincode: string; weight?: unknown; dimensions?: Record<string, unknown> }, ctx: HandlerContext) {
  if (input.carrier_module !== undefined) checkName(input.carrier_module, 'shipping', 'carrier_module');
  const order = await loadOrder(ctx.host.db, input.id);
  const delivery = (order.shipping_address as { pincode?: string } | null)?.pincode;
  if (!delivery) throw invalid('shipping_address', `Order ${order.order_number} has no shipping_address.pincode.`);
  const items = await itemsOf(ctx.host.db, order.id);
  const weight = input.weight ?? weightOf(items);
  return callProvider<Static<typeof ShippingRates>>(ctx, 'carrier', input.carrier_module ?? null, 'getRates', {
    pickup_pincode: input.pickup_pincode, delivery_pincode: delivery, weight: String(weight), dimensions: input.dimensions ?? null,
    cod: order.is_cod, cod_amount: order.is_cod ? order.total : '0.00',
  });
}

export type TrackingUpdate = {
  carrier_module?: string; awb_number: string; status: string; location?: string; description?: string; occurred_at?: string; reason?: string; raw_data?: Record<string, unknown>;
};

export async function applyTrackingUpdate(input: TrackingUpdate, ctx: HandlerContext) {
  const at = nowIso(ctx);
  const occurred = input.occurred_at && !Number.isNaN(Date.parse(input.occurred_at)) ? new Date(input.occurred_at).toISOString() : at;
  const maxAttempts = Number(await getSetting(ctx.host.db, 'ndr_max_attempts', 3));
  const autoReattempt = Boolean(await getSetting(ctx.host.db, 'ndr_auto_reattempt', true));
  const outbox: Outbox = [];
  const result = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const where: Record<string, unknown> = { awb_number: input.awb_number };
    if (input.carrier_module) where.carrier_module = recordName(input.carrier_module);
    const shipment = await tx.findOne<ShipmentRow>('Shipment', { where });
    if (!shipment) throw notFound('Shipment with AWB', input.awb_number);
    const fingerprint = `${input.status}|${occurred}|${input.location ?? ''}`.slice(0, 300);
    if (await tx.findOne('ShipmentEvent', { where: { shipment_id: shipment.id, fingerprint } })) return { shipment, duplicate: true, ndr: null as NdrRow | null };
    await tx.create('ShipmentEvent', {
      shipment_id: shipment.id, status: input.status, location: input.location ?? null, description: input.description ?? input.reason ?? null,
      raw_data: input.raw_data ?? null, occurred_at: occurred, fingerprint,
    });
    const changes: Partial<ShipmentRow> = { last_synced_at: at };
    let ndr: NdrRow | null = null;
    let next = input.status;
    if (input.status === 'ndr') {
      const attempt = shipment.ndr_count + 1;
      const rto = attempt > maxAttempts;
      ndr = await tx.create<NdrRow>('NdrCase', {
        shipment_id: shipment.id, order_id: shipment.order_id, attempt_number: attempt, reason: input.reason ?? input.description ?? null,
        action: rto ? 'return_to_origin' : autoReattempt ? 'reattempt' : null, escalated: !rto && !autoReattempt, resolved_at: rto || autoReattempt ? at : null, created_at: at,
      });
      changes.ndr_count = attempt;
      next = rto ? 'rto_initiated' : shipment.status === 'out_for_delivery' ? 'in_transit' : shipment.status;
    }
    if (!FINAL_SHIPMENT.has(shipment.status)) {
      changes.status = next;
      if (next === 'delivered') changes.delivered_at = occurred;
    }
    await tx.update<ShipmentRow>('Shipment', changes, { where: { id: shipment.id } });
    const updated = { ...shipment, ...changes } as ShipmentRow;
    await moveOrderFromShipments(tx, updated, at, outbox);
    return { shipment: updated, duplicate: false, ndr };
  });
  await publish(ctx, outbox);
  return { shipment_id: result.shipment.id, status: result.shipment.status, ndr_count: result.shipment.ndr_count, duplicate: result.duplicate, ndr_case: result.ndr };
}

async function moveOrderFromShipments(tx: DbTransaction, shipment: ShipmentRow, at: string, outbox: Outbox) {
  const order = await loadOrder(tx, shipment.order_id);
  let target: string | null = null;
  if (shipment.status === 'out_for_delivery') target = 'out_for_delivery';
  if (shipment.status === 'rto_initiated') target = 'rto_initiated';
  if (shipment.status === 'rto_received') target = 'rto_received';
  if (shipment.status === 'delivered') {
    const all = await tx.find<ShipmentRow>('Shipment', { where: { order_id: order.id, status: { $ne: 'cancelled' } }, limit: 1000 });
    if (order.fulfillment_status === 'fulfilled' && all.every((s) => s.status === 'delivered')) target = 'delivered';
  }
  if (!target || target === order.status) return;
  if (!(TRANSITIONS[order.status] ?? []).includes(target)) return; // e.g. an out-of-order carrier report
  await moveStatus(tx, order, target, { at, actor: `carrier:${shipment.carrier_module}`, outbox, reason: `shipment ${shipment.awb_number} ${shipment.status}` });
}

type TrackOut = { events: Array<{ status: string; location?: string; description?: string; occurred_at?: string; reason?: string; raw?: Record<string, unknown> }> };

/** The 30-minute tracking sync: asks each carrier for the shipments still moving. */
export async function syncTracking(input: { limit?: number }, ctx: HandlerContext) {
  // A shipment recorded by another module (recorded-shipments.ts) has no carrier module to ask.
  const shipments = await ctx.host.db.find<ShipmentRow>('Shipment', { where: { status: { $in: OPEN_SHIPMENT }, recorded_by: { $is: null } }, order: [['last_synced_at', 'ASC'], ['created_at', 'ASC']], limit: input.limit ?? 200 });
  let applied = 0;
  const errors: Record<string, string> = {};
  for (const s of shipments) {
    try {
      const track = await callProvider<TrackOut>(ctx, 'carrier', s.carrier_module, 'track', { awb_number: s.awb_number });
      for (const e of track.events ?? []) {
        const r = await applyTrackingUpdate({ carrier_module: s.carrier_module, awb_number: s.awb_number, status: e.status, location: e.location, description: e.description, occurred_at: e.occurred_at, reason: e.reason, raw_data: e.raw }, ctx);
        if (!r.duplicate) applied++;
      }
      await ctx.host.db.update<ShipmentRow>('Shipment', { last_synced_at: nowIso(ctx) }, { where: { id: s.id } });
    } catch (err) {
      errors[s.awb_number] = `${codeOf(err) ?? 'ERROR'}: ${(err as Error).message}`;
    }
  }
  return { checked: shipments.length, applied, errors };
}

export async function listNdrCases(input: { open?: boolean; shipment_id?: string; limit?: number }, ctx: HandlerContext) {
  const where: Record<string, unknown> = {};
  if (input.open) where.resolved_at = { $is: null };
  if (input.shipment_id) where.shipment_id = input.shipment_id;
  return { cases: await ctx.host.db.find<NdrRow>('NdrCase', { where, order: [['created_at', 'DESC']], limit: input.limit ?? 50 }) };
}

export async function resolveNdrCase(input: { case_id: string; action: 'reattempt' | 'return_to_origin' }, ctx: HandlerContext) {
  const at = nowIso(ctx);
  const outbox: Outbox = [];
  const out = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const c = await tx.findOne<NdrRow>('NdrCase', { where: { id: input.case_id } });
    if (!c) throw notFound('NDR case', input.case_id);
    if (c.resolved_at) throw invalidStatus(`NDR case ${c.id} is already resolved (${c.action}).`, c.action ?? 'resolved');
    if ((await tx.update<NdrRow>('NdrCase', { action: input.action, resolved_at: at }, { where: { id: c.id, resolved_at: { $is: null } } })) !== 1) throw new Retry();
    if (input.action === 'return_to_origin') {
      const shipment = await tx.findOne<ShipmentRow>('Shipment', { where: { id: c.shipment_id } });
      if (shipment && !FINAL_SHIPMENT.has(shipment.status)) {
        await tx.update<ShipmentRow>('Shipment', { status: 'rto_initiated' }, { where: { id: shipment.id } });
        await moveOrderFromShipments(tx, { ...shipment, status: 'rto_initiated' }, at, outbox);
      }
    }
    return { ...c, action: input.action, resolved_at: at };
  });
  await publish(ctx, outbox);
  return out;
}
