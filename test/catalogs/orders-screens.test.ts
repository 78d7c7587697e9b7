/**
 * Spec 1, Server-driven screens: the orders module's own screens (modules/orders/screens/*.json) load
 * and serve, their sections reading orders through the bus as the requesting user.
 */
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ORDERS = path.resolve(__dirname, '../../modules/orders');

describe('spec 1 Server-driven screens: the orders module\'s screens', () => {
  let tp: TestPlatform;
  let who: { token: string; tenant: string };
  const get = (p: string) => tp.api(p, who);
  const order = (n: number) => ({
    order_number: `SCR-${n}`,
    customer: { id: `cust-${n}`, name: `Customer ${n}`, email: `c${n}@example.com`, phone: '+919800000000' },
    items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 1, unit_price: `${100 * n}.00` }],
    shipping_address: { name: `Customer ${n}`, line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', phone: '+919800000000' },
    status: 'confirmed',
  });

  beforeAll(async () => {
    if (await needsBuild(ORDERS, 'dist/index.js')) await buildModule(ORDERS);
    tp = await startTestPlatform();
    const owner = await tp.install('acme');
    who = { token: owner.token, tenant: 'acme' };
    tp.platform.kernel.source.add(await loadModuleFromDir(ORDERS));
    const installed = await tp.api('/modules/orders/install', { ...who, body: {} });
    if (installed.status !== 201) throw new Error(`install failed: ${installed.status} ${JSON.stringify(installed.body)}`);
    for (const n of [1, 2, 3]) {
      const res = await tp.api('/orders', { ...who, body: order(n) });
      if (res.status !== 201) throw new Error(`order failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
  }, 240_000);
  afterAll(() => tp?.close());

  test('both screens are listed; the detail screen stays out of navigation', async () => {
    const res = await get('/mobile/screens');
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: { id: string; navigation: boolean }) => [s.id, s.navigation])).toEqual([['orders.list', true], ['orders.detail', false]]);
  });

  test('each static definition passes the section rules and is served', async () => {
    for (const id of ['orders.list', 'orders.detail']) {
      const res = await get(`/mobile/screens/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, type: 'screen', version: 1, layout: 'scroll' });
    }
  });

  test('the list section pages through orders with search and sort passed to orders.list', async () => {
    const res = await get('/mobile/screens/orders.list/data/orders?per_page=2&sort=total');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { order_number: string }) => o.order_number)).toEqual(['SCR-1', 'SCR-2']);
    expect(res.body.meta).toEqual({ current_page: 1, per_page: 2, total: 3, last_page: 2, has_more: true });
    // Spec 1, Filter definition: the sort values newest, oldest, price_asc (and price_desc), as the screen's own filter offers them.
    const byWord = async (sort: string) => (await get(`/mobile/screens/orders.list/data/orders?sort=${sort}`)).body.data.map((o: { order_number: string }) => o.order_number);
    expect(await byWord('price_asc')).toEqual(['SCR-1', 'SCR-2', 'SCR-3']);
    expect(await byWord('price_desc')).toEqual(['SCR-3', 'SCR-2', 'SCR-1']);
    expect((await byWord('newest')).reverse()).toEqual(await byWord('oldest'));
    const definition = await get('/mobile/screens/orders.list');
    expect(JSON.stringify(definition.body)).toContain('"value":"newest"');
    const found = await get('/mobile/screens/orders.list/data/orders?search=SCR-3');
    expect(found.body.data.map((o: { order_number: string }) => o.order_number)).toEqual(['SCR-3']);
  });

  test('the detail screen\'s sections read one order by the id in the query', async () => {
    const summary = await get('/mobile/screens/orders.detail/data/summary?id=SCR-2');
    expect(summary.status).toBe(200);
    expect(summary.body.data).toMatchObject({ order_number: 'SCR-2', status: 'confirmed' });
    const items = await get('/mobile/screens/orders.detail/data/items?id=SCR-2');
    expect(items.body.data).toEqual([expect.objectContaining({ name: 'Kurta', quantity: 1 })]);
    expect(items.body.meta).toMatchObject({ total: 1, has_more: false });
  });

  test('spec 2 Node registry: an orders action node asks for the config its operation needs', async () => {
    const validate = (type: string, config: unknown) => tp.api(`/workflow-nodes/${type}/validate`, { ...who, body: { config } });
    const missing = await validate('orders:update-status', {});
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual({ success: true, valid: false, errors: ['Missing required config key "status".'] });
    expect((await validate('orders:update-status', { status: 'processing' })).body).toEqual({ success: true, valid: true, errors: [] });
    const payment = await validate('orders:record-payment', { method: 'cod', amount: '{{input.total}}' });
    expect(payment.body).toMatchObject({ valid: true });
    expect((await validate('orders:record-payment', { method: 'cod' })).body.errors).toEqual(['Missing required config key "amount".']);
  });

  test('spec 1 Limits: a section whose operation answers the whole list is paged by the core, nothing lost', async () => {
    const lines = Array.from({ length: 23 }, (_, i) => ({ name: `Line ${i + 1}`, quantity: 1, unit_price: '10.00', tax_rate: 5 }));
    const big = await tp.api('/orders', { ...who, body: { ...order(9), items: lines } });
    expect(big.status).toBe(201);
    const first = await get('/mobile/screens/orders.detail/data/items?id=SCR-9');
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 20, total: 23, last_page: 2, has_more: true });
    const last = await get('/mobile/screens/orders.detail/data/items?id=SCR-9&page=3&per_page=10');
    expect(last.body.data.map((l: { name: string }) => l.name)).toEqual(['Line 21', 'Line 22', 'Line 23']);
    expect(last.body.meta).toEqual({ current_page: 3, per_page: 10, total: 23, last_page: 3, has_more: false });
  });
});
