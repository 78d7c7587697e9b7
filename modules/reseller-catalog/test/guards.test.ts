/**
 * Spec 3, Errors and Limits for the reseller catalog: bad input refused in the {error, code,
 * details} shape with nothing written; the master stock under 50 concurrent reservations; the
 * cross-module operations reseller_orders builds on (quote, reserve_stock, release_stock); rate
 * limits with their headers; the catalog's events.
 */
import type { TestHost } from '../../../sdk/testing';
import { api, recorded, startHost, subReseller, type Member } from './support';

let host: TestHost;
let owner: Member;
let b: Member;
let productId: string;

const RANDOM_ID = '7d1f2c4e-9a0b-4c3d-8e5f-112233445566';

beforeAll(async () => {
  host = await startHost({ recorder: true });
  owner = { tenant: host.tenantId, token: host.token };
  b = await subReseller(host, 'Bharat Traders', 'bharat', host.tenantId);
  await subReseller(host, 'Chennai Mart', 'chennai', b.tenant);
  const made = await api(host, owner, 'POST', '/reseller-catalog/master-products', { sku: 'LAMP-01', name: 'Brass lamp', base_cost: '250.00', minimum_margin_percent: 12, stock_quantity: 10 });
  productId = made.body.product.id;
}, 240_000);

afterAll(async () => {
  await host?.close();
});

/** Everything the catalog holds, as the super admin and B see it. */
const snapshot = async () => [
  (await api(host, owner, 'GET', '/reseller-catalog/master-products')).body,
  (await api(host, owner, 'GET', '/reseller-catalog/pricing')).body,
  (await api(host, b, 'GET', '/reseller-catalog/pricing')).body,
];

const shaped = (res: { status: number; body: unknown }, status: number, code: string) => {
  expect({ status: res.status, body: res.body }).toEqual({ status, body: { error: expect.any(String), code, details: expect.any(Object) } });
};

describe('spec 3, Errors: bad input is refused with {error, code, details} and writes nothing', () => {
  it.each([
    ['a negative margin', { margin_percent: -5 }, 422],
    ['a negative margin as a string', { margin_percent: '-5' }, 422],
    ['a zero margin (allow_zero_margin false)', { margin_percent: 0 }, 422],
    ['a margin below the product minimum (12 > default 10)', { margin_percent: 11.99 }, 422],
    ['a margin with 3 decimals', { margin_percent: 12.345 }, 422],
    ['an unknown product', { product_id: RANDOM_ID }, 404],
    ['a product id that is not a UUID', { product_id: 'not-a-uuid' }, 422],
    ['a tenant that is not a direct sub-reseller', { sub_reseller_id: 'chennai' }, 404],
  ])('pricing/set with %s', async (_what, change, status) => {
    const before = await snapshot();
    const res = await api(host, owner, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: b.tenant, margin_percent: 20, ...change });
    expect(res.status).toBe(status);
    expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'error']);
    expect(await snapshot()).toEqual(before);
  });

  it('a margin below the minimum names the minimum', async () => {
    const res = await api(host, owner, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: b.tenant, margin_percent: 11.99 });
    expect(res.body).toMatchObject({ code: 'MARGIN_BELOW_MINIMUM', details: { minimum_margin_percent: 12, margin_percent: 11.99 } });
  });

  it('a minimum set by the parent binds the sub-reseller: B may not price below it for C', async () => {
    expect((await api(host, owner, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: b.tenant, margin_percent: 20, minimum_margin_percent: 18 })).status).toBe(200);
    const c = (await api(host, b, 'GET', '/reseller-catalog/my-catalog')).body.products[0];
    expect(c).toMatchObject({ your_cost: '300.00', minimum_margin_percent: 18 });
    const refused = await api(host, b, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: 'chennai', margin_percent: 15 });
    shaped(refused, 422, 'MARGIN_BELOW_MINIMUM');
    const ok = await api(host, b, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: 'chennai', margin_percent: 18 });
    expect(ok.body.pricing).toMatchObject({ cost_to_reseller: '354.00', your_margin: '54.00', margin_percent: 18 });
  });

  it.each([
    ['a base cost with 3 decimals', { base_cost: '10.005' }],
    ['a base cost as a float with 3 decimals', { base_cost: 10.005 }],
    ['a negative base cost', { base_cost: '-1.00' }],
    ['no name', { name: undefined }],
    ['an unknown status', { status: 'archived' }],
    ['a negative stock', { stock_quantity: -1 }],
    ['a taken SKU', { sku: 'LAMP-01' }],
  ])('master product create with %s', async (_what, change) => {
    const before = await snapshot();
    const res = await api(host, owner, 'POST', '/reseller-catalog/master-products', { sku: 'NEW-1', name: 'New', base_cost: '10.00', ...change });
    shaped(res, 422, res.body.code);
    expect(await snapshot()).toEqual(before);
  });

  it('unknown and malformed ids: 404 for an unknown product, 422 for a malformed id, on every product route', async () => {
    for (const p of [`/reseller-catalog/master-products/${RANDOM_ID}`, `/reseller-catalog/my-catalog/${RANDOM_ID}`, `/reseller-catalog/pricing/${RANDOM_ID}/breakdown`]) {
      shaped(await api(host, owner, 'GET', p), 404, 'NOT_FOUND');
      shaped(await api(host, b, 'GET', p.replace('master-products', 'my-catalog')), 404, 'NOT_FOUND');
      shaped(await api(host, owner, 'GET', p.replace(RANDOM_ID, 'x1')), 422, (await api(host, owner, 'GET', p.replace(RANDOM_ID, 'x1'))).body.code);
    }
    shaped(await api(host, owner, 'PUT', `/reseller-catalog/master-products/${RANDOM_ID}`, { name: 'x' }), 404, 'NOT_FOUND');
    shaped(await api(host, owner, 'DELETE', `/reseller-catalog/master-products/${RANDOM_ID}`), 404, 'NOT_FOUND');
  });

  it('depth 11: the network refuses a tenant under level 10, so no catalog ever sees an eleventh level', async () => {
    let parent = b.tenant;
    for (let level = 2; level <= 10; level++) {
      const made = await host.request('POST', '/admin/tenants', { name: `Level ${level}`, alias: `lvl${level}`, parent_tenant: parent });
      expect(made.status).toBe(201);
      parent = made.body.tenant.id;
      await host.installModule('reseller_catalog', { tenant: parent });
    }
    const eleventh = await host.request('POST', '/admin/tenants', { name: 'Level 11', alias: 'lvl11', parent_tenant: parent });
    expect(eleventh.status).toBe(422);
    // Nine levels joined after the product: the super admin hands costs down the whole network.
    const sync = await api(host, owner, 'POST', '/reseller-catalog/master-products/sync', {});
    expect(sync.body).toEqual({ message: expect.any(String), tenants_reached: 11 });
    // The super admin looks at level 10 (X-Effective-Tenant): eleven rows, 0 to 10.
    const res = await api(host, owner, 'GET', `/reseller-catalog/pricing/${productId}/breakdown`, undefined, { 'x-effective-tenant': parent });
    expect(res.status).toBe(200);
    const rows: Array<{ level: number; cost: string; selling_price: string }> = res.body.breakdown;
    expect(rows.map((r) => r.level)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // Each level's selling price is the next one's cost; the last cost is the viewer's.
    for (let i = 1; i < rows.length; i++) expect(rows[i].cost).toBe(rows[i - 1].selling_price);
    expect(rows[10].cost).toBe(res.body.your_cost);
  }, 120_000);
});

describe('spec 3, Limits: reseller reads 100 and writes 30 a minute per user, with headers', () => {
  it('the 31st write in a minute is 429 in the reseller shape with Retry-After; another user still writes', async () => {
    const writer = await subReseller(host, 'Writer Co', 'writer', host.tenantId);
    const body = { product_id: productId, sub_reseller_id: 'nobody', margin_percent: 20 };
    let last;
    for (let i = 1; i <= 30; i++) {
      last = await api(host, writer, 'POST', '/reseller-catalog/pricing/set', body);
      expect(last.status).toBe(404);
    }
    expect(last!.headers.get('x-ratelimit-limit')).toBe('30');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    const over = await api(host, writer, 'POST', '/reseller-catalog/pricing/set', body);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Object.keys(over.body).sort()).toEqual(['code', 'details', 'error']);
    // Reads have their own budget, and other users theirs.
    const read = await api(host, writer, 'GET', '/reseller-catalog/my-catalog');
    expect(read.status).toBe(200);
    expect(read.headers.get('x-ratelimit-limit')).toBe('100');
    expect((await api(host, b, 'POST', '/reseller-catalog/pricing/set', body)).status).toBe(404);
  });

  it('the 101st read in a minute is 429, whichever read routes spent the budget', async () => {
    const reader = await subReseller(host, 'Reader Co', 'reader', host.tenantId);
    for (let i = 1; i <= 100; i++) {
      const res = await api(host, reader, 'GET', i % 2 ? '/reseller-catalog/my-catalog' : '/reseller-catalog/pricing');
      expect(res.status).toBe(200);
    }
    expect((await api(host, reader, 'GET', `/reseller-catalog/my-catalog/${productId}`)).status).toBe(429);
  });
});

describe('spec 3, Master product stock: reserve_stock and release_stock (for chain orders)', () => {
  type Reserve = { reference: string; already_reserved: boolean; items: Array<{ sku: string; quantity: number; stock_quantity: number | null }> };
  const reserve = (reference: string, quantity = 1, sku = 'LAMP-01') => host.call<Reserve>('reseller_catalog.reserve_stock', { reference, items: [{ sku, quantity }] });
  const stock = async () => (await api(host, owner, 'GET', `/reseller-catalog/master-products/${productId}`)).body.product.stock_quantity;

  it('50 concurrent reservations of 1 on a stock of 10: exactly 10 succeed, the others INSUFFICIENT_STOCK, stock ends at 0', async () => {
    expect(await stock()).toBe(10);
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => reserve(`order-${i}`)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { items: [{ sku: 'LAMP-01', requested: 1, available: 0 }] } });
    expect(await stock()).toBe(0);
    const rows = await host.sql<{ n: string }>(`SELECT count(*)::text AS n FROM reseller_catalog.stock_reservations WHERE status = 'reserved'`);
    expect(rows[0].n).toBe('10');
  }, 120_000);

  it('release gives the stock back once; reserving a reference twice takes once; all or nothing across items', async () => {
    const first = (await host.sql<{ reference: string }>(`SELECT reference FROM reseller_catalog.stock_reservations WHERE status = 'reserved' ORDER BY reference LIMIT 1`))[0].reference;
    const released = await host.call<{ released: boolean }>('reseller_catalog.release_stock', { reference: first });
    expect(released).toMatchObject({ released: true, items: [{ sku: 'LAMP-01', quantity: 1, stock_quantity: 1 }] });
    expect(await host.call('reseller_catalog.release_stock', { reference: first })).toMatchObject({ released: false });
    expect(await stock()).toBe(1);
    expect(await reserve('again')).toMatchObject({ already_reserved: false, items: [{ stock_quantity: 0 }] });
    expect(await reserve('again')).toMatchObject({ already_reserved: true });
    expect(await stock()).toBe(0);
    // Two items, the second short: the first is not taken either.
    const other = await api(host, owner, 'POST', '/reseller-catalog/master-products', { sku: 'BOWL-01', name: 'Bowl', base_cost: '80.00', stock_quantity: 5 });
    await expect(host.call('reseller_catalog.reserve_stock', { reference: 'mixed', items: [{ sku: 'BOWL-01', quantity: 2 }, { sku: 'LAMP-01', quantity: 1 }] })).rejects.toMatchObject({
      code: 'INSUFFICIENT_STOCK',
    });
    expect((await api(host, owner, 'GET', `/reseller-catalog/master-products/${other.body.product.id}`)).body.product.stock_quantity).toBe(5);
    await expect(reserve('ghost', 1, 'NO-SUCH-SKU')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { skus: ['NO-SUCH-SKU'] } });
    await expect(host.call('reseller_catalog.release_stock', { reference: 'never' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('quote: this tenant\'s unit and line costs, and what a direct sub-reseller pays', async () => {
    const q = await host.call('reseller_catalog.quote', { items: [{ sku: 'LAMP-01', quantity: 3 }, { sku: 'LAMP-01', quantity: 1 }], sub_reseller_id: b.tenant });
    expect(q).toEqual({
      items: [{ sku: 'LAMP-01', quantity: 4, master_product_id: productId, name: 'Brass lamp', unit_cost: '250.00', cost: '1000.00', is_available: true, available_stock: 0, sub_reseller_unit_cost: '300.00', sub_reseller_cost: '1200.00' }],
      total_cost: '1000.00',
      sub_reseller_total: '1200.00',
    });
    await expect(host.call('reseller_catalog.quote', { items: [{ sku: 'NOPE', quantity: 1 }] })).rejects.toMatchObject({ code: 'NOT_FOUND', details: { skus: ['NOPE'] } });
  });
});

describe('spec 3, Events: the catalog dispatches MasterProductCreated, MasterProductUpdated, PricingSet and StockUpdated', () => {
  it('each change publishes its event, and PricingSet never carries the parent\'s own cost', async () => {
    const created = await host.eventually(async () => {
      const list = await recorded(host, 'reseller_catalog.MasterProductCreated');
      expect(list.length).toBeGreaterThanOrEqual(2);
      return list;
    });
    expect(created[0]).toMatchObject({ product: { id: productId, sku: 'LAMP-01', base_cost: '250.00', stock_quantity: 10 } });
    expect((await api(host, owner, 'PUT', `/reseller-catalog/master-products/${productId}`, { name: 'Brass lamp (large)' })).status).toBe(200);
    await host.eventually(async () => {
      const updated = await recorded(host, 'reseller_catalog.MasterProductUpdated');
      expect(updated.at(-1)).toMatchObject({ product: { id: productId, name: 'Brass lamp (large)' }, changed: ['name'] });
    });
    await host.eventually(async () => {
      const pricing = await recorded(host, 'reseller_catalog.PricingSet');
      expect(pricing[0]).toEqual({ id: expect.any(String), product_id: productId, reseller_id: b.tenant, cost_to_reseller: '300.00', margin_percent: 20, is_available: true });
      const stock = await recorded(host, 'reseller_catalog.StockUpdated');
      // 10 reservations, 1 release, 1 reservation: 12 changes, in the order they were committed.
      expect(stock.filter((e) => e.sku === 'LAMP-01').map((e) => e.reason)).toEqual([...Array(10).fill('reserved'), 'released', 'reserved']);
    });
  });
});

describe('spec 2, Tools: ResellerCatalog 4 and 5 of ResellerAdmin\'s 8', () => {
  it('the AI tool list offers the 4 catalog operations and the 5 master-product ones, nothing internal', async () => {
    const res = await host.request('GET', '/ai/agent/tools');
    expect(res.status).toBe(200);
    const names = res.body.data.filter((t: { module: string }) => t.module === 'reseller_catalog').map((t: { name: string }) => t.name).sort();
    expect(names).toEqual(
      [
        'reseller_catalog.list_my_catalog', 'reseller_catalog.list_pricing', 'reseller_catalog.set_pricing', 'reseller_catalog.pricing_breakdown',
        'reseller_catalog.list_master_products', 'reseller_catalog.create_master_product', 'reseller_catalog.get_master_product',
        'reseller_catalog.update_master_product', 'reseller_catalog.delete_master_product',
      ].sort(),
    );
  });
});
