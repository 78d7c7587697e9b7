/**
 * Spec 2, Workflows (Public webhook trigger), Live chat (public widget endpoints) and Limits: module
 * routes under /api/<prefix>/... outside /api/v1, with no authentication, the tenant resolved from
 * the token the module registered (core/kernel/modules/public-routes.ts), over real HTTP on a real platform
 * with the widgetry fixture running in the sandbox in two tenants.
 */
import { httpRequest } from '../support/test-platform';
import { widgetPlatform, callPublic, newToken, type WidgetPlatform } from './support';

let w: WidgetPlatform;
let acmeToken: string;
let globexToken: string;

beforeAll(async () => {
  w = await widgetPlatform();
  acmeToken = await w.openWidget('acme', 'Acme chat', ['https://shop.acme.example']);
  globexToken = await w.openWidget('globex', 'Globex chat', ['https://globex.example']);
}, 120_000);
afterAll(() => w.tp.close());

const call = (p: string, init?: Parameters<typeof callPublic>[2]) => callPublic(w.tp.url, p, init);

describe('spec 2: public widget endpoints under /api/widget/{token}, the tenant from the token', () => {
  test('each token lands in its own tenant: the operation reads that tenant\'s database, with no user, from the http edge', async () => {
    const acme = await call(`/widget/${acmeToken}/config`);
    expect(acme.status).toBe(200);
    expect(acme.body).toEqual({ name: 'Acme chat', widgets_here: ['Acme chat'], tenant: w.owner.tenantId, caller: 'http', user: null });
    const globex = await call(`/widget/${globexToken}/config`);
    expect(globex.status).toBe(200);
    expect(globex.body).toEqual({ name: 'Globex chat', widgets_here: ['Globex chat'], tenant: w.globexId, caller: 'http', user: null });
  });

  test('a POST writes into the token\'s tenant only; the handler gets the raw body and never the Authorization header', async () => {
    const res = await call(`/widget/${globexToken}/messages`, { body: { text: 'hello globex' }, headers: { authorization: 'Bearer stolen' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ raw_body: JSON.stringify({ text: 'hello globex' }), saw_authorization: false });
    const inGlobex = await w.asOwner('/widgetry/messages', undefined, 'globex');
    expect(inGlobex.body.messages.map((m: { text: string }) => m.text)).toEqual(['hello globex']);
    const inAcme = await w.asOwner('/widgetry/messages');
    expect(inAcme.body.messages).toEqual([]);
  });

  test('DESIGN Conventions: a malformed JSON body is answered by the route it reaches (400 with errors.request); on no route it is the 404', async () => {
    const post = (p: string) => httpRequest(`${w.tp.url}/api${p}`, 'POST', { 'content-type': 'application/json' }, '{"text": ').then((r) => ({ status: r.status, body: JSON.parse(r.text) }));
    const bad = await post(`/widget/${acmeToken}/messages`);
    expect(bad).toEqual({ status: 400, body: expect.objectContaining({ code: 'MALFORMED_JSON', errors: { request: ['The request body is not valid JSON.'] } }) });
    const nowhere = await post(`/widget/${newToken()}/messages`);
    expect(nowhere).toEqual({ status: 404, body: expect.objectContaining({ code: 'ROUTE_NOT_FOUND' }) });
  });

  test('an unknown token, a revoked token and an unknown path all get the same 404 in the platform shape', async () => {
    const token = await w.openWidget('acme', 'Short-lived');
    expect((await call(`/widget/${token}/config`)).status).toBe(200);
    const revoked = await w.asOwner('/widgetry/widgets/close', { token });
    expect(revoked.body).toEqual({ revoked: true });
    const answers = await Promise.all([call(`/widget/${token}/config`), call(`/widget/${newToken()}/config`), call(`/widget/${acmeToken}/nothing-here`), call('/nowhere')]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'No public route answers this path: the route does not exist, or its token is unknown or revoked.', code: 'ROUTE_NOT_FOUND' });
    }
  });

  test('a tenant that uninstalled the module no longer answers its tokens; a purge drops them', async () => {
    const wp = await widgetPlatform();
    try {
      const token = await wp.openWidget('globex', 'Soon gone');
      const status = async () => (await callPublic(wp.tp.url, `/widget/${token}/config`)).status;
      expect(await status()).toBe(200);
      const inGlobex = { token: wp.owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' } };
      expect((await wp.tp.api('/modules/widgetry', { method: 'DELETE', ...inGlobex })).status).toBeLessThan(300);
      expect(await status()).toBe(404);
      // Uninstalling keeps the data, and with it the tokens: a reinstall answers them again.
      expect((await wp.tp.api('/modules/widgetry/install', { ...inGlobex, body: {} })).status).toBe(201);
      expect(await status()).toBe(200);
      expect((await wp.tp.api('/modules/widgetry?purge=true', { method: 'DELETE', ...inGlobex })).status).toBeLessThan(300);
      expect((await wp.tp.api('/modules/widgetry/install', { ...inGlobex, body: {} })).status).toBe(201);
      expect(await status()).toBe(404);
    } finally {
      await wp.tp.close();
    }
  }, 120_000);

  test('the module gets a random 32-character token from the host, which opens its routes', async () => {
    const res = await w.asOwner('/widgetry/raw-tokens', { label: 'made by the host' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ registered: true, token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) });
    const config = await call(`/widget/${res.body.token}/config`);
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ name: null, tenant: w.owner.tenantId });
  });

  test('a method the path does not take is 405 with Allow', async () => {
    const res = await call(`/widget/${acmeToken}/config`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  });

  test('/api/v1 stays the platform\'s: a module prefix never shadows it', async () => {
    const res = await call('/v1/health');
    expect(res.status).toBe(200);
  });
});

describe('spec 2: public routes answer as their route declares (text script, server-sent events)', () => {
  test('script.js is JavaScript text from the token\'s tenant', async () => {
    const res = await fetch(`${w.tp.url}/api/widget/${acmeToken}/script.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await res.text()).toBe('window.widgetName = "Acme chat";');
  });

  test('a streamed public route sends its events from the token\'s tenant', async () => {
    const token = await w.openWidget('globex', 'Streaming');
    expect((await call(`/widget/${token}/messages`, { body: { text: 'first' } })).status).toBe(201);
    const res = await fetch(`${w.tp.url}/api/widget/${token}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toContain('event: message\ndata: {"text":"first"}\n\n');
    expect(text).toContain('event: done\ndata: bye\n\n');
  });
});

describe('spec 2, Limits: per-route rate limits, per token and client address, with X-RateLimit-* on every answer', () => {
  test('the route\'s limit (3/60) is counted per token: headers on each answer, then 429 with Retry-After', async () => {
    const token = await w.openWidget('acme', 'Busy');
    const seen: PublicResponseLike[] = [];
    for (let i = 0; i < 3; i++) seen.push(await call(`/widget/${token}/messages`, { body: { text: `m${i}` } }));
    expect(seen.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(seen.map((r) => r.headers.get('x-ratelimit-limit'))).toEqual(['3', '3', '3']);
    expect(seen.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    const reset = Number(seen[0]!.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
    const spent = await call(`/widget/${token}/messages`, { body: { text: 'one too many' } });
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(spent.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(spent.body).toMatchObject({ message: 'Too Many Requests.' });
    // Another token's budget is its own.
    const other = await w.openWidget('acme', 'Quiet');
    expect((await call(`/widget/${other}/messages`, { body: { text: 'fine' } })).status).toBe(201);
  });

  test('the default limit (60/60) applies to a route without rate_limit; a 404 carries the miss budget\'s headers', async () => {
    const res = await call(`/widget/${acmeToken}/config`);
    expect(res.headers.get('x-ratelimit-limit')).toBe('60');
    const miss = await call(`/widget/${newToken()}/config`);
    expect(miss.status).toBe(404);
    expect(miss.headers.get('x-ratelimit-limit')).toBe('30');
  });
});

type PublicResponseLike = Awaited<ReturnType<typeof call>>;

describe('spec 2, Widget allowed_domains: CORS decided per route by the module', () => {
  test('an allowed origin: the preflight is 204 with that origin, Vary: Origin, methods, headers and max-age', async () => {
    const res = await call(`/widget/${acmeToken}/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.acme.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.acme.example');
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('an allowed origin reads the real answer; another tenant\'s allowed origin does not', async () => {
    const ok = await call(`/widget/${acmeToken}/config`, { headers: { origin: 'https://shop.acme.example' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.acme.example');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining/);
    const foreign = await call(`/widget/${acmeToken}/config`, { headers: { origin: 'https://globex.example' } });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('vary')).toMatch(/Origin/);
  });

  test('a refused origin\'s preflight is 403 without any allow header; the core\'s any-origin CORS never answers here', async () => {
    const res = await call(`/widget/${acmeToken}/config`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    // The platform's own API keeps the core's answer (CORS_ORIGINS, any origin by default).
    const core = await call('/v1/health', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(core.status).toBe(204);
    expect(core.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('a preflight for a method the path does not take is refused', async () => {
    const res = await call(`/widget/${acmeToken}/config`, { method: 'OPTIONS', headers: { origin: 'https://shop.acme.example', 'access-control-request-method': 'DELETE' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
