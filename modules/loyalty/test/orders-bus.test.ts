/**
 * Issue 3, items 4 and 7: loyalty consumes orders.get (api.consumes) and nothing else of orders; the
 * orders module is a real module (test/fixtures/orders) running in its own sandbox.
 */
import type { TestHost } from '../../../sdk/testing';
import { startHost, type Order } from './support';

type Balance = { customer_id: string; points: number };
type Recalculated = { order_id: string; customer_id: string; points: number; previous_points: number | null; changed: boolean };

let host: TestHost;

beforeAll(async () => {
  host = await startHost();
});

afterAll(async () => {
  await host?.close();
});

const balance = (customer: string) => host.call<Balance>('loyalty.get_balance', { customer_id: customer });
const recalculate = (orderId: string) => host.call<Recalculated>('loyalty.recalculate_order', { order_id: orderId });

/** Places an order through the orders module and waits until loyalty has awarded it. */
async function placeOrder(customer: string, total: string): Promise<Order> {
  const order = await host.call<Order>('orders.create', { customer_id: customer, total });
  await host.eventually(async () => {
    const { entries } = await host.call<{ entries: Array<{ order_id: string }> }>('loyalty.list_entries', { customer_id: customer, limit: 100 });
    expect(entries.map((e) => e.order_id)).toContain(order.id);
  });
  return order;
}

describe('issue 3 item 7 / DESIGN.md Bus: an order.created published by the orders module reaches loyalty', () => {
  it('orders.create → host.emit → job queue → loyalty awards the points', async () => {
    const order = await placeOrder('bus-1', '19.99');
    expect(order.total).toBe('19.99');
    expect(await balance('bus-1')).toEqual({ customer_id: 'bus-1', points: 19 });
  });
});

describe('issue 3 item 7: loyalty.recalculate_order re-reads the order with host.call("orders.get")', () => {
  it('corrects the points after the order total changed', async () => {
    const order = await placeOrder('rc-1', '120.00');
    await host.call('orders.update', { id: order.id, total: '80.50' });
    expect(await recalculate(order.id)).toEqual({ order_id: order.id, customer_id: 'rc-1', points: 80, previous_points: 120, changed: true });
    expect(await balance('rc-1')).toEqual({ customer_id: 'rc-1', points: 80 });

    await host.call('orders.update', { id: order.id, total: '95.00' });
    expect(await recalculate(order.id)).toMatchObject({ points: 95, previous_points: 80, changed: true });
    expect(await balance('rc-1')).toEqual({ customer_id: 'rc-1', points: 95 });
  });

  it('is idempotent: a second recalculation changes nothing', async () => {
    const order = await placeOrder('rc-2', '30.00');
    expect(await recalculate(order.id)).toMatchObject({ points: 30, previous_points: 30, changed: false });
    expect(await recalculate(order.id)).toMatchObject({ changed: false });
    expect(await balance('rc-2')).toEqual({ customer_id: 'rc-2', points: 30 });
  });

  it('a cancelled order earns nothing', async () => {
    const order = await placeOrder('rc-3', '60.00');
    await host.call('orders.cancel', { id: order.id });
    expect(await recalculate(order.id)).toMatchObject({ points: 0, previous_points: 60, changed: true });
    expect(await balance('rc-3')).toEqual({ customer_id: 'rc-3', points: 0 });
  });

  it('awards an order whose event never arrived, and a late event then changes nothing', async () => {
    // orders.import records an order without publishing order.created: loyalty never heard of it.
    const order = await host.call<Order>('orders.import', { customer_id: 'rc-4', total: '42.42' });
    expect(await balance('rc-4')).toEqual({ customer_id: 'rc-4', points: 0 });
    expect(await recalculate(order.id)).toEqual({ order_id: order.id, customer_id: 'rc-4', points: 42, previous_points: null, changed: true });
    expect(await balance('rc-4')).toEqual({ customer_id: 'rc-4', points: 42 });

    const late = await host.emit('order.created', { id: order.id, customer_id: 'rc-4', total: '42.42' });
    expect(await host.delivery(late, 'loyalty')).toBe('completed');
    expect(await balance('rc-4')).toEqual({ customer_id: 'rc-4', points: 42 });
  });

  it('moves the points when the order now belongs to another customer', async () => {
    const order = await placeOrder('rc-6', '15.00');
    await host.call('orders.update', { id: order.id, customer_id: 'rc-7' });
    expect(await recalculate(order.id)).toEqual({ order_id: order.id, customer_id: 'rc-7', points: 15, previous_points: 15, changed: true });
    expect(await balance('rc-6')).toEqual({ customer_id: 'rc-6', points: 0 });
    expect(await balance('rc-7')).toEqual({ customer_id: 'rc-7', points: 15 });
    const { entries } = await host.call<{ entries: Array<{ order_id: string; reason: string }> }>('loyalty.list_entries', { customer_id: 'rc-7' });
    expect(entries).toEqual([expect.objectContaining({ order_id: order.id, points: 15, reason: 'order_recalculated' })]);
  });

  it('refuses a correction that would take back points already redeemed', async () => {
    const order = await placeOrder('rc-5', '50.00');
    await host.call('loyalty.redeem', { customer_id: 'rc-5', points: 40, reason: 'spent' });
    await host.call('orders.update', { id: order.id, total: '5.00' });
    await expect(recalculate(order.id)).rejects.toMatchObject({ code: 'INSUFFICIENT_POINTS', status: 422, details: { available: 10, requested: 45 } });
    expect(await balance('rc-5')).toEqual({ customer_id: 'rc-5', points: 10 });
  });

  it("the orders module's typed error passes through to loyalty's caller", async () => {
    await expect(recalculate('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'ORDER_NOT_FOUND', status: 404 });
  });
});

describe('issue 3 item 4 / DESIGN.md Bus: the caller may call it (api.consumes)', () => {
  it('as loyalty, orders.get (consumed) is allowed', async () => {
    const order = await placeOrder('cs-1', '10.00');
    await expect(host.call<Order>('orders.get', { id: order.id }, { asModule: 'loyalty' })).resolves.toMatchObject({
      id: order.id,
      customer_id: 'cs-1',
      total: '10.00',
    });
  });

  it('as loyalty, orders.cancel (not consumed) is refused with OPERATION_NOT_CONSUMED and nothing happens', async () => {
    const order = await placeOrder('cs-2', '10.00');
    await expect(host.call('orders.cancel', { id: order.id }, { asModule: 'loyalty' })).rejects.toMatchObject({
      code: 'OPERATION_NOT_CONSUMED',
      status: 403,
      details: { operation: 'orders.cancel', module: 'loyalty' },
    });
    expect(await host.call<Order>('orders.get', { id: order.id })).toMatchObject({ status: 'placed' });
  });

  it('as orders (which consumes nothing), loyalty.redeem is refused', async () => {
    await expect(host.call('loyalty.redeem', { customer_id: 'cs-1', points: 1, reason: 'x' }, { asModule: 'orders' })).rejects.toMatchObject({
      code: 'OPERATION_NOT_CONSUMED',
    });
  });
});
