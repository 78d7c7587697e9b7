/**
 * The origin's own order follows its chain order (spec 3, States and transitions: order status
 * confirmed → processing → shipped → delivered; reseller network rule 8: a delivered chain order
 * updates the origin's order, its status and its shipment). Through the orders module's own
 * operations, at the origin only (the copy with the origin order's id), before its copy moves, so
 * a failure is retried with the push that brought the state (propagations.ts). Each step is
 * idempotent: an order already there is left alone.
 * - processing: the fulfiller started (pending → confirmed → processing, orders.update_status);
 * - shipped: the shipment the fulfiller gave (its carrier and tracking number) recorded in the
 *   orders module (orders.record_shipment; from pending the order is first confirmed, as it ships
 *   from confirmed or processing only);
 * - delivered: that shipment and the order delivered (orders.mark_delivered), the shipment recorded
 *   first when it is not yet (an order shipped before this rule).
 */
import { typedCall, type HandlerContext } from '../../../sdk';
import type { ChainOrderRow } from './chain';
import { chainErrors, codeOf } from './errors';

type Shipped = { applied: boolean };
type Ops = {
  'orders.get': { input: { id: string }; output: { status: string } };
  'orders.update_status': { input: { id: string; status: string; reason?: string }; output: { status: string } };
  'orders.record_shipment': { input: { id: string; carrier: string; tracking_number: string; shipped_at?: string }; output: Shipped };
  'orders.mark_delivered': { input: { id: string; delivered_at?: string }; output: Shipped };
};

/** The carrier named when the fulfiller gave none (a copy shipped before carriers were kept). */
export const NETWORK_CARRIER = 'reseller network';

/** The steps from each status that comes before processing (spec 3: pending → confirmed → processing). */
const TO_PROCESSING: Record<string, string[]> = { pending: ['confirmed', 'processing'], confirmed: ['processing'] };

/**
 * The orders module refusing the move (e.g. the order cancelled there): its own code would read, to
 * the level that pushed the state, as this copy's (INVALID_STATUS of a copy past it), so it is named apart.
 */
async function followed<T>(step: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const code = codeOf(err);
    if (code !== 'INVALID_STATUS') throw err;
    throw chainErrors.originRefused(step, { code, message: (err as Error).message, current_status: (err as { details?: { current_status?: string } }).details?.current_status ?? null });
  }
}

/** Statuses past shipping: an order there (shipped by other means, or already followed) records no shipment. */
const SHIPPED_OR_PAST = new Set(['shipped', 'out_for_delivery', 'delivered', 'rto_initiated', 'rto_received']);

const call = (ctx: HandlerContext) => typedCall<Ops>(ctx.host);
const statusOf = async (ctx: HandlerContext, row: ChainOrderRow) => (await call(ctx)('orders.get', { id: row.origin_order_id! })).status;

async function walk(ctx: HandlerContext, row: ChainOrderRow, from: string, steps: Record<string, string[]>) {
  for (const status of steps[from] ?? []) await call(ctx)('orders.update_status', { id: row.origin_order_id!, status, reason: 'chain order being fulfilled' });
}

export async function markOriginProcessing(ctx: HandlerContext, row: ChainOrderRow): Promise<void> {
  if (!row.origin_order_id) return;
  await followed('processing', async () => walk(ctx, row, await statusOf(ctx, row), TO_PROCESSING));
}

export async function markOriginShipped(ctx: HandlerContext, row: ChainOrderRow, shipping: { carrier?: string | null; tracking_number?: string | null; shipped_at?: string | null }): Promise<void> {
  if (!row.origin_order_id) return;
  const status = await statusOf(ctx, row);
  if (SHIPPED_OR_PAST.has(status)) return;
  await followed('shipped', async () => {
    await walk(ctx, row, status, { pending: ['confirmed'] });
    await call(ctx)('orders.record_shipment', {
      id: row.origin_order_id!,
      carrier: shipping.carrier || NETWORK_CARRIER,
      tracking_number: shipping.tracking_number || row.origin_order_number,
      ...(shipping.shipped_at ? { shipped_at: shipping.shipped_at } : {}),
    });
  });
}

export async function markOriginDelivered(ctx: HandlerContext, row: ChainOrderRow, deliveredAt: string | null): Promise<void> {
  if (!row.origin_order_id) return;
  if ((await statusOf(ctx, row)) === 'delivered') return;
  await markOriginShipped(ctx, row, row);
  await followed('delivered', () => call(ctx)('orders.mark_delivered', { id: row.origin_order_id!, ...(deliveredAt ? { delivered_at: deliveredAt } : {}) }));
}
