import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, setGatewaySettings, type Who } from './support';

/**
 * Spec 1, GraphQL rules 3, 4 and 8, and issue 5 item 8 (per-request batching): resolvers reach
 * modules only through the bus, as the edge caller "graphql", with the request's user and tenant.
 */
describe('spec 1 GraphQL rules 3, 4, 8: resolvers, permissions, audit', () => {
  let tp: TestPlatform;
  let owner: Who;
  let tenantId: string;
  let viewer: Who; // shop.view only
  let stranger: Who; // no shop permission

  /** Bus audit records of one request (the bus writes one per call, with the request id). */
  const busCalls = async (requestId: string, action?: string) => {
    await tp.platform.kernel.audit.flush();
    const rows = await tp.platform.central.models.AuditEntry.findAll({ where: { tenant_id: tenantId } });
    return rows.filter((r) => (r.details as { request_id?: string } | null)?.request_id === requestId && (!action || r.action === action));
  };

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    tenantId = o.tenantId;
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop', 'stock']);
    await installModule(tp, o.token, 'acme', 'shop');
    await installModule(tp, o.token, 'acme', 'stock');
    await tp.api('/roles', { token: o.token, tenant: 'acme', body: { name: 'shop-viewer', permissions: ['shop.view'] } });
    viewer = { token: (await addMember(tp, o.token, 'acme', { email: 'viewer@acme.example', role: 'shop-viewer' })).token, tenant: 'acme' };
    stranger = { token: (await addMember(tp, o.token, 'acme', { email: 'guest@acme.example' })).token, tenant: 'acme' };
  }, 120_000);
  afterAll(() => tp?.close());

  describe('spec 1 GraphQL rule 3: resolvers call the bus', () => {
    test('each operation field is one bus call by the edge caller graphql, audited with the request id', async () => {
      const res = await gql(tp, owner, '{ product(sku: "P-01") { sku } }');
      expect(res.body).toEqual({ data: { product: { sku: 'P-01' } } });
      const calls = await busCalls(res.headers.get('x-request-id')!);
      expect(calls.map((c) => ({ action: c.action, target: c.target, actor: c.actor_id, status: c.status }))).toEqual([
        { action: 'shop.get_product', target: 'edge:graphql', actor: expect.any(String), status: 'ok' },
      ]);
    });

    test('a consumes violation in module code surfaces as a GraphQL error at its field', async () => {
      const res = await gql(tp, owner, '{ peek product(sku: "P-01") { sku } }');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ peek: null, product: { sku: 'P-01' } });
      expect(res.body.errors).toEqual([
        {
          message: 'Module "shop" may not call "stock.count_units": add it to api.consumes in its module.json.',
          locations: [{ line: 1, column: 3 }],
          path: ['peek'],
          extensions: { code: 'OPERATION_NOT_CONSUMED', operation: 'stock.count_units', module: 'shop' },
        },
      ]);
    });

    test("a module's schema may only bind operations its manifest consumes, like its code", async () => {
      const res = await gql(tp, owner, '{ stockUnits }');
      expect(res.body.data).toEqual({ stockUnits: null });
      expect(res.body.errors[0]).toMatchObject({ path: ['stockUnits'], extensions: { code: 'OPERATION_NOT_CONSUMED', module: 'shop', operation: 'stock.count_units' } });
      // The same operation through its own derived field is fine.
      expect((await gql(tp, owner, '{ stock_count_units }')).body).toEqual({ data: { stock_count_units: 42 } });
    });

    test('a derived mutation whose code calls what it does not consume fails the same way', async () => {
      const res = await gql(tp, owner, 'mutation { stock_reserve }');
      expect(res.body.errors[0]).toMatchObject({ path: ['stock_reserve'], extensions: { code: 'OPERATION_NOT_CONSUMED', module: 'stock' } });
    });

    test("a module's business error keeps its code and message; an internal failure does not leak", async () => {
      const missing = await gql(tp, owner, '{ product(sku: "NOPE") { sku } }');
      expect(missing.body.errors[0]).toMatchObject({ message: 'No product NOPE.', path: ['product'], extensions: { code: 'PRODUCT_NOT_FOUND', sku: 'NOPE' } });
      const boom = await gql(tp, owner, '{ boom }');
      expect(boom.status).toBe(200);
      expect(boom.body.errors).toEqual([{ message: 'Internal server error.', locations: [{ line: 1, column: 3 }], path: ['boom'], extensions: { code: 'MODULE_ERROR' } }]);
      expect(JSON.stringify(boom.body)).not.toMatch(/postgres|secret|stack/);
    });
  });

  describe('spec 1 GraphQL rule 4: context and field-level permissions', () => {
    test("the module's handler runs for the requesting user, in their tenant, called by the graphql edge", async () => {
      const res = await gql(tp, viewer, '{ stock_get_whoami }');
      expect(res.body).toEqual({ data: { stock_get_whoami: { caller: 'graphql', user: 'viewer@acme.example', tenant: tenantId } } });
    });

    test("the operation's permission is checked for the user: without shop.view the field is refused", async () => {
      const res = await gql(tp, stranger, '{ product(sku: "P-01") { sku } stock_get_level(input: {sku: "P-01"}) }');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ product: null, stock_get_level: { sku: 'P-01', level: 7 } });
      expect(res.body.errors).toEqual([
        expect.objectContaining({ path: ['product'], extensions: { code: 'FORBIDDEN', operation: 'shop.get_product', permission: 'shop.view' } }),
      ]);
    });

    test('a field bound to a permission is null with an error for users without it, the rest of the object intact', async () => {
      const res = await gql(tp, viewer, '{ product(sku: "P-02") { sku price cost } }');
      expect(res.body.data).toEqual({ product: { sku: 'P-02', price: '2.50', cost: null } });
      expect(res.body.errors).toEqual([
        {
          message: 'The field "Product.cost" requires the permission "shop.costs".',
          locations: [{ line: 1, column: 36 }],
          path: ['product', 'cost'],
          extensions: { code: 'FORBIDDEN', field: 'Product.cost', permission: 'shop.costs' },
        },
      ]);
      const full = await gql(tp, owner, '{ product(sku: "P-02") { cost } }');
      expect(full.body).toEqual({ data: { product: { cost: '2.00' } } });
    });

    test('mutations need the operation permission too', async () => {
      const res = await gql(tp, viewer, 'mutation { addProduct(input: {sku: "NEW-1", name: "New", price: "1.00"}) { sku } }');
      expect(res.body.errors[0]).toMatchObject({ path: ['addProduct'], extensions: { code: 'FORBIDDEN', permission: 'shop.manage' } });
    });
  });

  describe('issue 5 item 8: per-request batching of identical bus calls', () => {
    test('twenty products from two suppliers make two supplier calls, not twenty', async () => {
      const res = await gql(tp, owner, '{ products(limit: 20) { sku supplier { name } } }');
      expect(res.body.data.products).toHaveLength(20);
      expect(new Set(res.body.data.products.map((p: { supplier: { name: string } }) => p.supplier.name))).toEqual(new Set(['Tea Gardens Ltd', 'Coffee Co-op']));
      const requestId = res.headers.get('x-request-id')!;
      expect(await busCalls(requestId, 'shop.get_supplier')).toHaveLength(2);
      expect(await busCalls(requestId, 'shop.list_products')).toHaveLength(1);
    });

    test('identical root fields under different aliases share one call', async () => {
      const res = await gql(tp, owner, '{ a: product(sku: "P-05") { sku } b: product(sku: "P-05") { name } c: product(sku: "P-06") { sku } }');
      expect(res.body.data).toEqual({ a: { sku: 'P-05' }, b: { name: 'Product 5' }, c: { sku: 'P-06' } });
      expect(await busCalls(res.headers.get('x-request-id')!, 'shop.get_product')).toHaveLength(2);
    });

    test('the cache lives for one request only', async () => {
      const first = await gql(tp, owner, '{ product(sku: "P-07") { sku } }');
      const second = await gql(tp, owner, '{ product(sku: "P-07") { sku } }');
      expect(await busCalls(first.headers.get('x-request-id')!, 'shop.get_product')).toHaveLength(1);
      expect(await busCalls(second.headers.get('x-request-id')!, 'shop.get_product')).toHaveLength(1);
    });

    test('identical mutations are never merged', async () => {
      const m = 'mutation { a: addProduct(input: {sku: "DUP-1", name: "D", price: "1.00"}) { sku } b: addProduct(input: {sku: "DUP-1", name: "D", price: "1.00"}) { sku } }';
      const res = await gql(tp, owner, m);
      expect(res.body.data).toEqual({ a: { sku: 'DUP-1' }, b: { sku: 'DUP-1' } });
      expect(await busCalls(res.headers.get('x-request-id')!, 'shop.add_product')).toHaveLength(2);
    });
  });

  describe('spec 1 GraphQL rule 8: mutations in the audit log when audit_mutations is on', () => {
    const mutationAudits = async (requestId: string) => (await busCalls(requestId, 'graphql.mutation')).map((r) => ({ actor: r.actor_id, target: r.target, status: r.status, details: r.details }));

    test('off (the default): no graphql.mutation record', async () => {
      const res = await gql(tp, owner, 'mutation AddOne { addProduct(input: {sku: "AUD-0", name: "A", price: "1.00"}) { sku } }');
      expect(res.body.data.addProduct.sku).toBe('AUD-0');
      expect(await mutationAudits(res.headers.get('x-request-id')!)).toEqual([]);
    });

    test('on: each mutation is recorded with the user, operation, fields and query hash; never variable values', async () => {
      await setGatewaySettings(tp, owner, { audit_mutations: true });
      const q = 'mutation AddOne($p: ProductInput!) { addProduct(input: $p) { sku } stock_adjust(input: {sku: "P-01", delta: 1}) }';
      const res = await gql(tp, owner, q, { variables: { p: { sku: 'AUD-1', name: 'secret-name', price: '1.00' } } });
      expect(res.body.errors).toBeUndefined();
      const audits = await mutationAudits(res.headers.get('x-request-id')!);
      expect(audits).toEqual([
        {
          actor: expect.any(String),
          target: 'AddOne',
          status: 'ok',
          details: { operation_name: 'AddOne', fields: ['addProduct', 'stock_adjust'], query_hash: expect.stringMatching(/^[a-f0-9]{64}$/), persisted: false, variables: ['p'], request_id: res.headers.get('x-request-id') },
        },
      ]);
      expect(JSON.stringify(audits)).not.toContain('secret-name');
    });

    test('a refused mutation is recorded as an error with its codes; queries are never recorded', async () => {
      const refused = await gql(tp, viewer, 'mutation { addProduct(input: {sku: "AUD-2", name: "A", price: "1.00"}) { sku } }');
      expect(await mutationAudits(refused.headers.get('x-request-id')!)).toEqual([expect.objectContaining({ status: 'error', details: expect.objectContaining({ errors: ['FORBIDDEN'] }) })]);
      const query = await gql(tp, owner, '{ product(sku: "P-01") { sku } }');
      expect(await mutationAudits(query.headers.get('x-request-id')!)).toEqual([]);
      await setGatewaySettings(tp, owner, { audit_mutations: false });
    });
  });
});
