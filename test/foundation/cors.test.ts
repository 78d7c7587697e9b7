/**
 * Cross-origin calls from browser pages (not shown in the spec; docs/reference/environment.md, CORS_ORIGINS, and
 * core/kernel/http/cors.ts): preflights, headers on answers and errors, a narrowed list, and off.
 */
import { parseCorsOrigins } from '../../core/kernel/http/cors';
import { httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';

const SHOP = 'https://shop.example.com';

function preflight(tp: TestPlatform, path: string, origin: string) {
  return httpRequest(`${tp.url}/api/v1${path}`, 'OPTIONS', {
    origin,
    'access-control-request-method': 'POST',
    'access-control-request-headers': 'authorization, content-type, x-tenant',
  });
}

describe('CORS: by default any origin may call with a bearer token, never with credentials', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await startTestPlatform();
  });
  afterAll(() => tp.close());

  test('a preflight is answered 204 with the methods and headers the API takes, cached 10 minutes', async () => {
    const res = await preflight(tp, '/orders', SHOP);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization,Content-Type,X-Tenant,X-Effective-Tenant,X-Request-Id');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('answers and errors carry the origin header and expose what a client script needs', async () => {
    const ok = await httpRequest(`${tp.url}/api/v1/health`, 'GET', { origin: SHOP });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id.*Retry-After.*X-RateLimit-Remaining/);
    const denied = await httpRequest(`${tp.url}/api/v1/auth/me`, 'GET', { origin: SHOP });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('the socket\'s long-polling handshake answers a page of another origin', async () => {
    const res = await httpRequest(`${tp.url}/socket.io/?EIO=4&transport=polling`, 'GET', { origin: SHOP });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS_ORIGINS: a list of origins, or none', () => {
  test('a list answers its own origins (with Vary: Origin) and no others', async () => {
    const tp = await startTestPlatform({ CORS_ORIGINS: `${SHOP}, https://admin.example.com/` });
    try {
      const mine = await preflight(tp, '/orders', SHOP);
      expect(mine.status).toBe(204);
      expect(mine.headers.get('access-control-allow-origin')).toBe(SHOP);
      expect(mine.headers.get('vary')).toMatch(/Origin/);
      const admin = await httpRequest(`${tp.url}/api/v1/health`, 'GET', { origin: 'https://admin.example.com' });
      expect(admin.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      const other = await preflight(tp, '/orders', 'https://evil.example.net');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await tp.close();
    }
  });

  test('none sends no CORS headers', async () => {
    const tp = await startTestPlatform({ CORS_ORIGINS: 'none' });
    try {
      const res = await httpRequest(`${tp.url}/api/v1/health`, 'GET', { origin: SHOP });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await tp.close();
    }
  });

  test('a value that is not an origin is refused at start with what to write instead', () => {
    expect(parseCorsOrigins(undefined)).toBe('*');
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('none')).toBe(false);
    expect(parseCorsOrigins('http://localhost:5173,https://a.example.com/')).toEqual(['http://localhost:5173', 'https://a.example.com']);
    expect(() => parseCorsOrigins('https://shop.example.com/path')).toThrow(/CORS_ORIGINS must be \*, none, or comma-separated origins .* got "https:\/\/shop.example.com\/path"/);
    expect(() => parseCorsOrigins('shop.example.com')).toThrow(/got "shop.example.com"/);
  });
});
