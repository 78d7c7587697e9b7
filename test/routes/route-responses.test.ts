/**
 * Module routes answer as they declare (manifest http.routes[].response, core/kernel/modules/route-response.ts):
 * text and bytes of a content type, and streams the handler writes while the request is open, all
 * through the fixture module test/routes/fixtures/responses in the real sandbox of a real platform,
 * read by a real HTTP client.
 */
import path from 'node:path';
import { defineCoreOperation } from '../../core/kernel/bus/core-operation';
import { defineModule, operation, Type } from '../../sdk';
import { coreContract } from '../../sdk/contracts/platform';
import { declaredManifest } from '../../sdk/build/declared-manifest';
import { validateManifest, type ManifestIssue } from '../../sdk/manifest';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { openStream } from './support';

const FIXTURE = path.join(__dirname, 'fixtures/responses');
const KEY = 'responses@1.0.0';

let tp: TestPlatform;
let who: { token: string; tenant: string };
let ownerTenantId: string;
const headers = () => ({ authorization: `Bearer ${who.token}`, 'x-tenant': who.tenant });
const get = (p: string) => tp.api(p, who);
const stream = (p: string, method = 'GET', body?: unknown) =>
  openStream(`${tp.url}/api/v1${p}`, method, headers(), body === undefined ? undefined : JSON.stringify(body));
const signal = async (name: string) => expect((await tp.api('/responses/signal', { ...who, body: { name } })).body).toEqual({ released: 1 });
/** Calls of the fixture module still open in its sandbox. */
const pendingCalls = async () => (await tp.platform.kernel.runtime.get(KEY)!.stats()).pendingCalls;
const eventually = async (check: () => Promise<boolean>, ms = 5000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
};

beforeAll(async () => {
  tp = await startTestPlatform({ MODULE_PATHS: FIXTURE });
  const owner = await tp.install('acme');
  who = { token: owner.token, tenant: 'acme' };
  ownerTenantId = owner.tenantId;
  expect((await tp.api('/modules/responses/install', { ...who, body: {} })).status).toBe(201);
}, 240_000);
afterAll(() => tp?.close());

describe('DESIGN Host capabilities for modules: routes answering text and bytes', () => {
  test('a text route sends the returned string as its content type, in UTF-8', async () => {
    const script = await get('/responses/script');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(script.body).toBe('export const answer = 42; // é\n');
    const csv = await get('/responses/csv');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.body).toBe('sku,qty\nK-1,2\n');
  });

  test('a bytes route sends the decoded {base64} as its content type, byte for byte', async () => {
    const res = await fetch(`${tp.url}/api/v1/responses/bytes`, { headers: headers() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(Array.from({ length: 256 }, (_, i) => i)))).toBe(true);
  });

  test('a handler answering what its route cannot send gets 502 MODULE_BAD_RESPONSE naming what to return', async () => {
    const text = await get('/responses/not-text');
    expect(text.status).toBe(502);
    expect(text.body).toMatchObject({ code: 'MODULE_BAD_RESPONSE', details: { operation: 'responses.not_text', kind: 'text' } });
    expect(text.body.message).toContain('must return a string');
    const bytes = await get('/responses/bad-bytes');
    expect(bytes.status).toBe(502);
    expect(bytes.body.message).toContain('{base64:');
  });

  test('a JSON route answers JSON as before, and its handler has no ctx.stream', async () => {
    const res = await get('/responses/json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({ stream: null });
  });
});

describe('DESIGN wave 3: a module answer never runs as a page on the console\'s origin', () => {
  const guarded = (h: Headers | Record<string, unknown>) => {
    const header = (name: string) => (h instanceof Headers ? h.get(name) : h[name]);
    return { csp: header('content-security-policy'), nosniff: header('x-content-type-options'), disposition: header('content-disposition') ?? null };
  };
  const GUARDED = { csp: "sandbox; default-src 'none'", nosniff: 'nosniff', disposition: null };

  test('json, text, bytes and their errors are sandboxed documents, never sniffed, and still answer what they did', async () => {
    for (const p of ['/responses/json', '/responses/script', '/responses/csv', '/responses/bytes', '/responses/not-text', '/responses/early-error']) {
      const res = await get(p);
      expect({ p, ...guarded(res.headers) }).toEqual({ p, ...GUARDED });
    }
    expect((await get('/responses/script')).body).toBe('export const answer = 42; // é\n');
  });

  test('streams too, SSE and chunked text', async () => {
    const sse = await stream('/responses/ticks?n=1&name=guarded');
    expect(await sse.ended).toBe(true);
    expect(guarded(sse.headers)).toEqual(GUARDED);
    const lines = await stream('/responses/lines', 'POST', { n: 2 });
    expect(await lines.ended).toBe(true);
    expect(guarded(lines.headers)).toEqual(GUARDED);
    expect(lines.text()).toBe('line 0\nline 1\n');
  });
});

describe('DESIGN Host capabilities for modules, spec 2 (AI streaming routes): routes answering a stream (SSE/chunked)', () => {
  test('server-sent events arrive one by one while the handler is still running', async () => {
    const r = await stream('/responses/ticks?n=3&name=t1');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['x-accel-buffering']).toBe('no');
    // The handler is waiting for a signal that only comes after each event was read.
    await r.until((t) => t.includes('id: 0'));
    expect(r.text()).toBe('event: tick\nid: 0\ndata: {"i":0}\n\n');
    await signal('t1');
    await r.until((t) => t.includes('id: 1'));
    expect(r.text()).not.toContain('id: 2');
    await signal('t1');
    expect(await r.ended).toBe(true);
    expect(r.text()).toBe(['event: tick\nid: 0\ndata: {"i":0}\n\n', 'event: tick\nid: 1\ndata: {"i":1}\n\n', 'event: tick\nid: 2\ndata: {"i":2}\n\n'].join(''));
  });

  test('a chunked text stream (POST, text/plain) carries exactly what was written', async () => {
    const r = await stream('/responses/lines', 'POST', { n: 50 });
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['transfer-encoding']).toBe('chunked');
    expect(await r.ended).toBe(true);
    expect(r.text()).toBe(Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(''));
  });

  test('an error before the first piece is the normal JSON error; after it, an SSE error event ends the stream', async () => {
    const early = await get('/responses/early-error');
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ code: 'NOPE', message: 'refused before any piece' });
    const late = await stream('/responses/late-error');
    expect(late.status).toBe(200);
    expect(await late.ended).toBe(true);
    expect(late.text()).toBe('data: one\n\nevent: error\ndata: {"code":"BROKE","message":"failed mid-stream"}\n\n');
  });

  test('a client that hangs up: the guest sees ctx.stream.closed and STREAM_CLOSED, the call ends, nothing is left open', async () => {
    const r = await stream('/responses/hold?name=gone');
    await r.until((t) => t === 'data: first\n\n');
    r.destroy();
    // The host tells the guest at once, before the handler writes again.
    await eventually(async () => (await get('/responses/is-closed?name=gone')).body.closed === true);
    await signal('gone');
    await eventually(async () => (await get('/responses/seen')).body.some((s: { name: string }) => s.name === 'gone'));
    expect((await get('/responses/seen')).body).toContainEqual({ name: 'gone', closed: true, second: 'STREAM_CLOSED' });
    await eventually(async () => (await pendingCalls()) === 0);
  });

  test('a handler that neither writes nor returns after its client left keeps only the module\'s timeout_ms (2 s), not the stream\'s 5 s', async () => {
    const r = await stream('/responses/long?name=abandoned');
    await r.until((t) => t === 'data: one\n\n');
    const left = Date.now();
    r.destroy();
    await eventually(async () => (await pendingCalls()) === 0, 6000);
    expect(Date.now() - left).toBeLessThan(3500);
  });

  test('a client that hangs up while the handler holds a transaction: the transaction is rolled back and no connection stays in it', async () => {
    const r = await stream('/responses/hold-tx?name=tx1');
    await r.until((t) => t === 'data: inside\n\n');
    const inTransaction = () =>
      tp.platform.tenantDbs.with(ownerTenantId, async (db) => {
        const [rows] = await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
        return (rows[0] as { n: number }).n;
      });
    expect(await inTransaction()).toBe(1);
    r.destroy();
    await eventually(async () => (await pendingCalls()) === 0);
    expect((await get('/responses/notes?name=tx1')).body).toBe(0);
    await eventually(async () => (await inTransaction()) === 0);
  });

  test('the route\'s time limit ends a stream that outlives it with an SSE error event, and frees the call', async () => {
    const started = Date.now();
    const r = await stream('/responses/stuck');
    expect(await r.ended).toBe(true);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(4000);
    const [first, error, rest] = r.text().split('\n\n');
    expect([first, rest]).toEqual(['data: only', '']);
    expect(error.startsWith('event: error\ndata: ')).toBe(true);
    expect(JSON.parse(error.slice('event: error\ndata: '.length))).toEqual({
      code: 'MODULE_TIMEOUT',
      message: 'responses@1.0.0 operation "stuck" did not finish in time: The call exceeded its time limit of 1000 ms.',
    });
    await eventually(async () => (await pendingCalls()) === 0);
  });

  test('a declared stream time limit may exceed the module\'s timeout_ms (2 s here)', async () => {
    const r = await stream('/responses/long?name=long');
    await r.until((t) => t === 'data: one\n\n');
    await new Promise((done) => setTimeout(done, 2500));
    await signal('long');
    expect(await r.ended).toBe(true);
    expect(r.text()).toBe('data: one\n\ndata: two\n\n');
  });

  test('back-pressure: while the reader does not read, the handler\'s awaited writes stop; all bytes arrive once it reads', async () => {
    const size = 64 * 1024;
    const n = 1000;
    const r = await stream(`/responses/flood?n=${n}&size=${size}&name=slow`);
    r.pause();
    const written = async () => (await get('/responses/progress?name=slow')).body.written as number;
    // Socket buffers fill, then the writes wait: progress stops well short of the end.
    let before = -1;
    await eventually(async () => {
      const now = await written();
      const still = now === before && now > 0;
      before = now;
      if (!still) await new Promise((done) => setTimeout(done, 300));
      return still;
    }, 10_000);
    expect(before).toBeLessThan(n / 2);
    r.resume();
    expect(await r.ended).toBe(true);
    expect(r.bytes()).toBe(n * size);
    expect(await written()).toBe(n);
  });
});

describe('DESIGN Bus: only a module operation can serve a stream', () => {
  test('a streamed call to a core operation is refused with NOT_STREAMABLE, before its handler runs', async () => {
    let ran = false;
    const { bus } = tp.platform.kernel;
    const echo = coreContract({ name: 'platform.routes_test_echo', description: 'Returns its input.', input: Type.Object({}) });
    bus.registerCore(defineCoreOperation(echo, async (input) => ((ran = true), input)));
    const sink = { format: 'sse' as const, gone: new Promise<void>(() => undefined), write: async () => undefined };
    await expect(bus.call({ kind: 'edge', via: 'http' }, 'platform.routes_test_echo', {}, { tenantId: ownerTenantId, user: null, permissions: new Set(['*']) }, { stream: { sink, timeoutMs: 1000 } })).rejects.toMatchObject({
      code: 'NOT_STREAMABLE',
    });
    expect(ran).toBe(false);
  });
});

describe('DESIGN Host capabilities for modules: declared responses in manifests', () => {
  const manifest = (route: Record<string, unknown>) => ({
    name: 'feeds',
    version: '1.0.0',
    compatibility: { platform: '^2.0.0' },
    api: { provides: [{ name: 'feeds.get', description: 'A feed', permission: 'feeds.view' }] },
    permissions: [{ name: 'feeds.view', description: 'Read feeds' }],
    http: { routes: [{ method: 'GET', path: '/feeds', operation: 'feeds.get', ...route }] },
  });
  const errors = (route: Record<string, unknown>): ManifestIssue[] => {
    const r = validateManifest(manifest(route));
    return r.ok ? [] : r.errors;
  };

  test('each kind, as declared, is accepted', () => {
    expect(errors({ response: { kind: 'json' } })).toEqual([]);
    expect(errors({ response: { kind: 'text', content_type: 'text/csv' } })).toEqual([]);
    expect(errors({ response: { kind: 'bytes', content_type: 'audio/mpeg' } })).toEqual([]);
    expect(errors({ response: { kind: 'bytes', content_type: 'application/octet-stream', disposition: 'attachment' } })).toEqual([]);
    expect(errors({ response: { kind: 'stream' } })).toEqual([]);
    expect(errors({ method: 'POST', response: { kind: 'stream', content_type: 'application/x-ndjson', timeout_s: 600 } })).toEqual([]);
  });

  test('mistakes are refused saying what to fix', () => {
    expect(errors({ response: { kind: 'text' } })).toEqual([{ pointer: '/http/routes/0/response', message: 'a text response needs content_type, e.g. "text/csv" or "application/javascript"' }]);
    expect(errors({ response: { kind: 'bytes' } })[0].message).toContain('a bytes response needs content_type, e.g. "application/pdf"');
    expect(errors({ method: 'DELETE', response: { kind: 'stream' } })).toEqual([
      { pointer: '/http/routes/0/method', message: 'a streamed response answers GET (what EventSource sends) or POST; use one of those' },
    ]);
    expect(errors({ response: { kind: 'stream', content_type: 'application/pdf' } })[0].message).toContain('a stream writes text');
    expect(errors({ response: { kind: 'text', content_type: 'text/csv', timeout_s: 5 } })[0].message).toContain('timeout_s applies to streamed responses only');
    expect(errors({ response: { kind: 'json', content_type: 'text/csv' } })[0].message).toContain('remove content_type, or use kind "text"');
    expect(errors({ response: { kind: 'stream', timeout_s: 601 } })[0].pointer).toBe('/http/routes/0/response/timeout_s');
    expect(errors({ response: { kind: 'bytes', content_type: 'application/pdf' }, success_status: 204 })[0].message).toContain('a 204 answer has no body');
    expect(errors({ response: { kind: 'stream' }, stream: { format: 'csv' } })[0].message).toContain('either streams a bulk file (stream) or declares its response');
    expect(errors({ method: 'POST', response: { kind: 'stream' }, success_status: 202 })).toEqual([
      { pointer: '/http/routes/0/success_status', message: 'a stream answers 200 with its first piece; remove success_status' },
    ]);
    expect(errors({ method: 'POST', response: { kind: 'stream' }, upload: { field: 'file', max_bytes: 1000 } })[0].message).toContain('a streamed response cannot take an upload');
    expect(errors({ response: { kind: 'html' } })[0].pointer).toBe('/http/routes/0/response/kind');
    expect(errors({ response: { kind: 'stream', disposition: 'attachment' } })).toEqual([
      { pointer: '/http/routes/0/response/disposition', message: 'disposition applies to text and bytes responses only (a download); remove it' },
    ]);
    expect(errors({ response: { kind: 'bytes', content_type: 'application/pdf', disposition: 'inline' } })[0].pointer).toBe('/http/routes/0/response/disposition');
  });

  test('a route declared on its operation in TypeScript carries its response into module.json (its handler typed with ctx.stream)', () => {
    const mod = defineModule({
      name: 'feeds',
      version: '1.0.0',
      compatibility: { platform: '^2.0.0' },
      permissions: [{ name: 'feeds.view', description: 'Read feeds' }],
      operations: {
        get: operation({
          description: 'A feed',
          // Open to members, so that the route names no permission (a route's permission defaults to its operation's).
          open_to_members: 'a test: any member may read the feed',
          input: Type.Object({}),
          output: Type.Null(),
          http: { method: 'GET', path: '/feeds', response: { kind: 'stream', timeout_s: 120 } },
          async handler(_input, ctx) {
            if (ctx.stream && !ctx.stream.closed) await ctx.stream.event({ event: 'hello', data: { n: 1 }, id: '1' });
            return null;
          },
        }),
      },
    });
    const built = declaredManifest(mod.declaration) as { http: { routes: unknown[] } };
    expect(built.http.routes).toEqual([{ method: 'GET', path: '/feeds', response: { kind: 'stream', timeout_s: 120 }, operation: 'feeds.get' }]);
    expect(validateManifest(built).ok).toBe(true);
  });
});
