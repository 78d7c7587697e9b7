import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, gql, installModule, setGatewaySettings, type Who } from './support';

/**
 * Spec 1, GraphQL gateway and Authentication 1/3 over HTTP: POST /graphql under the REST tenant and
 * token middleware, request errors as GraphQL errors with the fitting status, GET /graphql/schema,
 * GET /graphql/playground, introspection per tenant (rule 9).
 */
describe('spec 1 GraphQL gateway over HTTP', () => {
  let tp: TestPlatform;
  let owner: Who;
  let member: Who; // no graphql permissions
  let schemaViewer: Who;

  beforeAll(async () => {
    tp = await startTestPlatform();
    const o = await tp.install('acme');
    owner = { token: o.token, tenant: 'acme' };
    await addFixtureModules(tp, ['shop']);
    await installModule(tp, o.token, 'acme', 'shop');
    await tp.api('/roles', { token: o.token, tenant: 'acme', body: { name: 'gql-tools', permissions: ['shop.view', 'graphql.schema.view', 'graphql.playground.access'] } });
    member = { token: (await addMember(tp, o.token, 'acme', { email: 'm@acme.example' })).token, tenant: 'acme' };
    schemaViewer = { token: (await addMember(tp, o.token, 'acme', { email: 'tools@acme.example', role: 'gql-tools' })).token, tenant: 'acme' };
  }, 120_000);
  afterAll(() => tp?.close());

  describe('spec 1 Authentication 1: same tenant and token middleware as REST', () => {
    test('no token: 401 as a GraphQL error', async () => {
      const res = await tp.api('/graphql', { tenant: 'acme', body: { query: '{ _gateway { ring } }' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errors: [{ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } }] });
    });

    test('no tenant: 400; another tenant\'s token: 401', async () => {
      const none = await tp.api('/graphql', { token: owner.token, body: { query: '{ _gateway { ring } }' } });
      expect(none.status).toBe(400);
      expect(none.body.errors[0].extensions.code).toBe('TENANT_REQUIRED');
      await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Initech', alias: 'initech' } });
      const wrong = await tp.api('/graphql', { token: owner.token, tenant: 'initech', body: { query: '{ _gateway { ring } }' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body.errors[0].message).toBe('This access token was not issued for this tenant.');
    });

    test('a member runs operations in their tenant; the tenant subdomain works like X-Tenant', async () => {
      const res = await tp.api('/graphql', { token: member.token, headers: { host: 'acme.mandi.test' }, body: { query: '{ _gateway { ring } }' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { _gateway: { ring: 'stable' } } });
    });
  });

  describe('bad input: each a clear GraphQL error with the right status', () => {
    test('invalid syntax: 400 GRAPHQL_PARSE_FAILED with the location', async () => {
      const res = await gql(tp, owner, '{ product(sku: "P-01") { sku }');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [{ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 31 }], extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] });
    });

    test('an unknown field: 400 GRAPHQL_VALIDATION_FAILED', async () => {
      const res = await gql(tp, owner, '{ nope }');
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([{ message: 'Cannot query field "nope" on type "Query".', locations: [{ line: 1, column: 3 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }]);
    });

    test('operationName picks the operation; an unknown one is 400; several without one is 400', async () => {
      const doc = 'query A { _gateway { ring } } query B { product(sku: "P-01") { sku } }';
      expect((await gql(tp, owner, doc, { operationName: 'B' })).body).toEqual({ data: { product: { sku: 'P-01' } } });
      const unknown = await gql(tp, owner, doc, { operationName: 'C' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors).toEqual([{ message: 'The document has no operation named "C".', extensions: { code: 'OPERATION_NAME_UNKNOWN', operationName: 'C' } }]);
      const ambiguous = await gql(tp, owner, doc);
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body.errors[0].extensions.code).toBe('OPERATION_NAME_REQUIRED');
    });

    test('variables of the wrong type, or a required one missing: 400 GRAPHQL_VARIABLES_INVALID', async () => {
      const q = 'query P($sku: String!, $n: Int) { product(sku: $sku) { sku } products(limit: $n) { sku } }';
      const wrong = await gql(tp, owner, q, { variables: { sku: 'P-01', n: 'ten' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errors).toEqual([
        { message: 'Variable "$n" got invalid value "ten"; Int cannot represent non-integer value: "ten"', locations: [{ line: 1, column: 24 }], extensions: { code: 'GRAPHQL_VARIABLES_INVALID' } },
      ]);
      const missing = await gql(tp, owner, q, { variables: {} });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].message).toBe('Variable "$sku" of required type "String!" was not provided.');
    });

    test('a body that is not JSON: 415', async () => {
      const res = await tp.api('/graphql', { token: owner.token, tenant: 'acme', rawBody: '{ _gateway { ring } }', headers: { 'content-type': 'application/graphql' } });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ errors: [{ message: 'Send the GraphQL request as a JSON body with Content-Type: application/json.', extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }] });
    });

    test('malformed JSON: 400 as a GraphQL error, though it fails before routing', async () => {
      const res = await tp.api('/graphql', { token: owner.token, tenant: 'acme', rawBody: '{"query": "{ _gateway', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] } } }] });
    });

    test('no query, a non-string query, a batch array, non-object variables: 400', async () => {
      const codes = async (body: unknown) => {
        const res = await tp.api('/graphql', { token: owner.token, tenant: 'acme', rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        return [res.status, res.body.errors[0].extensions.code, res.body.errors[0].message];
      };
      expect(await codes({})).toEqual([400, 'QUERY_MISSING', 'Send the operation text as "query", or a persisted query\'s hash as extensions.persistedQuery.']);
      expect(await codes({ query: 5 })).toEqual([400, 'BAD_REQUEST', '"query" must be a string.']);
      expect(await codes([{ query: '{ _gateway { ring } }' }])).toEqual([400, 'BATCH_NOT_SUPPORTED', 'Batched requests (a JSON array) are not supported: send one operation per request.']);
      expect(await codes({ query: '{ _gateway { ring } }', variables: [1] })).toEqual([400, 'BAD_REQUEST', '"variables" must be an object.']);
    });

    test('GET /graphql: 405 with Allow: POST', async () => {
      const res = await tp.api('/graphql', { token: owner.token, tenant: 'acme' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.errors[0].extensions.code).toBe('METHOD_NOT_ALLOWED');
    });
  });

  test('GraphQL-over-HTTP media types: application/json by default, application/graphql-response+json when asked', async () => {
    const plain = await gql(tp, owner, '{ _gateway { ring } }');
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const modern = await gql(tp, owner, '{ _gateway { ring } }', { headers: { accept: 'application/graphql-response+json, application/json;q=0.9' } });
    expect(modern.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect(modern.body).toEqual({ data: { _gateway: { ring: 'stable' } } });
  });

  describe('GET /graphql/schema (spec 1 Authentication 3: graphql.schema.view)', () => {
    test('needs the permission', async () => {
      const res = await tp.api('/graphql/schema', { token: member.token, tenant: 'acme' });
      expect(res.status).toBe(403);
      expect(res.body.details).toEqual({ permission: 'graphql.schema.view' });
    });

    test('returns the merged SDL with its cache key; If-None-Match answers 304', async () => {
      const res = await tp.api('/graphql/schema', { token: schemaViewer.token, tenant: 'acme' });
      expect(res.status).toBe(200);
      const key = res.headers.get('x-schema-key')!;
      expect(key).toMatch(/^graphql:schema:stable:[0-9a-f]{16}$/);
      expect(res.body).toContain(`# ${key}\n`);
      expect(res.body).toContain('product(sku: String!): Product');
      const again = await tp.api('/graphql/schema', { token: schemaViewer.token, tenant: 'acme', headers: { 'if-none-match': res.headers.get('etag')! } });
      expect(again.status).toBe(304);
    });
  });

  describe('spec 1 GraphQL rule 9: introspection per tenant', () => {
    afterAll(() => setGatewaySettings(tp, owner, { graphql: { introspection: null } }));

    test('on outside production by default', async () => {
      const res = await gql(tp, member, '{ __schema { queryType { name } } }');
      expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    });

    test('the tenant setting turns it off: __schema and __type are refused, __typename still works', async () => {
      const settings = await setGatewaySettings(tp, owner, { graphql: { introspection: false } });
      expect(settings.body.graphql.introspection).toBe(false);
      const res = await gql(tp, member, '{ __schema { queryType { name } } }');
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          message: 'Introspection is disabled for this tenant (field "__schema"); see GET /graphql/schema for the schema.',
          locations: [{ line: 1, column: 3 }],
          extensions: { code: 'GRAPHQL_INTROSPECTION_DISABLED' },
        },
      ]);
      expect((await gql(tp, member, '{ __type(name: "Product") { name } }')).status).toBe(400);
      expect((await gql(tp, member, '{ __typename _gateway { ring } }')).body).toEqual({ data: { __typename: 'Query', _gateway: { ring: 'stable' } } });
    });

    test('settings need settings.manage and take booleans (or null to fall back to the environment)', async () => {
      const denied = await tp.api('/graphql/settings', { method: 'PATCH', token: member.token, tenant: 'acme', body: { graphql: { introspection: true } } });
      expect(denied.status).toBe(403);
      const bad = await tp.api('/graphql/settings', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { graphql: { introspection: 'yes' }, audit_mutations: 1 } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual({ 'graphql.introspection': ['The value must be true, false or null.'], audit_mutations: ['The value must be true or false.'] });
      const stored = await tp.platform.central.models.Tenant.findByPk((await tp.platform.tenants.resolve('acme'))!.id);
      expect(stored!.settings).toMatchObject({ graphql: { introspection: false } });
    });
  });

  describe('GET /graphql/playground (spec 1 Authentication 3: graphql.playground.access)', () => {
    afterAll(() => setGatewaySettings(tp, owner, { graphql: { playground: null } }));

    test('needs the permission', async () => {
      const res = await tp.api('/graphql/playground', { token: member.token, tenant: 'acme' });
      expect(res.status).toBe(403);
      expect(res.body.details).toEqual({ permission: 'graphql.playground.access' });
    });

    test('serves a page that talks to this tenant\'s endpoint, under a strict CSP, with its assets from this platform', async () => {
      const res = await tp.api('/graphql/playground', { token: schemaViewer.token, tenant: 'acme' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/default-src 'none'; script-src 'self'; worker-src 'self';/);
      expect(csp).toContain("connect-src 'self'");
      const html = res.body as string;
      expect(html).toContain('data-endpoint="/api/v1/graphql"');
      expect(html).toContain(`data-tenant="${(await tp.platform.tenants.resolve('acme'))!.id}"`);
      // No inline script, and nothing from another origin: the script and styles are this platform's.
      expect(html).not.toMatch(/<script(?![^>]+src="\/api\/v1\/graphql\/playground\/)[^>]*>/);
      const assets = [...html.matchAll(/(?:src|href)="(\/api\/v1\/graphql\/playground\/[^"]+)"/g)].map((m) => m[1]);
      expect(assets).toEqual(['/api/v1/graphql/playground/app.css', '/api/v1/graphql/playground/app.js']);
      // Served without a token (a <script src> and a Worker cannot send one); unknown names are 404.
      for (const [file, type] of [['app.js', 'text/javascript'], ['app.css', 'text/css'], ['editor.worker.js', 'text/javascript'], ['graphql.worker.js', 'text/javascript']]) {
        const asset = await fetch(`${tp.url}/api/v1/graphql/playground/${file}`);
        expect([file, asset.status, asset.headers.get('content-type')]).toEqual([file, 200, `${type}; charset=utf-8`]);
      }
      expect((await fetch(`${tp.url}/api/v1/graphql/playground/inputs.json`)).status).toBe(404);
      expect((await fetch(`${tp.url}/api/v1/graphql/playground/..%2Fpackage.json`)).status).toBe(404);
    }, 60_000);

    test('a tenant may switch it off: 404', async () => {
      await setGatewaySettings(tp, owner, { graphql: { playground: false } });
      const res = await tp.api('/graphql/playground', { token: schemaViewer.token, tenant: 'acme' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('PLAYGROUND_DISABLED');
    });
  });
});
