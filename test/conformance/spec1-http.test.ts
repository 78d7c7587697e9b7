/**
 * Spec 1 checked from outside, as a client meets it first: the /api/v1 prefix, tenant routing by
 * header and subdomain, authentication, and JSON errors for unknown routes, wrong methods, malformed
 * and oversized bodies (DESIGN.md, Conventions), in the platform shape and in the GraphQL shape.
 */
import { httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';

let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;

beforeAll(async () => {
  tp = await startTestPlatform({ BODY_LIMIT: '4kb' });
  owner = await tp.install('acme');
});
afterAll(() => tp.close());

const raw = (path: string, method: string, headers: Record<string, string>, body?: string) =>
  httpRequest(`${tp.url}${path}`, method, headers, body).then((r) => ({ ...r, body: r.text ? JSON.parse(r.text) : undefined }));

describe('spec 1 Versioning 1: the interface is under /api/v1', () => {
  test('the same request without the prefix is a JSON 404, with the prefix it answers', async () => {
    const auth = { authorization: `Bearer ${owner.token}`, 'x-tenant': 'acme' };
    const bare = await raw('/auth/me', 'GET', auth);
    expect(bare.status).toBe(404);
    expect(bare.headers.get('content-type')).toMatch(/^application\/json/);
    expect(bare.body).toEqual({ message: 'No route for GET /auth/me.', code: 'ROUTE_NOT_FOUND' });
    expect((await raw('/api/v1/auth/me', 'GET', auth)).status).toBe(200);
  });
});

describe('spec 1 Tenant onboarding, Routing: <subdomain>.<root_domain> or X-Tenant', () => {
  test('the host resolves the tenant by alias or id, in any case and with a port', async () => {
    for (const host of ['acme.mandi.test', 'ACME.Mandi.Test', `${owner.tenantId}.mandi.test:8443`]) {
      const res = await raw('/api/v1/auth/me', 'GET', { host, authorization: `Bearer ${owner.token}` });
      expect([host, res.status, res.body.tenant?.id]).toEqual([host, 200, owner.tenantId]);
    }
  });

  test('X-Tenant takes the id or the alias, in any case', async () => {
    for (const tenant of [owner.tenantId, owner.tenantId.toUpperCase(), 'AcMe']) {
      const res = await tp.api('/auth/me', { token: owner.token, tenant });
      expect([tenant, res.status, res.body.tenant?.id]).toEqual([tenant, 200, owner.tenantId]);
    }
  });

  test('an unknown tenant is a JSON 404 naming it, by header and by host', async () => {
    const byHeader = await tp.api('/auth/me', { token: owner.token, tenant: 'nosuchco' });
    const byHost = await raw('/api/v1/auth/me', 'GET', { host: 'nosuchco.mandi.test', authorization: `Bearer ${owner.token}` });
    for (const res of [byHeader, byHost]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Tenant "nosuchco" not found.', code: 'NOT_FOUND', details: { tenant: 'nosuchco' } });
    }
  });
});

describe('spec 1 Tenant domain: an 8-character id plus at least one lowercase alias', () => {
  test('a tenant made with an alias in capitals has its id and the lowercase alias; without an alias one is made from the name', async () => {
    const named = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'GloBex' } });
    expect(named.status).toBe(201);
    expect(named.body.tenant.domains).toEqual([expect.stringMatching(/^[a-z][a-z0-9]{7}$/), 'globex']);
    expect(named.body.tenant.domains[0]).toBe(named.body.tenant.id);
    const unnamed = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Initech Ltd' } });
    expect(unnamed.body.tenant.domains).toEqual([unnamed.body.tenant.id, 'initech-ltd']);
  });

  test('a ring that does not exist is the validation shape naming ring, and no tenant is made', async () => {
    const res = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Lost', alias: 'lost', ring: 'no-such-ring' } });
    expect([res.status, res.body]).toEqual([422, { message: 'The given data was invalid.', errors: { ring: ['The ring "no-such-ring" does not exist.'] } }]);
    expect((await tp.api('/admin/tenants/lost', { token: owner.token, tenant: 'acme' })).status).toBe(404);
    const canary = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Early', ring: 'canary' } });
    expect([canary.status, canary.body.tenant.ring]).toEqual([201, 'canary']);
  });
});

describe('spec 1 Authentication 1: bearer token plus tenant context', () => {
  test('no token is 401, a token without a tenant is 400 TENANT_REQUIRED, a garbage token is 401', async () => {
    const none = await tp.api('/profile', { tenant: 'acme' });
    expect([none.status, none.body]).toEqual([401, { message: 'Unauthenticated.', code: 'UNAUTHENTICATED' }]);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="mandi"');
    const noTenant = await tp.api('/profile', { token: owner.token });
    expect([noTenant.status, noTenant.body.code]).toEqual([400, 'TENANT_REQUIRED']);
    const bad = await tp.api('/profile', { token: 'mnd_not-a-real-token', tenant: 'acme' });
    expect([bad.status, bad.body.code]).toEqual([401, 'UNAUTHENTICATED']);
  });

  test('the GraphQL endpoint sits behind the same middleware and answers in the GraphQL shape', async () => {
    const none = await tp.api('/graphql', { tenant: 'acme', body: { query: '{ __typename }' } });
    expect([none.status, none.body]).toEqual([401, { errors: [{ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } }] }]);
    const ok = await tp.api('/graphql', { token: owner.token, tenant: 'acme', body: { query: '{ __typename }' } });
    expect([ok.status, ok.body]).toEqual([200, { data: { __typename: 'Query' } }]);
  });
});

describe('DESIGN Conventions: every unknown route, wrong method, malformed or oversized body is a clear JSON error', () => {
  test('an unknown path inside /api/v1 is 404 ROUTE_NOT_FOUND', async () => {
    const res = await tp.api('/no/such/thing', { token: owner.token, tenant: 'acme' });
    expect([res.status, res.body]).toEqual([404, { message: expect.stringMatching(/^No route for GET \/api\/v1\/no\/such\/thing\. A module's routes exist .* once it has installed/), code: 'ROUTE_NOT_FOUND' }]);
  });

  test('a known path asked with another method is 405 with Allow, naming the methods it takes', async () => {
    const cases: Array<[string, string, string[]]> = [
      ['POST', '/profile', ['GET', 'HEAD', 'PATCH']],
      ['PUT', '/notifications', ['GET', 'HEAD']],
      // DELETE /notifications/{id} matches this path too.
      ['GET', '/notifications/mark-all-read', ['DELETE', 'POST']],
      ['POST', '/profile/sessions/5b0c7a52-0000-4000-8000-000000000000', ['DELETE']],
      ['GET', '/auth/change-password', ['POST']],
      ['POST', '/cli/channel', ['DELETE', 'GET', 'HEAD', 'PUT']],
    ];
    for (const [method, path, allowed] of cases) {
      const res = await tp.api(path, { method, token: owner.token, tenant: 'acme', ...(method === 'GET' ? {} : { body: {} }) });
      expect([method, path, res.status, res.headers.get('allow')]).toEqual([method, path, 405, allowed.join(', ')]);
      expect(res.body).toEqual({ message: expect.stringContaining(method), code: 'METHOD_NOT_ALLOWED', details: { allowed } });
    }
  });

  test('the GraphQL endpoint takes POST only: other methods are 405 with Allow: POST, in the GraphQL shape', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await tp.api('/graphql', { method, token: owner.token, tenant: 'acme' });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'POST']);
      expect(res.body).toEqual({ errors: [{ message: expect.stringContaining(method), extensions: { code: 'METHOD_NOT_ALLOWED', allowed: ['POST'] } }] });
    }
  });

  test('malformed JSON is 400 MALFORMED_JSON; on the GraphQL endpoint in the GraphQL shape', async () => {
    const rest = await tp.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', rawBody: '{"name": ' });
    expect([rest.status, rest.body]).toEqual([400, { message: 'The request body is not valid JSON.', code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] }, details: { errors: { request: ['The request body is not valid JSON.'] } } }]);
    const gql = await tp.api('/graphql', { token: owner.token, tenant: 'acme', rawBody: '{"query": ' });
    expect([gql.status, gql.body]).toEqual([400, { errors: [{ message: 'The request body is not valid JSON.', extensions: { code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] } } }] }]);
  });

  test('a body over BODY_LIMIT is 413 PAYLOAD_TOO_LARGE naming the limit, in either shape', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000), query: '{ __typename }' });
    const rest = await tp.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', rawBody: big });
    expect([rest.status, rest.body]).toEqual([413, { message: 'The request body exceeds the limit of 4096 bytes.', code: 'PAYLOAD_TOO_LARGE', details: { limit: 4096 } }]);
    const gql = await tp.api('/graphql', { token: owner.token, tenant: 'acme', rawBody: big });
    expect(gql.status).toBe(413);
    expect(gql.body.errors[0].extensions).toEqual({ code: 'PAYLOAD_TOO_LARGE', limit: 4096 });
  });

  test('a path with broken percent-encoding is a 400 JSON error', async () => {
    const res = await tp.api('/notifications/%E0%A4%A/read', { method: 'PATCH', token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({ message: expect.any(String), code: 'BAD_REQUEST' });
  });

  test('a JSON null body where an object is expected is the validation shape, not a server error', async () => {
    const res = await tp.api('/roles', { token: owner.token, tenant: 'acme', rawBody: 'null' });
    expect([res.status, res.body.message, Object.keys(res.body.errors).sort()]).toEqual([422, 'The given data was invalid.', ['name', 'permissions']]);
  });

  test('no error body carries a stack', async () => {
    const res = await tp.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', rawBody: '[' });
    expect(JSON.stringify(res.body)).not.toMatch(/stack|at .*\.ts/);
  });
});
