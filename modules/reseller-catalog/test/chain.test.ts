/**
 * Spec 3, Reseller product pricing and Endpoints (Reseller catalog), on a 4-level chain built
 * through the platform's own API: owner (level 0, the super admin) → B → C → D, with S a sibling of
 * C under B. Proves the cascade to the paisa at every level and in the breakdown, and what each
 * level can and cannot see.
 */
import type { TestHost } from '../../../sdk/testing';
import { api, memberWith, startHost, subReseller, type Member } from './support';

let host: TestHost;
let owner: Member;
let b: Member;
let c: Member;
let d: Member;
let s: Member;
let productId: string;
let otherId: string;

beforeAll(async () => {
  host = await startHost();
  owner = { tenant: host.tenantId, token: host.token };
  b = await subReseller(host, 'Bharat Traders', 'bharat', host.tenantId);
  c = await subReseller(host, 'Chennai Mart', 'chennai', b.tenant);
  d = await subReseller(host, 'Delhi Direct', 'delhi', c.tenant);
  s = await subReseller(host, 'Surat Sales', 'surat', b.tenant);
  const made = await api(host, owner, 'POST', '/reseller-catalog/master-products', {
    sku: 'KURTA-01',
    name: 'Cotton kurta',
    description: 'Hand-block printed',
    base_cost: '999.99',
    recommended_retail_price: '1999.00',
    stock_quantity: 40,
    images: ['https://cdn.example/kurta.jpg'],
    attributes: { fabric: 'cotton' },
  });
  expect(made.status).toBe(201);
  productId = made.body.product.id;
  otherId = (await api(host, owner, 'POST', '/reseller-catalog/master-products', { sku: 'SAREE-02', name: 'Silk saree', base_cost: 2500 })).body.product.id;
  // A → B 12.5 %, B → C 11.11 %; C sets nothing for D, which inherits C's cost × 1.15.
  expect((await api(host, owner, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: b.tenant, margin_percent: 12.5 })).status).toBe(200);
  expect((await api(host, b, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: 'chennai', margin_percent: 11.11 })).status).toBe(200);
}, 240_000);

afterAll(async () => {
  await host?.close();
});

// 999.99 × 1.125 = 1124.98875 → 1124.99; × 1.1111 = 1249.976389 → 1249.98; × 1.15 = 1437.477 → 1437.48;
// D's suggested price × 1.15 = 1653.102 → 1653.10 (each level rounds half up to paise).
const COSTS = { owner: '999.99', b: '1124.99', c: '1249.98', d: '1437.48' };

describe('spec 3, Reseller product pricing: the cascade to the paisa', () => {
  it.each([
    ['owner', () => owner, COSTS.owner, '1149.99'],
    ['B', () => b, COSTS.b, '1293.74'],
    ['C', () => c, COSTS.c, '1437.48'],
    ['D', () => d, COSTS.d, '1653.10'],
  ])('my-catalog at %s: your_cost and the suggested selling price', async (_name, who, cost, suggested) => {
    const res = await api(host, who(), 'GET', '/reseller-catalog/my-catalog');
    expect(res.status).toBe(200);
    const kurta = res.body.products.find((p: { id: string }) => p.id === productId);
    expect(kurta).toEqual({
      id: productId,
      sku: 'KURTA-01',
      name: 'Cotton kurta',
      description: 'Hand-block printed',
      your_cost: cost,
      minimum_margin_percent: 10,
      suggested_selling_price: suggested,
      available_stock: 40,
      is_available: true,
      images: ['https://cdn.example/kurta.jpg'],
      attributes: { fabric: 'cotton' },
    });
    const one = await api(host, who(), 'GET', `/reseller-catalog/my-catalog/${productId}`);
    expect(one.body.product).toEqual(kurta);
  });

  it("the breakdown at D lists every level, 0 (the super admin) first and D last, each level's selling price the next one's cost", async () => {
    const res = await api(host, d, 'GET', `/reseller-catalog/pricing/${productId}/breakdown`);
    expect(res.status).toBe(200);
    const orgName = (await host.call<{ name: string }>('platform.get_tenant', {}, { asModule: 'reseller_catalog' })).name;
    expect(res.body).toEqual({
      product: { id: productId, name: 'Cotton kurta', base_cost: '999.99' },
      your_cost: COSTS.d,
      breakdown: [
        { level: 0, tenant_id: owner.tenant, tenant_name: orgName, cost: '999.99', margin_percent: 12.5, margin_amount: '125.00', selling_price: '1124.99' },
        { level: 1, tenant_id: b.tenant, tenant_name: 'Bharat Traders', cost: '1124.99', margin_percent: 11.11, margin_amount: '124.99', selling_price: '1249.98' },
        { level: 2, tenant_id: c.tenant, tenant_name: 'Chennai Mart', cost: '1249.98', margin_percent: 15, margin_amount: '187.50', selling_price: '1437.48' },
        { level: 3, tenant_id: d.tenant, tenant_name: 'Delhi Direct', cost: '1437.48', margin_percent: 15, margin_amount: '215.62', selling_price: '1653.10' },
      ],
      suggested_retail: '1653.10',
      minimum_margin_required: 10,
    });
  });

  it('a new base cost cascades to every level on the next read', async () => {
    expect((await api(host, owner, 'PUT', `/reseller-catalog/master-products/${otherId}`, { base_cost: '1000.01' })).status).toBe(200);
    const at = async (who: Member) => (await api(host, who, 'GET', `/reseller-catalog/my-catalog/${otherId}`)).body.product.your_cost;
    // 1000.01 × 1.15 = 1150.0115 → 1150.01; × 1.15 = 1322.5115 → 1322.51; × 1.15 = 1520.8865 → 1520.89.
    expect([await at(owner), await at(b), await at(c), await at(d)]).toEqual(['1000.01', '1150.01', '1322.51', '1520.89']);
  });

  it("a parent's pricing list shows what each sub-reseller pays and its own margin", async () => {
    const res = await api(host, b, 'GET', '/reseller-catalog/pricing');
    expect(res.status).toBe(200);
    expect(res.body.pricing).toEqual([
      {
        id: expect.any(String),
        product: { id: productId, name: 'Cotton kurta', sku: 'KURTA-01' },
        sub_reseller: { id: c.tenant, name: 'Chennai Mart' },
        cost_to_reseller: '1249.98',
        your_margin: '124.99',
        margin_percent: 11.11,
        minimum_margin_percent: 0,
        is_available: true,
      },
    ]);
  });

  it('the super admin sees resellers_count and finds products by name or SKU, filtered by status', async () => {
    const list = await api(host, owner, 'GET', '/reseller-catalog/master-products?search=kurta-0');
    expect(list.status).toBe(200);
    expect(list.body.products.map((p: { sku: string }) => p.sku)).toEqual(['KURTA-01']);
    expect(list.body.products[0]).toMatchObject({ base_cost: '999.99', resellers_count: 1, status: 'active', stock_quantity: 40, track_inventory: true });
    expect(list.body.pagination).toEqual({ current_page: 1, last_page: 1, per_page: 20, total: 1 });
    expect((await api(host, owner, 'GET', '/reseller-catalog/master-products?search=silk')).body.products.map((p: { sku: string }) => p.sku)).toEqual(['SAREE-02']);
    expect((await api(host, owner, 'GET', '/reseller-catalog/master-products?status=inactive')).body.products).toEqual([]);
  });
});

describe('spec 1, GraphQL and screens: the catalog fields and screens in the manifest', () => {
  it('D reads its catalog and the breakdown through GraphQL, with the same amounts', async () => {
    const query = `{ resellerCatalog(search: "kurta") { products { sku your_cost suggested_selling_price } }
      resellerPricingBreakdown(productId: "${productId}") { your_cost breakdown { level cost selling_price } } }`;
    const res = await api(host, d, 'POST', '/graphql', { query });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.resellerCatalog.products).toEqual([{ sku: 'KURTA-01', your_cost: COSTS.d, suggested_selling_price: '1653.10' }]);
    expect(res.body.data.resellerPricingBreakdown.breakdown.map((r: { cost: string }) => r.cost)).toEqual([COSTS.owner, COSTS.b, COSTS.c, COSTS.d]);
  });

  it('the list and detail screens load the catalog as the viewer sees it', async () => {
    const list = await api(host, c, 'GET', '/mobile/screens/reseller_catalog.list/data/products');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(COSTS.c);
    expect(JSON.stringify(list.body)).not.toContain(COSTS.b);
  });
});

describe('spec 3, Authentication and Reseller product pricing: what each level can and cannot see', () => {
  const ROUTES = (id: string): Array<[string, string, unknown?]> => [
    ['GET', '/reseller-catalog/master-products'],
    ['POST', '/reseller-catalog/master-products', { sku: 'X-1', name: 'X', base_cost: '1.00' }],
    ['GET', `/reseller-catalog/master-products/${id}`],
    ['PUT', `/reseller-catalog/master-products/${id}`, { name: 'renamed' }],
    ['DELETE', `/reseller-catalog/master-products/${id}`],
    ['GET', '/reseller-catalog/my-catalog'],
    ['GET', `/reseller-catalog/my-catalog/${id}`],
    ['GET', '/reseller-catalog/pricing'],
    ['POST', '/reseller-catalog/pricing/set', { product_id: id, sub_reseller_id: 'delhi', margin_percent: 50 }],
    ['GET', `/reseller-catalog/pricing/${id}/breakdown`],
  ];

  it("cross-tenant matrix: no tenant's member reaches another tenant's catalog routes, by X-Tenant or X-Effective-Tenant, and nothing changes", async () => {
    const members = { owner: () => owner, b: () => b, c: () => c, d: () => d, s: () => s };
    const before = await api(host, c, 'GET', '/reseller-catalog/pricing');
    for (const [fromName, from] of Object.entries(members)) {
      for (const [toName, to] of Object.entries(members)) {
        if (fromName === toName || fromName === 'owner') continue; // the owner is the super admin: it may switch (spec 3, Authentication 1)
        for (const [method, p, body] of ROUTES(productId)) {
          const asOther = await api(host, { tenant: to().tenant, token: from().token }, method, p, body);
          expect([401, 403]).toContain(asOther.status);
          const switched = await api(host, from(), method, p, body, { 'x-effective-tenant': to().tenant });
          expect({ route: `${method} ${p}`, from: fromName, to: toName, status: switched.status, code: switched.body?.code }).toEqual({
            route: `${method} ${p}`, from: fromName, to: toName, status: 403, code: 'UNAUTHORIZED_CONTEXT',
          });
          expect(switched.body).toEqual({ error: expect.any(String), code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: to().tenant } });
        }
      }
    }
    expect((await api(host, c, 'GET', '/reseller-catalog/pricing')).body).toEqual(before.body);
    expect((await api(host, owner, 'GET', `/reseller-catalog/master-products/${productId}`)).body.product.name).toBe('Cotton kurta');
  });

  it('master products are the super admin tenant\'s alone: an admin of any other level gets 403 on every master route', async () => {
    for (const who of [b, c, d, s]) {
      for (const [method, p, body] of ROUTES(productId).slice(0, 5)) {
        const res = await api(host, who, method, p, body);
        expect({ who: who.tenant, route: `${method} ${p}`, status: res.status, code: res.body.code }).toEqual({ who: who.tenant, route: `${method} ${p}`, status: 403, code: 'FORBIDDEN' });
        expect(Object.keys(res.body).sort()).toEqual(['code', 'details', 'error']);
      }
    }
  });

  it("C never sees B's cost from A, nor A's base cost, outside the breakdown: my-catalog and pricing carry its own cost only", async () => {
    for (const [who, hidden] of [[c, ['999.99', '1124.99']], [d, ['999.99', '1124.99', '1249.98']], [b, ['999.99']]] as const) {
      const seen = JSON.stringify([
        (await api(host, who, 'GET', '/reseller-catalog/my-catalog')).body,
        (await api(host, who, 'GET', `/reseller-catalog/my-catalog/${productId}`)).body,
        (await api(host, who, 'GET', '/reseller-catalog/pricing')).body,
      ]);
      for (const amount of hidden) expect(seen).not.toContain(amount);
      expect(seen).not.toContain('base_cost');
    }
  });

  it('the breakdown needs catalog.view_costs: a member with catalog.view only gets 403 and no amounts', async () => {
    const viewer = await memberWith(host, c, 'catalog-viewer', ['catalog.view']);
    const res = await api(host, viewer, 'GET', `/reseller-catalog/pricing/${productId}/breakdown`);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: expect.any(String), code: expect.any(String), details: expect.any(Object) });
    expect(JSON.stringify(res.body)).not.toContain('999.99');
    expect((await api(host, viewer, 'GET', '/reseller-catalog/my-catalog')).status).toBe(200);
    expect((await api(host, viewer, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: 'delhi', margin_percent: 20 })).status).toBe(403);
  });

  it("a sibling sees its own chain only: S's breakdown is owner → B → S, never C; its cost is B's default price", async () => {
    const res = await api(host, s, 'GET', `/reseller-catalog/pricing/${productId}/breakdown`);
    expect(res.body.breakdown.map((r: { tenant_id: string }) => r.tenant_id)).toEqual([owner.tenant, b.tenant, s.tenant]);
    // B set no price for S: 1124.99 × 1.15 = 1293.7385 → 1293.74.
    expect(res.body.your_cost).toBe('1293.74');
    expect(JSON.stringify(res.body)).not.toContain(c.tenant);
    expect((await api(host, s, 'GET', '/reseller-catalog/pricing')).body).toEqual({ pricing: [] });
  });

  it('only direct sub-resellers can be priced: a sibling, a grandchild, the parent and a stranger are 404, and nothing is written', async () => {
    const tries: Array<[Member, string]> = [
      [s, c.tenant], // sibling
      [b, d.tenant], // grandchild
      [c, b.tenant], // own parent
      [d, c.tenant], // own parent, from the bottom
      [c, 'surat'], // a cousin by alias
      [owner, c.tenant], // below, but not directly
    ];
    for (const [who, target] of tries) {
      const res = await api(host, who, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: target, margin_percent: 30 });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    for (const who of [owner, b, c, d, s]) {
      const rows = (await api(host, who, 'GET', '/reseller-catalog/pricing')).body.pricing;
      expect(rows.every((r: { margin_percent: number }) => r.margin_percent !== 30)).toBe(true);
    }
    expect((await api(host, d, 'GET', `/reseller-catalog/my-catalog/${productId}`)).body.product.your_cost).toBe(COSTS.d);
  });
});

describe('spec 3, Reseller product pricing: concurrent changes and the related operations', () => {
  it('changes made at the same time at three levels converge on the latest of each, at every level', async () => {
    const at = async (who: Member) => (await api(host, who, 'GET', `/reseller-catalog/my-catalog/${otherId}`)).body.product.your_cost;
    await Promise.all([
      api(host, owner, 'PUT', `/reseller-catalog/master-products/${otherId}`, { base_cost: '2000.00' }),
      api(host, b, 'POST', '/reseller-catalog/pricing/set', { product_id: otherId, sub_reseller_id: c.tenant, margin_percent: 20 }),
      api(host, c, 'POST', '/reseller-catalog/pricing/set', { product_id: otherId, sub_reseller_id: d.tenant, margin_percent: 10 }),
    ]);
    // 2000.00 × 1.15 = 2300.00; × 1.20 = 2760.00; × 1.10 = 3036.00.
    expect([await at(owner), await at(b), await at(c), await at(d)]).toEqual(['2000.00', '2300.00', '2760.00', '3036.00']);
  });

  it('a stale cost line (computed before the one held) never replaces a newer one', async () => {
    const before = (await api(host, b, 'GET', `/reseller-catalog/my-catalog/${otherId}`)).body.product;
    const product = { ...before, recommended_retail_price: null, track_inventory: true, status: 'active' };
    delete product.your_cost;
    delete product.minimum_margin_percent;
    delete product.suggested_selling_price;
    delete product.is_available;
    // Stamps older than the master product's and B's price row's change times.
    const stale = { product, cost: '1.00', is_available: true, minimum_margin_percent: 10, breakdown: [], stamps: [1, 1] };
    const push = (line: object) => host.call('tenants.call_related', { tenant: b.tenant, operation: 'reseller_catalog.apply_costs', input: { lines: [line], removed: [] } }, { asModule: 'reseller_catalog' });
    await push(stale);
    expect((await api(host, b, 'GET', `/reseller-catalog/my-catalog/${otherId}`)).body.product.your_cost).toBe(before.your_cost);
    // A real change still goes through: 2100.00 × 1.15 = 2415.00.
    expect((await api(host, owner, 'PUT', `/reseller-catalog/master-products/${otherId}`, { base_cost: '2100.00' })).status).toBe(200);
    expect((await api(host, b, 'GET', `/reseller-catalog/my-catalog/${otherId}`)).body.product.your_cost).toBe('2415.00');
  });

  it('only a direct sub-reseller gets lines from a tenant, and only a tenant above hands costs down', async () => {
    // The super admin's copy asks B (a descendant it may call) as if it were B's sub-reseller: refused.
    await expect(host.call('tenants.call_related', { tenant: b.tenant, operation: 'reseller_catalog.lines_for_child', input: {} }, { asModule: 'reseller_catalog' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    // And nothing reaches the top through apply_costs: level 0 keeps no lines of its own.
    await expect(host.call('reseller_catalog.apply_costs', { lines: [], removed: [] })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
