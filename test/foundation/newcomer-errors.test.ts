import pino from 'pino';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia, platformWithCatalog } from '../bus/support';

/**
 * The mistakes a newcomer following the README makes first, each answered with what to do instead
 * (DESIGN.md Conventions: "every unknown route ... gets a clear JSON error"; docs/reference/errors.md: 405 with Allow when the path exists but takes other methods). Module routes behave like core ones.
 */
describe('spec 1 Errors, docs/reference/errors.md: module routes answer 405 and HEAD like core routes; 404s say what was missed', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    ({ tp, owner } = await platformWithCatalog());
  }, 120_000);
  afterAll(() => tp.close());

  test('a module path asked with a method it does not take is 405 with Allow and details.allowed', async () => {
    const res = await tp.api('/catalog/items', { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(res.body).toEqual({ message: '/api/v1/catalog/items does not take DELETE; it takes GET, HEAD, POST.', code: 'METHOD_NOT_ALLOWED', details: { allowed: ['GET', 'HEAD', 'POST'] } });
    const item = await tp.api('/catalog/items/sku-1', { method: 'PUT', token: owner.token, tenant: 'acme', body: {} });
    expect([item.status, item.body.details]).toEqual([405, { allowed: ['GET', 'HEAD'] }]);
  });

  test('HEAD on a module GET route is served as GET, without a body', async () => {
    const res = await tp.api('/catalog/items', { method: 'HEAD', token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
  });

  test('a module route called without naming the tenant says to send X-Tenant', async () => {
    const res = await tp.api('/catalog/items', { token: owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      message: "No route for GET /api/v1/catalog/items. Module routes (e.g. /orders) are served in a tenant: name it with the X-Tenant header or the tenant's subdomain.",
      code: 'ROUTE_NOT_FOUND',
    });
  });

  test('a route of a module the tenant has not installed points at GET /modules', async () => {
    const other = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Other', alias: 'other' } });
    expect(other.status).toBe(201);
    const res = await tp.api('/catalog/items', { token: owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'other' } });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("No route for GET /api/v1/catalog/items. A module's routes exist in a tenant once it has installed the module (GET /api/v1/modules).");
  });

  test('installing a module by its folder name (payment-razorpay) names the alias to use', async () => {
    const res = await tp.api('/modules/cata-log/install', { token: owner.token, tenant: 'acme', body: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Module cata-log is not available. Module aliases use underscores: cata_log.', code: 'NOT_FOUND', details: { module: 'cata-log' } });
  });
});

describe('DESIGN Conventions (logs are pino JSON): a log line names its part once', () => {
  test('installing a module logs module-data lines with one "part" key, not the kernel\'s and its own', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const tp = await startTestPlatform({}, undefined, logger);
    try {
      const owner = await tp.install('acme');
      await addFixtureModules(tp, ['catalog']);
      await installVia(tp, owner.token, 'acme', 'catalog');
      const created = lines.filter((l) => l.includes('"module-data"'));
      expect(created.length).toBeGreaterThan(0);
      // JSON.parse keeps the last of two equal keys silently: count them in the text.
      expect(lines.filter((l) => (l.match(/"part":/g) ?? []).length > 1)).toEqual([]);
    } finally {
      await tp.close();
    }
  }, 120_000);
});
