import { createHash } from 'node:crypto';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, setGatewaySettings, type Who } from './support';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const byHash = (hash: string, version = 1) => ({ extensions: { persistedQuery: { version, sha256Hash: hash } } });

/** Spec 1, GraphQL gateway: persisted query endpoints, rule 1 (execution by hash) and rule 2 (persisted-only). */
describe('spec 1 GraphQL persisted queries (rules 1-2, Persisted query states)', () => {
  let tp: TestPlatform;
  let owner: Who;
  let viewer: Who;
  let other: Who;
  const PRODUCT = 'query Product($sku: String!) { product(sku: $sku) { sku name } }';

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop']);
    await installModule(tp, o.token, 'acme', 'shop');
    await tp.api('/roles', { token: o.token, tenant: 'acme', body: { name: 'shop-viewer', permissions: ['shop.view'] } });
    viewer = { token: (await addMember(tp, o.token, 'acme', { email: 'viewer@acme.example', role: 'shop-viewer' })).token, tenant: 'acme' };
    const globex = await tp.api('/admin/tenants', { token: o.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    await tp.platform.kernel.modules.install(globex.body.tenant.id, 'shop');
    other = { token: o.token, tenant: 'acme' }; // the owner is a super admin: X-Effective-Tenant reaches globex
  }, 120_000);
  afterAll(() => tp?.close());

  describe('spec 1 GraphQL gateway: POST/GET/DELETE /graphql/persisted', () => {
    test('absent → registered: the answer is the SHA-256 of the text and the name', async () => {
      const res = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: PRODUCT, name: 'Product by sku' } });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ hash: sha256(PRODUCT), name: 'Product by sku' });
      const again = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: PRODUCT, name: 'Product' } });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ hash: sha256(PRODUCT), name: 'Product' });
    });

    test('the list holds hash, name and query', async () => {
      const res = await tp.api('/graphql/persisted', { token: viewer.token, tenant: 'acme' });
      expect(res.status).toBe(200);
      expect(res.body.persisted_queries).toEqual([{ hash: sha256(PRODUCT), name: 'Product', query: PRODUCT, created_at: expect.any(String) }]);
    });

    test('registering needs graphql.persisted.manage; bad bodies get the 422 shape', async () => {
      const denied = await tp.api('/graphql/persisted', { token: viewer.token, tenant: 'acme', body: { query: '{ _gateway { ring } }', name: 'x' } });
      expect(denied.status).toBe(403);
      expect(denied.body.details).toEqual({ permission: 'graphql.persisted.manage' });
      const bad = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: '{ product(', name: '' } });
      expect(bad.status).toBe(422);
      expect(bad.body.message).toBe('The given data was invalid.');
      expect(bad.body.errors.name).toEqual(['The name field is required.']);
      expect(bad.body.errors.query[0]).toMatch(/^The query is not valid GraphQL: Syntax Error/);
    });

    test("a query that fails validation against the tenant's current schema: 422 in the validation shape, nothing stored", async () => {
      const texts = ['{ nope }', '{ product(sku: "P-01", colour: "red") { sku } }', 'query P($sku: Int!) { product(sku: $sku) { sku } }'];
      for (const query of texts) {
        const res = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query, name: 'Broken' } });
        expect(res.status).toBe(422);
        expect(res.body.message).toBe('The given data was invalid.');
        expect(Object.keys(res.body.errors)).toEqual(['query']);
      }
      const res = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: texts[0], name: 'Broken' } });
      expect(res.body.errors.query).toEqual(['The query is not valid against the current schema: Cannot query field "nope" on type "Query".']);
      const listed = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme' });
      expect(listed.body.persisted_queries.map((q: { name: string }) => q.name)).not.toContain('Broken');
      expect((await gql(tp, owner, undefined, byHash(sha256(texts[0])))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    });

    test('registered → removed; removing again is 404', async () => {
      const text = '{ _gateway { ring } }';
      const { body } = await tp.api('/graphql/persisted', { token: owner.token, tenant: 'acme', body: { query: text, name: 'Ring' } });
      expect((await gql(tp, owner, undefined, byHash(body.hash))).status).toBe(200);
      const removed = await tp.api(`/graphql/persisted/${body.hash}`, { method: 'DELETE', token: owner.token, tenant: 'acme' });
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ message: 'Persisted query removed.', hash: body.hash });
      // Removal reaches the cached lookup at once.
      const after = await gql(tp, owner, undefined, byHash(body.hash));
      expect(after.status).toBe(400);
      expect(after.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect((await tp.api(`/graphql/persisted/${body.hash}`, { method: 'DELETE', token: owner.token, tenant: 'acme' })).status).toBe(404);
    });
  });

  describe('spec 1 GraphQL rule 1: execution by hash', () => {
    test('extensions.persistedQuery {sha256Hash, version: 1} and no query text runs the registered operation', async () => {
      const res = await gql(tp, viewer, undefined, { ...byHash(sha256(PRODUCT)), variables: { sku: 'P-04' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { product: { sku: 'P-04', name: 'Product 4' } } });
    });

    test('an unknown hash is a 400 GraphQL error naming it', async () => {
      const hash = sha256('{ nothing }');
      const res = await gql(tp, owner, undefined, byHash(hash));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ message: `No persisted query has the hash ${hash}; register it with POST /graphql/persisted.`, extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', hash } }],
      });
    });

    test('version other than 1, a malformed hash, or a hash that does not match the text sent are refused', async () => {
      expect((await gql(tp, owner, undefined, byHash(sha256(PRODUCT), 2))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_VERSION_NOT_SUPPORTED');
      expect((await gql(tp, owner, undefined, byHash('abc'))).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_INVALID');
      const mismatch = await gql(tp, owner, '{ _gateway { ring } }', byHash(sha256(PRODUCT)));
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
    });

    test("a tenant's persisted queries are its own", async () => {
      const res = await tp.api('/graphql', { token: other.token, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' }, body: { ...byHash(sha256(PRODUCT)), variables: { sku: 'P-01' } } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    });
  });

  describe('spec 1 GraphQL rule 2: persisted-only mode', () => {
    afterAll(() => setGatewaySettings(tp, owner, { graphql: { persisted_queries_only: false } }));

    test('optional by default: ad-hoc operations run', async () => {
      expect((await gql(tp, viewer, '{ product(sku: "P-01") { sku } }')).status).toBe(200);
    });

    test('with graphql.persisted_queries_only, an operation without a registered hash is refused with 403', async () => {
      const settings = await setGatewaySettings(tp, owner, { graphql: { persisted_queries_only: true } });
      expect(settings.body.graphql.persisted_queries_only).toBe(true);
      const adhoc = await gql(tp, viewer, '{ product(sku: "P-01") { sku } }');
      expect(adhoc.status).toBe(403);
      expect(adhoc.body.errors).toEqual([
        {
          message: 'This tenant runs registered persisted queries only (graphql.persisted_queries_only): send extensions.persistedQuery with the hash of a registered operation.',
          extensions: { code: 'PERSISTED_QUERY_REQUIRED' },
        },
      ]);
      const unregistered = '{ products { sku } }';
      expect((await gql(tp, viewer, unregistered, byHash(sha256(unregistered)))).status).toBe(403);
    });

    test('registered operations still run, by hash or with their exact text', async () => {
      expect((await gql(tp, viewer, undefined, { ...byHash(sha256(PRODUCT)), variables: { sku: 'P-02' } })).body).toEqual({ data: { product: { sku: 'P-02', name: 'Product 2' } } });
      expect((await gql(tp, viewer, PRODUCT, { variables: { sku: 'P-03' } })).body).toEqual({ data: { product: { sku: 'P-03', name: 'Product 3' } } });
    });
  });
});
