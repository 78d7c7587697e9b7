/**
 * What the customer has paid for a prepaid chain order (spec 3, Order payment: payment_status
 * reconciles from the payments the origin's orders module records). The money of a prepaid order is
 * credited at the top on delivery (flow_type downstream), so the top asks the origin, the only tenant
 * whose orders module holds the payments: directly when it is the origin, else by a related call
 * (a tenant may call any tenant below it on the order's path).
 */
import Decimal from 'decimal.js';
import { related, typedCall, type HandlerContext } from '../../../sdk';
import type { ChainOrderRow } from './chain';
import { chainErrors, notFound, paymentPending } from './errors';

export type OriginPayment = { payment_status: string; amount_paid: string; total: string };
type OrderMoney = { payment_status: string; total: string; total_paid: string; total_refunded: string };
type Ops = { 'orders.get': { input: { id: string }; output: OrderMoney } };

/** At the origin: paid less refunded, as its orders module records it now. */
async function ownPayment(ctx: HandlerContext, orderId: string): Promise<OriginPayment> {
  const order = await typedCall<Ops>(ctx.host)('orders.get', { id: orderId });
  const net = Decimal.max(0, new Decimal(order.total_paid).minus(order.total_refunded));
  return { payment_status: order.payment_status, amount_paid: net.toFixed(2), total: order.total };
}

/** reseller_orders.payment_of, in the origin: answered to a tenant above only (never to the level below). */
export async function paymentOf(ctx: HandlerContext, from: string, chainRef: string): Promise<OriginPayment> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
  if (!row || !row.origin_order_id) throw notFound(chainRef);
  if (!row.parent_tenant_id || from === row.child_tenant_id) throw chainErrors.forbidden('Only a tenant above this one, to which the order was forwarded, reads its payment.');
  return ownPayment(ctx, row.origin_order_id);
}

/** What the origin records as paid for this order now: read here at the origin, else asked of it. */
export async function originPayment(ctx: HandlerContext, row: ChainOrderRow): Promise<OriginPayment> {
  if (row.origin_order_id) return ownPayment(ctx, row.origin_order_id);
  return (await related(ctx.host).call(row.origin_tenant_id, 'reseller_orders.payment_of', { chain_ref: row.chain_ref })) as OriginPayment;
}

/** Throws PAYMENT_PENDING unless the origin records the customer total as paid (net of refunds). */
export async function requirePaid(ctx: HandlerContext, row: ChainOrderRow): Promise<OriginPayment> {
  const paid = await originPayment(ctx, row);
  if (new Decimal(paid.amount_paid).lt(row.origin_total)) throw paymentPending(paid);
  return paid;
}
