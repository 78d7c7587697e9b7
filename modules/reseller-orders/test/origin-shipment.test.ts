/**
 * Spec 3, reseller network rule 8 (a delivered chain order updates the origin's order in the orders
 * module: its status and its shipment) and States and transitions (order status shipped →
 * delivered): the fulfiller's shipment and delivery reach the origin's own order, with the carrier
 * and tracking number the fulfiller gave, once however often the state arrives.
 */
import { copyAt, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

type Shipment = { carrier_name: string | null; awb_number: string; status: string; recorded_by: string | null; delivered_at: string | null };
const orderOf = async (level: Level, id: string) => (await c.as(level, 'GET', `/orders/${id}`)).body as { status: string; fulfillment_status: string; delivered_at: string | null };
const shipmentsOf = async (level: Level, id: string) => (await c.as(level, 'GET', `/orders/${id}/shipments`)).body.shipments as Shipment[];
const movesTo = async (level: Level, id: string, status: string) =>
  ((await c.as(level, 'GET', `/orders/${id}/history`)).body.history as Array<{ to_status: string }>).filter((h) => h.to_status === status).length;

/** A COD order sold by D, forwarded up to A and accepted there. */
async function acceptedAtTop(origin: Level = 'D') {
  const order = await placeOrder(c, origin);
  expect((await c.as(origin, 'POST', '/chain-orders', { order_id: order.id })).status).toBe(201);
  const path = (['D', 'C', 'B'] as const).slice((['D', 'C', 'B', 'A'] as const).indexOf(origin as 'D'));
  for (const level of path) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
  const top = (await copyAt(c, 'A', order.order_number))!;
  expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
  return { order, top };
}

describe('spec 3 reseller network rule 8 (the origin order follows the chain order: status and shipment)', () => {
  afterEach(async () => {
    await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {});
    c.host.clock.reset();
  });

  test("shipped at the top: the origin's order (pending) is shipped with the fulfiller's carrier and tracking; two deliveries at once: delivered once", async () => {
    const { order, top } = await acceptedAtTop();
    expect((await orderOf('D', order.id)).status).toBe('pending');
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'TRK-R8-1', carrier: 'Delhivery' })).status).toBe(200);
    expect(await orderOf('D', order.id)).toMatchObject({ status: 'shipped', fulfillment_status: 'fulfilled' });
    expect(await shipmentsOf('D', order.id)).toEqual([expect.objectContaining({ carrier_name: 'Delhivery', awb_number: 'TRK-R8-1', recorded_by: 'reseller_orders', status: 'pending' })]);
    // Only the origin's order follows: a middle level's orders module has no such order.
    const answers = await Promise.all([0, 1].map(() => c.as('A', 'POST', `/chain-orders/${top.id}/deliver`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('delivered');
    expect(await orderOf('D', order.id)).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    const [shipment] = await shipmentsOf('D', order.id);
    expect(shipment).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });
    expect({ shipped: await movesTo('D', order.id, 'shipped'), delivered: await movesTo('D', order.id, 'delivered') }).toEqual({ shipped: 1, delivered: 1 });
  }, 90_000);

  test('the top selling itself (origin and fulfiller): its own order ships and is delivered, through processing', async () => {
    const { order, top } = await acceptedAtTop('A');
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/process`)).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'TRK-R8-A', carrier: 'Blue Dart' })).status).toBe(200);
    expect(await shipmentsOf('A', order.id)).toEqual([expect.objectContaining({ carrier_name: 'Blue Dart', awb_number: 'TRK-R8-A', recorded_by: 'reseller_orders' })]);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/deliver`)).status).toBe(200);
    expect((await orderOf('A', order.id)).status).toBe('delivered');
    expect((await c.as('A', 'GET', `/orders/${order.id}/history`)).body.history.map((h: { to_status: string }) => h.to_status)).toEqual(['pending', 'confirmed', 'processing', 'shipped', 'delivered']);
  }, 90_000);

  test('a level that could not be reached: shipped and delivered stuck, then retried twice by the admin: the origin order ships and is delivered once', async () => {
    const { order, top } = await acceptedAtTop();
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/suspend`, {})).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'TRK-R8-2', carrier: 'Ekart' })).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/deliver`)).status).toBe(200);
    await c.host.runJobs(c.host.clock.now() + 60_000);
    expect((await orderOf('D', order.id)).status).toBe('pending');
    expect(await shipmentsOf('D', order.id)).toEqual([]);
    const stuck = ((await c.as('A', 'GET', '/chain-orders/propagations?state=stuck&per_page=100')).body.propagations as Array<{ id: string; origin_order_number: string; target_tenant_id: string; status: string }>)
      .filter((p) => p.origin_order_number === order.order_number && p.target_tenant_id === c.ids.D);
    expect(stuck.map((p) => p.status).sort()).toEqual(['delivered', 'shipped']);
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    const shipped = stuck.find((p) => p.status === 'shipped')!;
    const delivered = stuck.find((p) => p.status === 'delivered')!;
    // Each retried twice, the second at once with a third: applied once.
    expect((await c.as('A', 'POST', `/chain-orders/propagations/${shipped.id}/retry`)).body).toMatchObject({ applied: true });
    expect((await c.as('A', 'POST', `/chain-orders/propagations/${shipped.id}/retry`)).body).toMatchObject({ applied: false });
    const again = await Promise.all([0, 1].map(() => c.as('A', 'POST', `/chain-orders/propagations/${delivered.id}/retry`)));
    expect(again.filter((a) => a.body.applied === true)).toHaveLength(1);
    expect(await orderOf('D', order.id)).toMatchObject({ status: 'delivered' });
    expect(await shipmentsOf('D', order.id)).toEqual([expect.objectContaining({ carrier_name: 'Ekart', awb_number: 'TRK-R8-2', status: 'delivered' })]);
    expect({ shipped: await movesTo('D', order.id, 'shipped'), delivered: await movesTo('D', order.id, 'delivered') }).toEqual({ shipped: 1, delivered: 1 });
  }, 120_000);

  test("the origin's order cancelled in its orders module: the shipped state is refused there (ORIGIN_ORDER_REFUSED, stuck with that reason) and the origin's copy stays as it was", async () => {
    const { order, top } = await acceptedAtTop();
    expect((await c.as('D', 'POST', `/orders/${order.id}/cancel`, { reason: 'customer called' })).status).toBe(201);
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'TRK-R8-3', carrier: 'Delhivery' })).status).toBe(200);
    await c.host.runJobs(c.host.clock.now() + 60_000);
    const [stuck] = ((await c.as('A', 'GET', '/chain-orders/propagations?state=stuck&per_page=100')).body.propagations as Array<{ origin_order_number: string; last_error: { code: string } }>).filter((p) => p.origin_order_number === order.order_number);
    expect(stuck).toMatchObject({ status: 'shipped', last_error: { code: 'ORIGIN_ORDER_REFUSED' } });
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('accepted');
    expect((await copyAt(c, 'C', order.order_number))!.chain_status).toBe('shipped');
    expect(await shipmentsOf('D', order.id)).toEqual([]);
  }, 120_000);
});
