/**
 * Shipments booked outside a carrier module (spec 3, Shipment; the reseller network's chain order
 * shipped by the level that holds the stock): another module that knows the carrier and tracking
 * number records them here, and reports the delivery, so the order follows its real journey.
 *
 * - record_shipment: one shipment per order and recording module (`recorded_by`, also its
 *   `carrier_module`, so its tracking numbers are unique per recorder as an AWB is per carrier),
 *   of every item; the order moves to shipped from the states that may ship (TRANSITIONS: confirmed,
 *   processing, ready_to_ship), with order.shipment_created and order.fulfilled as ship publishes.
 *   Repeated (the same order and recorder): nothing changes, `applied: false`.
 * - mark_delivered: that shipment and the order delivered (shipped or out_for_delivery → delivered,
 *   TRANSITIONS); an order already delivered answers `applied: false`.
 * Only modules call them (never a user, who ships through a carrier module); both run in one
 * transaction on the order's compare-and-set, so of concurrent calls one applies.
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { invalidStatus, ordersErrors } from './errors';
import { createShipment, type ShipmentRow } from './shipping';
import { inTransaction, itemsOf, loadOrder, moveStatus, nowIso, publish, saveOrder, SHIPPABLE, transitionRefusal, type Outbox } from './store';

/** The callers that are not modules (sdk HandlerContext.caller). */
const NOT_MODULES = new Set(['http', 'graphql', 'workflow', 'ai', 'core']);

function recorderOf(ctx: HandlerContext, operation: string): string {
  if (NOT_MODULES.has(ctx.caller)) throw ordersErrors.modulesOnly(operation);
  return ctx.caller;
}

/** The shipment a recorder made for an order (one per order and recorder). */
const recordedOf = (tx: DbTransaction, orderId: string, recorder: string) =>
  tx.findOne<ShipmentRow>('Shipment', { where: { order_id: orderId, recorded_by: recorder, status: { $ne: 'cancelled' } } });

const summary = (s: ShipmentRow, order: { id: string; order_number: string; status: string }, applied: boolean) => ({
  applied,
  shipment: { id: s.id, carrier: s.carrier_name, tracking_number: s.awb_number, status: s.status, shipped_at: s.shipped_at, delivered_at: s.delivered_at },
  order: { id: order.id, order_number: order.order_number, status: order.status },
});

export type RecordShipmentInput = { id: string; carrier: string; tracking_number: string; tracking_url?: string; shipped_at?: string };

export async function recordShipment(input: RecordShipmentInput, ctx: HandlerContext) {
  const recorder = recorderOf(ctx, 'orders.record_shipment');
  const at = input.shipped_at && !Number.isNaN(Date.parse(input.shipped_at)) ? new Date(input.shipped_at).toISOString() : nowIso(ctx);
  const outbox: Outbox = [];
  const out = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const read = await loadOrder(tx, input.id);
    const already = await recordedOf(tx, read.id, recorder);
    if (already) return summary(already, read, false);
    // The order's compare-and-set first: of concurrent recorders one passes here, the others run
    // again once it committed and find its shipment above.
    const order = await saveOrder(tx, read, {}, nowIso(ctx));
    if (!SHIPPABLE.has(order.status)) throw invalidStatus(`Order ${order.order_number} is ${order.status} and cannot ship (confirmed, processing, ready_to_ship).`, order.status);
    const items = await itemsOf(tx, order.id);
    const made = await createShipment(
      tx, order, items.map((i) => i.id),
      { id: order.id, carrier_module: recorder, recorded_by: recorder, carrier_name: input.carrier, awb_number: input.tracking_number, tracking_url: input.tracking_url },
      at, `module:${recorder}`, outbox,
    );
    return summary(made.shipment, made.order, true);
  });
  await publish(ctx, outbox);
  return out;
}

export async function markDelivered(input: { id: string; delivered_at?: string }, ctx: HandlerContext) {
  const recorder = recorderOf(ctx, 'orders.mark_delivered');
  const at = input.delivered_at && !Number.isNaN(Date.parse(input.delivered_at)) ? new Date(input.delivered_at).toISOString() : nowIso(ctx);
  const outbox: Outbox = [];
  const out = await inTransaction(ctx.host.db, async (tx) => {
    outbox.length = 0;
    const order = await loadOrder(tx, input.id);
    const shipment = await recordedOf(tx, order.id, recorder);
    if (!shipment) throw invalidStatus(`Order ${order.order_number} has no shipment recorded by ${recorder}: record it first (orders.record_shipment).`, order.status);
    if (order.status === 'delivered') return summary(shipment, order, false);
    const refusal = transitionRefusal(order.status, 'delivered');
    if (refusal) throw refusal;
    // The order's compare-and-set (moveStatus) comes first: a concurrent report waits on it and runs again.
    const saved = await moveStatus(tx, order, 'delivered', { at, actor: `module:${recorder}`, outbox, reason: `shipment ${shipment.awb_number} delivered` });
    const delivered = { ...shipment, status: 'delivered', delivered_at: at, last_synced_at: at };
    await tx.update<ShipmentRow>('Shipment', { status: 'delivered', delivered_at: at, last_synced_at: at }, { where: { id: shipment.id } });
    return summary(delivered, saved, true);
  });
  await publish(ctx, outbox);
  return out;
}
