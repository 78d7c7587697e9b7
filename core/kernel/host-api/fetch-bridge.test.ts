import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SandboxRuntime } from '../../../sandbox';
import { createFetchBridge } from './fetch-bridge';
import { TestBridge, iife } from '../../../sandbox/testing';

const MODULE = iife(`
  return { default: { operations: {
    async get(input, ctx) {
      const res = await ctx.host.fetch(input.url, input.init);
      return { status: res.status, ok: res.ok, type: res.headers['content-type'], body: res.body,
        json: res.status === 200 && res.headers['content-type'] === 'application/json' ? res.json() : null };
    },
    async pieces(input, ctx) {
      const res = await ctx.host.fetch(input.url, { stream: true });
      const got = [];
      for (;;) {
        const { done, value } = await res.body.read();
        if (done) break;
        got.push(value);
      }
      return { status: res.status, ok: res.ok, type: res.headers['content-type'], got, after: await res.body.read() };
    },
    async refused(input, ctx) {
      try { await ctx.host.fetch(input.url, input.init); return 'fetched'; } catch (e) { return { code: e.code, message: e.message }; }
    },
  } } };
`);

/** A stand-in AI provider on 127.0.0.1: echoes requests, redirects, and streams a large body. */
function startServer(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://example.invalid/elsewhere' }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 1500);
      } else if (req.url === '/pieces') {
        // "é" is two bytes in UTF-8: the second write starts mid-character.
        const bytes = Buffer.from('café au lait', 'utf8');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(bytes.subarray(0, 4));
        setTimeout(() => res.end(bytes.subarray(4)), 50);
      } else if (req.url === '/large') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(64 * 1024));
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ method: req.method, url: req.url, auth: req.headers.authorization ?? null, body }));
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('spec/DESIGN: sandbox host.fetch reaches only the origins the tenant configured', () => {
  let server: http.Server;
  let origin: string;
  let runtime: SandboxRuntime;
  let bridge: TestBridge;
  const invoke = (name: string, input: unknown) =>
    runtime.invoke('ai@1.0.0', { tenantId: 't1', kind: 'operation', name, input, caller: 'http', user: null, bridge });

  beforeAll(async () => {
    server = await startServer();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));
  beforeEach(() => {
    runtime = new SandboxRuntime();
    runtime.load('ai@1.0.0', MODULE);
    bridge = new TestBridge();
    // The stand-in is on 127.0.0.1: allowed as for a tenant whose platform admin allowed private networks.
    bridge.onFetch = createFetchBridge([`${origin}/v1`], { maxResponseBytes: 16 * 1024, allowPrivateNetworks: true });
  });
  afterEach(() => runtime.dispose());

  it('with stream: true answers at the headers and reads the body piece by piece, never splitting a character', async () => {
    const res = (await invoke('pieces', { url: `${origin}/pieces` })) as { got: string[] };
    expect(res).toMatchObject({ status: 200, ok: true, type: 'text/event-stream', after: { done: true } });
    expect(res.got.join('')).toBe('café au lait');
    expect(res.got).toEqual(['caf', 'é au lait']);
  });

  it('makes a real request to an allowed origin and hands back status, headers and body', async () => {
    const init = { method: 'POST', headers: { Authorization: 'Bearer k' }, body: { prompt: 'hi' } };
    await expect(invoke('get', { url: `${origin}/v1/chat`, init })).resolves.toEqual({
      status: 200,
      ok: true,
      type: 'application/json',
      body: expect.any(String),
      json: { method: 'POST', url: '/v1/chat', auth: 'Bearer k', body: '{"prompt":"hi"}' },
    });
  });

  it('refuses any other origin with a clear error, before any connection', async () => {
    const other = origin.replace('127.0.0.1', 'localhost');
    await expect(invoke('refused', { url: `${other}/v1/chat` })).resolves.toEqual({
      code: 'FETCH_DENIED',
      message: expect.stringContaining(`fetch to ${other} is not allowed for this module in this tenant; allowed origins: ${origin}`),
    });
    await expect(invoke('refused', { url: 'file:///etc/passwd' })).resolves.toMatchObject({ code: 'FETCH_DENIED' });
    await expect(invoke('refused', { url: '/relative' })).resolves.toMatchObject({ code: 'FETCH_DENIED' });
  });

  it('returns redirects instead of following them off the list', async () => {
    await expect(invoke('get', { url: `${origin}/redirect` })).resolves.toMatchObject({ status: 302, ok: false });
  });

  it('refuses a response over the size limit', async () => {
    await expect(invoke('refused', { url: `${origin}/large` })).resolves.toMatchObject({
      code: 'FETCH_FAILED',
      message: expect.stringContaining('over the limit'),
    });
  });

  it('reports a connection failure as FETCH_FAILED', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const dead = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((r) => closed.close(r));
    bridge.onFetch = createFetchBridge([dead], { allowPrivateNetworks: true });
    await expect(invoke('refused', { url: `${dead}/x` })).resolves.toMatchObject({ code: 'FETCH_FAILED' });
  });

  it('gives up sooner when the module asks (timeout_ms), never later than the host allows', async () => {
    const started = Date.now();
    await expect(invoke('refused', { url: `${origin}/slow`, init: { timeout_ms: 200 } })).resolves.toMatchObject({ code: 'FETCH_FAILED', message: expect.stringContaining('timed out') });
    expect(Date.now() - started).toBeLessThan(1200);
    // A longer timeout_ms than the host's own is cut to the host's.
    bridge.onFetch = createFetchBridge([origin], { allowPrivateNetworks: true, timeoutMs: 200 });
    const again = Date.now();
    await expect(invoke('refused', { url: `${origin}/slow`, init: { timeout_ms: 60_000 } })).resolves.toMatchObject({ code: 'FETCH_FAILED', message: expect.stringContaining('timed out') });
    expect(Date.now() - again).toBeLessThan(1200);
    for (const bad of [0, -5, 1.5, 'soon']) {
      await expect(invoke('refused', { url: `${origin}/slow`, init: { timeout_ms: bad } })).resolves.toMatchObject({ message: expect.stringContaining('timeout_ms') });
    }
  });

  it('rejects a malformed allowlist entry when the bridge is made', () => {
    expect(() => createFetchBridge(['not a url'])).toThrow(/not an absolute URL/);
  });
});
