import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, rootFields, type Who } from './support';

/**
 * Spec 1, GraphQL gateway rules 5-7 with real modules in real sandboxes: shop joins with its own
 * schema file, ledger through a provider declared by gqlx, stock and gqlx by derivation, loyal not
 * at all.
 */
describe('spec 1 GraphQL rules 5-7: how modules join the schema', () => {
  let tp: TestPlatform;
  let owner: Who;

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop', 'stock', 'loyal', 'ledger', 'gqlx', 'upsell']);
    for (const alias of ['shop', 'stock', 'loyal', 'ledger', 'gqlx', 'upsell']) await installModule(tp, o.token, 'acme', alias);
  }, 120_000);
  afterAll(() => tp?.close());

  describe('spec 1 GraphQL rule 5: three ways, in priority order', () => {
    test('(a) a schema file with its resolver map: typed fields resolved through the bus', async () => {
      const res = await gql(tp, owner, '{ product(sku: "P-03") { sku name price supplier { name } } }');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { product: { sku: 'P-03', name: 'Product 3', price: '3.50', supplier: { name: 'Tea Gardens Ltd' } } } });
    });

    test('(a) wins over derivation: a module with a schema file gets no derived fields', async () => {
      const names = (await rootFields(tp, owner, 'Query')).map((f) => f.name);
      expect(names).toEqual(expect.arrayContaining(['product', 'products']));
      expect(names).not.toContain('shop_get_product');
      expect((await rootFields(tp, owner, 'Mutation')).map((f) => f.name)).not.toContain('shop_add_product');
    });

    test('(a) wins over (b): a provider speaking for a module with its own schema file is ignored', async () => {
      const names = (await rootFields(tp, owner, 'Query')).map((f) => f.name);
      expect(names).not.toContain('shopFromProvider');
      const res = await gql(tp, owner, '{ shopFromProvider }');
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: 'Cannot query field "shopFromProvider" on type "Query".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    });

    test('(b) a provider declared by another module speaks for its alias and replaces derivation', async () => {
      const res = await gql(tp, owner, '{ balance(account: "cash") { account balance } }');
      expect(res.body).toEqual({ data: { balance: { account: 'cash', balance: 120 } } });
      const fields = await rootFields(tp, owner, 'Query');
      expect(fields.find((f) => f.name === 'balance')?.description).toBe('Balance of a ledger account (from the gqlx provider).');
      expect(fields.map((f) => f.name)).not.toContain('ledger_get_balance');
      expect((await rootFields(tp, owner, 'Mutation')).map((f) => f.name)).not.toContain('ledger_post_entry');
    });

    test('(c) the provider module itself still joins by derivation', async () => {
      const res = await gql(tp, owner, '{ gqlx_get_version }');
      expect(res.body).toEqual({ data: { gqlx_get_version: '1.0.0' } });
    });

    test('GET /graphql/schema shows how each module joined and the merged SDL', async () => {
      const res = await tp.api('/graphql/schema', { token: owner.token, tenant: 'acme' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.body).toContain('# shop@1.0.0: schema file\n');
      expect(res.body).toContain('# ledger@1.0.0: provider in gqlx@1.0.0\n');
      expect(res.body).toContain('# stock@1.0.0: derived\n');
      expect(res.body).toContain('# loyal@1.0.0: not joined\n');
      expect(res.body).toContain('type Product {');
      expect(res.body).toContain('balance(account: String!): Balance');
      expect(res.body).toContain('stock_count_units(input: JSON): JSON');
      expect(res.body).not.toContain('loyal_');
    });
    test('a module whose schema cannot merge is left out with a warning; every other module still answers', async () => {
      const sdl = (await tp.api('/graphql/schema', { token: owner.token, tenant: 'acme' })).body as string;
      expect(sdl).toContain('# upsell@1.0.0: not joined\n');
      expect(sdl).toMatch(/# warning: upsell@1\.0\.0 graphql\/schema\.graphql left out of the schema: Unable to merge GraphQL type "Product": Field "sku" already defined with a different type/);
      expect((await gql(tp, owner, '{ product(sku: "P-01") { sku } }')).body).toEqual({ data: { product: { sku: 'P-01' } } });
      expect((await gql(tp, owner, '{ upsell { sku } }')).status).toBe(400);
    });
  });

  describe('spec 1 GraphQL rule 6: automatic derivation', () => {
    test('operation "stock.get_level" becomes stock_get_level(input: JSON): JSON with the operation description', async () => {
      const fields = await rootFields(tp, owner, 'Query');
      const level = fields.find((f) => f.name === 'stock_get_level');
      expect(level).toEqual({ name: 'stock_get_level', description: 'Stock level of one sku.', args: [{ name: 'input', type: { name: 'JSON' } }], type: { name: 'JSON' } });
      const res = await gql(tp, owner, '{ stock_get_level(input: {sku: "P-01"}) }');
      expect(res.body).toEqual({ data: { stock_get_level: { sku: 'P-01', level: 7 } } });
    });

    test('a method name that starts with get, list, find, search, count, show or fetch makes a Query field; every other a Mutation field', async () => {
      const query = (await rootFields(tp, owner, 'Query')).map((f) => f.name).filter((n) => n.startsWith('stock_'));
      const mutation = (await rootFields(tp, owner, 'Mutation')).map((f) => f.name).filter((n) => n.startsWith('stock_'));
      // "starts with" as the spec words it, letters not words: "counterfeit_flag" starts with "count" (README, rule 6).
      expect(query.sort()).toEqual(['stock_count_units', 'stock_counterfeit_flag', 'stock_fetchAll', 'stock_find_bin', 'stock_get_level', 'stock_get_whoami', 'stock_list_bins', 'stock_search_bins', 'stock_show_bin']);
      expect(mutation.sort()).toEqual(['stock_adjust', 'stock_reserve']);
    });

    test('a derived mutation runs its operation with the input given; variables work as JSON', async () => {
      const res = await gql(tp, owner, 'mutation Adjust($in: JSON) { stock_adjust(input: $in) }', { variables: { in: { sku: 'P-02', delta: 3 } } });
      expect(res.body).toEqual({ data: { stock_adjust: { sku: 'P-02', level: 10 } } });
    });

    test('descriptions are carried verbatim, quotes included', async () => {
      const fields = await rootFields(tp, owner, 'Mutation');
      expect(fields.find((f) => f.name === 'stock_adjust')?.description).toBe('Adjusts a level "by hand" (quotes kept).');
    });

    test('the bus validates derived input: a missing required key is a field error with the 422 details', async () => {
      const res = await gql(tp, owner, '{ stock_get_level(input: {}) }');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ stock_get_level: null });
      expect(res.body.errors[0]).toMatchObject({ path: ['stock_get_level'], extensions: { code: 'VALIDATION_FAILED', errors: expect.any(Object) } });
    });
  });

  describe('spec 1 GraphQL rule 7: opt-outs', () => {
    test('graphql_expose: false leaves one operation out', async () => {
      const all = [...(await rootFields(tp, owner, 'Query')), ...(await rootFields(tp, owner, 'Mutation'))].map((f) => f.name);
      expect(all).not.toContain('stock_get_internal');
      expect(all).toContain('stock_get_level');
    });

    test('graphql.auto_resolve: false leaves the whole module out', async () => {
      const all = [...(await rootFields(tp, owner, 'Query')), ...(await rootFields(tp, owner, 'Mutation'))].map((f) => f.name);
      expect(all.filter((n) => n.startsWith('loyal_'))).toEqual([]);
      // The operations themselves still exist on the bus (REST, workflows, AI tools may use them).
      await expect(tp.platform.kernel.bus.exists((await tp.platform.tenants.resolve('acme'))!.id, 'loyal.get_points')).resolves.toBe(true);
    });
  });
});
