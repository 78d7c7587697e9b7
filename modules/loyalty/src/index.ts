/**
 * loyalty: customers earn one point per whole currency unit of each order (order.created), spend
 * them (loyalty.redeem), and an order's points can be corrected from the order itself
 * (loyalty.recalculate_order, which reads it with orders.get). Everything the module offers is
 * declared here, beside its handler; `mandi module build` writes module.json from it.
 */
import { defineModule, operation, Type, typedCall, type HandlerContext } from '../../../sdk';
import { codeOf, invalidOrder } from './errors';
import type { OrdersOperations } from './generated/orders';
import { awardOrder, balanceOf, correctOrder, inTransaction, adjustBalance, type PointsRow } from './ledger';
import { pointsForTotal } from './points';

/**
 * The fields of an order loyalty reads, as orders.get returns them (types generated from orders'
 * manifest by `mandi module types`). order.created carries the same fields; orders declares no
 * event payload schema, so the payload is checked field by field in pointsOf.
 */
type OrderView = Pick<OrdersOperations['orders.get']['output'], 'id' | 'customer_id' | 'total' | 'status'>;

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

/** Customer and order ids: strings of 1 to 100 characters. */
const Id = Type.String({ minLength: 1, maxLength: 100 });

export default defineModule({
  name: 'loyalty',
  version: '0.1.0',
  description:
    "Loyalty points for a shop's customers: one point per whole currency unit of every order, redeemable, with a ledger of every change.",
  compatibility: { platform: '^2.0.0' },
  dependencies: { orders: '^1.0.0' },
  main: 'dist/index.js',
  consumes: ['orders.get'],
  permissions: [
    { name: 'loyalty.view', description: "See customers' loyalty balances and ledger entries." },
    { name: 'loyalty.redeem', description: "Redeem customers' loyalty points." },
    { name: 'loyalty.manage', description: 'Correct the points of an order by recalculating it.' },
  ],

  operations: {
    get_balance: operation({
      description: 'Points balance of one customer (0 for a customer who never earned any).',
      permission: 'loyalty.view',
      input: Type.Object({ customer_id: Id }, { additionalProperties: false }),
      output: Type.Object({ customer_id: Type.String(), points: Type.Integer({ minimum: 0 }) }),
      http: { method: 'GET', path: '/loyalty/customers/:customer_id/balance' },
      async handler(input, ctx) {
        return { customer_id: input.customer_id, points: await balanceOf(ctx.host.db, input.customer_id) };
      },
    }),

    list_entries: operation({
      description: "A customer's ledger entries (points earned and redeemed), newest first.",
      permission: 'loyalty.view',
      input: Type.Object(
        { customer_id: Id, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_LIMIT })) },
        { additionalProperties: false },
      ),
      output: Type.Object({
        customer_id: Type.String(),
        entries: Type.Array(
          Type.Object({
            id: Type.String({ description: 'bigint, as a string' }),
            order_id: Type.Nullable(Type.String()),
            points: Type.Integer({ description: 'positive when earned, negative when redeemed' }),
            reason: Type.String(),
            created_at: Type.String({ format: 'date-time' }),
          }),
        ),
      }),
      http: { method: 'GET', path: '/loyalty/customers/:customer_id/entries' },
      async handler(input, ctx) {
        const rows = await ctx.host.db.find<PointsRow>('Points', {
          where: { customer_id: input.customer_id },
          order: [['created_at', 'DESC'], ['id', 'DESC']],
          limit: input.limit ?? DEFAULT_LIMIT,
          attributes: ['id', 'order_id', 'points', 'reason', 'created_at'],
        });
        return { customer_id: input.customer_id, entries: rows };
      },
    }),

    redeem: operation({
      description: 'Spends points of a customer; refused with INSUFFICIENT_POINTS (422) when the balance is too low.',
      permission: 'loyalty.redeem',
      input: Type.Object(
        {
          customer_id: Id,
          points: Type.Integer({ minimum: 1, maximum: 1000000000 }),
          reason: Type.String({ minLength: 1, maxLength: 200 }),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({
        customer_id: Type.String(),
        points: Type.Integer({ minimum: 0, description: 'balance after the redemption' }),
        entry_id: Type.String(),
      }),
      http: { method: 'POST', path: '/loyalty/customers/:customer_id/redeem' },
      async handler(input, ctx) {
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
    }),

    recalculate_order: operation({
      description: 'Re-reads an order (orders.get) and corrects the points it earned, e.g. after its total changed or it was cancelled.',
      permission: 'loyalty.manage',
      input: Type.Object({ order_id: Id }, { additionalProperties: false }),
      output: Type.Object({
        order_id: Type.String(),
        customer_id: Type.String(),
        points: Type.Integer({ minimum: 0 }),
        previous_points: Type.Nullable(Type.Integer()),
        changed: Type.Boolean(),
      }),
      async handler(input, ctx) {
        // orders.get is in `consumes`; NOT_FOUND and other errors of the orders module pass through.
        const order = await typedCall<OrdersOperations>(ctx.host)('orders.get', { id: input.order_id });
        const expected = pointsOf(order);
        const { previousPoints, changed } = await correctOrder(ctx.host.db, expected, nowIso(ctx));
        if (changed) ctx.host.log.info('order points corrected', { order_id: expected.orderId, from: previousPoints, to: expected.points });
        return { order_id: expected.orderId, customer_id: expected.customerId, points: expected.points, previous_points: previousPoints, changed };
      },
    }),
  },

  events: {
    subscribes: {
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
  },

  data: {
    models: {
      Points: {
        table: 'points',
        columns: {
          id: { type: 'bigint', primaryKey: true, autoIncrement: true },
          customer_id: { type: 'string', length: 100, nullable: false },
          order_id: { type: 'string', length: 100, nullable: true },
          points: { type: 'integer', nullable: false },
          reason: { type: 'string', length: 200, nullable: false },
          created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
        },
        indexes: [
          { name: 'points_order_id_unique', fields: ['order_id'], unique: true },
          { name: 'points_customer_created', fields: ['customer_id', 'created_at'] },
        ],
      },
      Balance: {
        table: 'balances',
        columns: {
          customer_id: { type: 'string', length: 100, primaryKey: true },
          points: { type: 'integer', nullable: false, default: 0 },
          updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
        },
      },
    },
    migrations: [
      {
        id: '001_balances_not_negative',
        up: 'migrations/001_balances_not_negative.up.sql',
        down: 'migrations/001_balances_not_negative.down.sql',
      },
    ],
  },
  limits: { memory_mb: 64, timeout_ms: 5000 },
});
