import { startTestPlatform, type TestPlatform } from '../support/test-platform';

describe('DESIGN Conventions: JSON errors, limits and health', () => {
  let tp: TestPlatform;

  beforeAll(async () => {
    tp = await startTestPlatform({ BODY_LIMIT: '2kb' });
  });
  afterAll(() => tp.close());

  test('malformed JSON is a 400 JSON error without a stack', async () => {
    const res = await tp.api('/install/owner', { rawBody: '{"organization_name": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body is not valid JSON.', code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] }, details: { errors: { request: ['The request body is not valid JSON.'] } } });
  });

  test('a body over the limit is a 413 JSON error, and the connection closes after it (the unread rest must not meet the next request)', async () => {
    const res = await tp.api('/install/owner', { body: { organization_name: 'x'.repeat(5000) } });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { limit: 2048 } });
    expect(res.headers.get('connection')).toBe('close');
  });

  test('an unknown route is a 404 JSON error, inside and outside /api/v1', async () => {
    const inside = await tp.api('/no/such/route');
    expect(inside.status).toBe(404);
    // No tenant named: the message says where module routes live.
    expect(inside.body).toEqual({ message: expect.stringMatching(/^No route for GET \/api\/v1\/no\/such\/route\. Module routes .* X-Tenant header/), code: 'ROUTE_NOT_FOUND' });
    const outside = await fetch(`${tp.url}/nothing-here`);
    expect(outside.status).toBe(404);
    expect(outside.headers.get('content-type')).toMatch(/application\/json/);
  });

  test('every response carries a request id, and a valid given one is echoed', async () => {
    const res = await tp.api('/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const other = await tp.api('/health');
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('GET /health reports database and Redis state', async () => {
    const res = await tp.api('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: { state: 'up', embedded: false } });
    expect(res.body.redis.state).toBe(process.env.REDIS_URL ? 'up' : 'not_configured');
  });

  test('install validates every field at once', async () => {
    const res = await tp.api('/install/owner', { body: { organization_slug: 'has space', email: 'bad', password: 'short' } });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'name', 'organization_name', 'organization_slug', 'password']);
  });
});
