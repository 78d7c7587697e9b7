/**
 * Returns and refunds of delivered chain orders (spec 3 is silent; README: returns and refunds).
 * Either way the order's money is reversed level by level, each level in its own finance module,
 * first where the change is decided (the top), then at every level below through the same push
 * as the other states, each level's money before its copy's status:
 * - return: the fulfiller (the top, which takes the goods back) returns a delivered order;
 * - refund: the origin's orders module refunds a prepaid order in full (order.refund_processed:
 *   nothing left paid); the origin reports it up, one parent at a time (a tenant calls only its
 *   parent above it, and each takes the report from the child the order came from only), and the
 *   top reverses it and hands the state to the levels below through the `push` job: they are all
 *   waiting on the report's call, so none is called back while it is on its way up.
 * Each step is idempotent, so a replayed event or a retried push applies once.
 */
import Decimal from 'decimal.js';
import { ModuleError, related, type HandlerContext } from '../../../sdk';
import { find, pushDown, reverseMoney, transition, type ChainOrderRow } from './chain';
import { chainErrors, invalidStatus, notFound } from './errors';
import { refundOf, reportPartial } from './partial-refunds';
import { originPayment } from './payment';

/** POST /chain-orders/{id}/return at the fulfiller: delivered → returned. */
export async function returnOrder(ctx: HandlerContext, id: string, reason: string): Promise<ChainOrderRow> {
  const row = await find(ctx, id);
  if (!row.is_fulfiller || row.chain_status !== 'delivered') throw invalidStatus('returned', row.chain_status, ['delivered']);
  await reverseMoney(ctx, row, 'returned');
  const moved = await transition(ctx, row, 'returned', ['delivered'], 'returned', {}, reason);
  await pushDown(ctx, moved, 'returned', {});
  return moved;
}

/** At the top: a delivered prepaid order refunded in full at the origin becomes refunded. */
async function refundAtTop(ctx: HandlerContext, row: ChainOrderRow): Promise<void> {
  if (row.chain_status !== 'delivered' || row.payment_method !== 'prepaid') return; // refunded already, or never settled
  await reverseMoney(ctx, row, 'refunded');
  let moved: ChainOrderRow;
  try {
    moved = await transition(ctx, row, 'refunded', ['delivered'], 'refunded', {}, 'refunded to the customer at the origin');
  } catch (err) {
    if (err instanceof ModuleError && err.details.current_status === 'refunded') return; // a concurrent report of the same refund moved it
    throw err;
  }
  await pushDown(ctx, moved, 'refunded', {}, { later: true });
}

/** Hands the refund to the parent, or reverses it here at the top. */
async function reportUp(ctx: HandlerContext, row: ChainOrderRow): Promise<void> {
  if (row.parent_tenant_id) await related(ctx.host).call(row.parent_tenant_id, 'reseller_orders.report_refund', { chain_ref: row.chain_ref });
  else await refundAtTop(ctx, row);
}

/**
 * order.refund_processed at the origin: its chain order, when it has one; a failure is thrown so the
 * event is delivered again. Nothing left paid: the order is refunded through the chain; something
 * still paid: this refund's part is (partial-refunds.ts).
 */
export async function onRefundProcessed(ctx: HandlerContext, event: { order_id: string; refund_id?: unknown; amount?: unknown; total_refunded?: unknown }): Promise<void> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: `${ctx.tenantId}:${event.order_id}` } });
  if (!row || row.chain_status !== 'delivered' || row.payment_method !== 'prepaid') return;
  if (new Decimal((await originPayment(ctx, row)).amount_paid).isZero()) return reportUp(ctx, row);
  const refund = refundOf(row, event);
  if (!refund) {
    ctx.host.log.warn('a partial refund without its amounts is not reversed through the chain', { order_id: event.order_id });
    return;
  }
  await reportPartial(ctx, row, refund);
}

/** reseller_orders.report_refund, in a parent: only the child the order came from reports it. */
export async function reportRefund(ctx: HandlerContext, from: string, chainRef: string): Promise<{ reported: boolean }> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
  if (!row) throw notFound(chainRef);
  if (from !== row.child_tenant_id) throw chainErrors.forbidden('Only the sub-reseller the order came from reports its refund.');
  await reportUp(ctx, row);
  return { reported: true };
}
