/**
 * Spec 3, Order payment (payment_status reconciles from the payments recorded) and Wallet,
 * transaction, remittance (flow_type downstream): the top takes a prepaid order's money only once
 * the origin's orders module records it paid, and only once.
 */
import Decimal from 'decimal.js';
import { copyAt, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

const wallet = async (level: Level) => (await c.as(level, 'GET', '/finance/wallet')).body.wallet;
const orderCredits = async (level: Level) => (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=chain_order&per_page=100')).body.transactions;

/** A prepaid order of D's, forwarded to the top, accepted and shipped there; resolves to it and the top's copy id. */
async function shippedPrepaid() {
  const order = await placeOrder(c, 'D', 'Ravi Kumar', false);
  expect((await c.as('D', 'POST', '/chain-orders', { order_id: order.id })).status).toBe(201);
  for (const level of ['D', 'C', 'B'] as const) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
  const top = (await copyAt(c, 'A', order.order_number))!;
  expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
  expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: `TRK-${order.order_number}`, carrier: 'Delhivery' })).status).toBe(200);
  return { order, topId: top.id };
}

describe('spec 3 Order payment and Wallet (downstream): a prepaid order is credited at the top only for what the origin records as paid', () => {
  test('unpaid, then partly paid: delivery is refused with PAYMENT_PENDING and nobody is credited or owes anything', async () => {
    const { order, topId } = await shippedPrepaid();
    const refused = await c.as('A', 'POST', `/chain-orders/${topId}/deliver`);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: expect.any(String), code: 'PAYMENT_PENDING', details: expect.objectContaining({ payment_status: 'pending', amount_paid: '0.00', total: order.total }) });
    const half = new Decimal(order.total).div(2).toFixed(2);
    expect((await c.as('D', 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: half })).status).toBe(201);
    const partly = await c.as('A', 'POST', `/chain-orders/${topId}/deliver`);
    expect(partly.body).toMatchObject({ code: 'PAYMENT_PENDING', details: { payment_status: 'partial', amount_paid: half } });
    expect((await copyAt(c, 'A', order.order_number))!.chain_status).toBe('shipped');
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('shipped');
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      expect(await wallet(level)).toMatchObject({ balance: '0.00', pending_credits: '0.00', pending_debits: '0.00' });
      expect(await orderCredits(level)).toEqual([]);
    }
  }, 60_000);

  test('paid in full at the origin: two concurrent deliveries credit the top once, with the paid amount', async () => {
    const { order, topId } = await shippedPrepaid();
    expect((await c.as('D', 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total })).status).toBe(201);
    const before = await wallet('A');
    const answers = await Promise.all([0, 1].map(() => c.as('A', 'POST', `/chain-orders/${topId}/deliver`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.body.code).toBe('INVALID_STATUS');
    const credits = (await orderCredits('A')).filter((t: { description: string }) => t.description.includes(order.order_number));
    expect(credits).toEqual([expect.objectContaining({ type: 'credit', amount: order.total, description: `Prepaid payment collected for order ${order.order_number}` })]);
    expect((await wallet('A')).balance).toBe(new Decimal(before.balance).plus(order.total).toFixed(2));
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('delivered');
    for (const level of ['A', 'B', 'C', 'D'] as const) expect((await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
  }, 60_000);
});
