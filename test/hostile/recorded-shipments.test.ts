/**
 * Hostile callers against the ways in that the reseller network added to the orders module and to
 * the finance module (spec 3, reseller network rule 8 and partial refunds; modules/orders README:
 * shipments recorded by a module; reseller-finance README: refund_share): neither is an edge a
 * member reaches (no route, no GraphQL field, refused from the owner's own call), another module
 * reaches them only by declaring them (api.consumes), a module that did can neither act under
 * another module's name nor deliver a shipment it did not record, and a flood of repeated
 * recordings leaves one shipment. Beside each refusal, the legitimate path still works.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';

const MODULES = ['orders', 'reseller-catalog', 'reseller-finance'].map((m) => path.resolve(__dirname, '../../modules', m));

describe('hostile: shipments recorded by a module, and refund shares, reach only their callers', () => {
  let host: TestHost;
  let orderId: string;
  const failure = (p: Promise<unknown>) => p.then(() => 'resolved', (err: { status?: number; code?: string }) => `${err.status} ${err.code}`);

  beforeAll(async () => {
    host = await createTestHost({ modulePath: path.resolve(__dirname, '../../modules/reseller-orders'), withModules: MODULES });
    const made = await host.request('POST', '/orders', { order_number: 'HOSTILE-1', customer: { name: 'Asha Rao', phone: '9800000000' }, items: [{ name: 'Steel kettle', quantity: 1, unit_price: '1500.00' }], is_cod: true });
    expect(made.status).toBe(201);
    orderId = (made.body.order ?? made.body).id;
    expect((await host.request('POST', `/orders/${orderId}/status`, { status: 'confirmed' })).status).toBe(201);
  }, 240_000);
  afterAll(() => host?.close());

  const shipments = async () => (await host.request('GET', `/orders/${orderId}/shipments`)).body.shipments as Array<{ recorded_by: string; status: string }>;

  test('no member edge: no route, no GraphQL field, and the owner calling the operation itself is refused (users ship through a carrier module)', async () => {
    expect((await host.request('POST', `/orders/${orderId}/record_shipment`, { carrier: 'X', tracking_number: 'T' })).status).toBe(404);
    const gql = await host.request('POST', '/graphql', { query: `mutation { orders_record_shipment(input: {id: "${orderId}", carrier: "X", tracking_number: "T"}) }` });
    expect(gql.body.errors?.[0]?.extensions?.code).toMatch(/^GRAPHQL_(VALIDATION|EXECUTION)_FAILED$/);
    expect(await failure(host.call('orders.record_shipment', { id: orderId, carrier: 'X', tracking_number: 'T' }))).toBe('403 FORBIDDEN');
    expect(await failure(host.call('orders.mark_delivered', { id: orderId }))).toBe('403 FORBIDDEN');
    expect(await shipments()).toEqual([]);
  });

  test('a module that does not declare it is refused; the one that does records under its own name only, and another cannot deliver its shipment', async () => {
    expect(await failure(host.call('orders.record_shipment', { id: orderId, carrier: 'X', tracking_number: 'T-CAT' }, { asModule: 'reseller_catalog' }))).toMatch(/^403 /);
    expect(await failure(host.call('orders.mark_delivered', { id: orderId }, { asModule: 'reseller_finance' }))).toMatch(/^403 /);
    expect(await shipments()).toEqual([]);
    // The legitimate path, flooded: 40 recordings of the same shipment at once leave one.
    const answers = await Promise.all(Array.from({ length: 40 }, () => host.call<{ applied: boolean }>('orders.record_shipment', { id: orderId, carrier: 'Delhivery', tracking_number: 'TRK-H1' }, { asModule: 'reseller_orders' })));
    expect(answers.filter((a) => a.applied)).toHaveLength(1);
    expect(await shipments()).toEqual([expect.objectContaining({ recorded_by: 'reseller_orders', status: 'pending' })]);
    expect((await host.request('GET', `/orders/${orderId}`)).body.status).toBe('shipped');
    // Inputs are bounded (a tracking number of 100 characters at most).
    expect(await failure(host.call('orders.record_shipment', { id: orderId, carrier: 'X', tracking_number: 'T'.repeat(10_000) }, { asModule: 'reseller_orders' }))).toMatch(/^422 /);
    const delivered = await Promise.all(Array.from({ length: 10 }, () => host.call<{ applied: boolean }>('orders.mark_delivered', { id: orderId }, { asModule: 'reseller_orders' })));
    expect(delivered.filter((a) => a.applied)).toHaveLength(1);
    expect((await host.request('GET', `/orders/${orderId}/history`)).body.history.filter((h: { to_status: string }) => h.to_status === 'delivered')).toHaveLength(1);
  });

  test("refund_share is reseller_orders' own: the owner and another module are refused and nothing is written", async () => {
    const input = { chain_ref: 'x:y', chain_order_id: 'y', origin_order_number: 'HOSTILE-1', refund_id: 'r1', given_back: '100.00', pay: [], receive: [] };
    expect(await failure(host.call('reseller_finance.refund_share', input))).toBe('403 FORBIDDEN');
    expect(await failure(host.call('reseller_finance.refund_share', input, { asModule: 'reseller_catalog' }))).toMatch(/^403 /);
    expect((await host.request('GET', '/finance/wallet/transactions?reference_type=chain_refund')).body.transactions).toEqual([]);
  });
});
