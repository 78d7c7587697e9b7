/**
 * loyalty: customers earn one point per whole currency unit of each order (order.created), spend
 * them (loyalty.redeem), and an order's points can be corrected from the order itself
 * (loyalty.recalculate_order, which reads it with orders.get).
 */
import { defineModule, type HandlerContext } from '../../../sdk';
import { codeOf, invalidOrder } from './errors';
import { awardOrder, balanceOf, correctOrder, inTransaction, adjustBalance, type PointsRow } from './ledger';
import { pointsForTotal } from './points';

/** What order.created carries and orders.get returns (the fields loyalty reads). */
interface OrderView {
  id: string | number;
  customer_id: string | number;
  total: string;
  status?: string;
}

const DEFAULT_LIMIT = 20;

const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/** Ids arrive as strings, or as integers from an orders module with numeric keys. */
function idOf(value: unknown, field: string, orderId?: string): string {
  if (typeof value === 'string' && value.length >= 1 && value.length <= 100) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw invalidOrder(`The order's ${field} must be a string of 1 to 100 characters or an integer.`, orderId);
}

function pointsOf(order: OrderView) {
  const orderId = idOf(order?.id, 'id');
  return {
    orderId,
    customerId: idOf(order.customer_id, 'customer_id', orderId),
    points: order.status === 'cancelled' ? 0 : pointsForTotal(order.total, orderId),
  };
}

export default defineModule({
  operations: {
    async get_balance(input: { customer_id: string }, ctx) {
      return { customer_id: input.customer_id, points: await balanceOf(ctx.host.db, input.customer_id) };
    },

    async list_entries(input: { customer_id: string; limit?: number }, ctx) {
      const rows = await ctx.host.db.find<PointsRow>('Points', {
        where: { customer_id: input.customer_id },
        order: [['created_at', 'DESC'], ['id', 'DESC']],
        limit: input.limit ?? DEFAULT_LIMIT,
        attributes: ['id', 'order_id', 'points', 'reason', 'created_at'],
      });
      return { customer_id: input.customer_id, entries: rows };
    },

    async redeem(input: { customer_id: string; points: number; reason: string }, ctx) {
      const at = nowIso(ctx);
      return inTransaction(ctx.host.db, input.customer_id, async (tx) => {
        const balance = await adjustBalance(tx, input.customer_id, -input.points, at);
        const entry = await tx.create<PointsRow>('Points', {
          customer_id: input.customer_id,
          order_id: null,
          points: -input.points,
          reason: input.reason,
          created_at: at,
        });
        return { customer_id: input.customer_id, points: balance, entry_id: entry.id };
      });
    },

    async recalculate_order(input: { order_id: string }, ctx) {
      // orders.get is in api.consumes; NOT_FOUND and other errors of the orders module pass through.
      const order = await ctx.host.call<OrderView>('orders.get', { id: input.order_id });
      const expected = pointsOf(order);
      const { previousPoints, changed } = await correctOrder(ctx.host.db, expected, nowIso(ctx));
      if (changed) ctx.host.log.info('order points corrected', { order_id: expected.orderId, from: previousPoints, to: expected.points });
      return { order_id: expected.orderId, customer_id: expected.customerId, points: expected.points, previous_points: previousPoints, changed };
    },
  },

  events: {
    // Delivered at least once: awardOrder is idempotent per order id.
    async 'order.created'(payload: OrderView, ctx) {
      let order;
      try {
        order = pointsOf(payload);
      } catch (err) {
        // A malformed event will not get better by being retried: log it and drop it.
        if (codeOf(err) !== 'INVALID_ORDER') throw err;
        ctx.host.log.error('order.created ignored: malformed order', { error: (err as Error).message, payload });
        return;
      }
      const awarded = await awardOrder(ctx.host.db, order, nowIso(ctx));
      if (!awarded) ctx.host.log.info('order.created already awarded', { order_id: order.orderId });
    },
  },
});
