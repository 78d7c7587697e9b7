/**
 * The origin's own order follows its chain order (spec 3, States and transitions: order status
 * confirmed → processing by order processing): when the fulfiller starts processing the chain
 * order, the origin moves the order in its orders module to processing, through the orders
 * module's own operation. Idempotent: an order already processing or further on is left alone.
 */
import { typedCall, type HandlerContext } from '../../../sdk';
import type { ChainOrderRow } from './chain';

type Ops = {
  'orders.get': { input: { id: string }; output: { status: string } };
  'orders.update_status': { input: { id: string; status: string; reason?: string }; output: { status: string } };
};

/** The steps from each status that comes before processing (spec 3: pending → confirmed → processing). */
const TO_PROCESSING: Record<string, string[]> = { pending: ['confirmed', 'processing'], confirmed: ['processing'] };

export async function markOriginProcessing(ctx: HandlerContext, row: ChainOrderRow): Promise<void> {
  if (!row.origin_order_id) return;
  const call = typedCall<Ops>(ctx.host);
  const order = await call('orders.get', { id: row.origin_order_id });
  for (const status of TO_PROCESSING[order.status] ?? []) await call('orders.update_status', { id: row.origin_order_id, status, reason: 'chain order being fulfilled' });
}
