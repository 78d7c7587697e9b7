/**
 * Spec 3, States and transitions: the chain status `processing` (Chain order: statistics keys) is
 * set when the fulfiller starts fulfilling an accepted order, reaches every level, and moves the
 * origin's order in its orders module to processing (order status confirmed → processing).
 */
import { copyAt, placeOrder, startChain, type Chain } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

describe('spec 3 States and transitions (chain order processing; order status processing)', () => {
  test('POST /chain-orders/{id}/process at the top: accepted → processing everywhere, the origin order processing; twice at once, one wins; then it ships', async () => {
    const order = await placeOrder(c, 'D');
    expect((await c.as('D', 'POST', '/chain-orders', { order_id: order.id })).status).toBe(201);
    for (const level of ['D', 'C', 'B'] as const) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
    const top = (await copyAt(c, 'A', order.order_number))!;
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
    const answers = await Promise.all([0, 1].map(() => c.as('A', 'POST', `/chain-orders/${top.id}/process`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'processing' } });
    for (const level of ['A', 'B', 'C', 'D'] as const) expect({ level, status: (await copyAt(c, level, order.order_number))!.chain_status }).toEqual({ level, status: 'processing' });
    expect((await c.as('A', 'GET', '/chain-orders/stats')).body.stats.processing).toBe(1);
    expect((await c.as('D', 'GET', `/orders/${order.id}`)).body).toMatchObject({ status: 'processing' });
    // Only the fulfiller processes.
    expect((await c.as('C', 'POST', `/chain-orders/${(await copyAt(c, 'C', order.order_number))!.id}/process`)).body.code).toBe('INVALID_STATUS');
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'TRK-P1', carrier: 'Delhivery' })).status).toBe(200);
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('shipped');
  }, 60_000);
});
