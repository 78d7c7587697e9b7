/**
 * A module misusing ctx.stream (test/hostile/fixtures/modules/stream-abuse) on a real platform: writes
 * without awaiting (host memory), pieces over the limits, SSE fields with line breaks (forged events),
 * writes after its call ended, and a stream reached from a call that serves none. Each is refused
 * with a code the guest can read, the stream stays well formed, and nothing stays open; a tenant
 * holding streams open past MODULE_STREAMS_PER_TENANT gets 429.
 */
import path from 'node:path';
import { MAX_BUFFERED_BYTES, MAX_PIECE_BYTES } from '../../core/kernel/modules/response-stream';
import { openStream } from '../routes/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const FIXTURE = path.join(__dirname, 'fixtures/modules/stream-abuse');

let tp: TestPlatform;
let who: { token: string; tenant: string };
const read = async (p: string) => {
  const r = await openStream(`${tp.url}/api/v1${p}`, 'GET', { authorization: `Bearer ${who.token}`, 'x-tenant': who.tenant });
  expect(await r.ended).toBe(true);
  return r;
};
const seen = async () => (await tp.api('/abuse/seen', who)).body;

beforeAll(async () => {
  tp = await startTestPlatform({ MODULE_PATHS: FIXTURE, MODULE_STREAMS_PER_TENANT: '3' });
  const owner = await tp.install('acme');
  who = { token: owner.token, tenant: 'acme' };
  expect((await tp.api('/modules/abuse/install', { ...who, body: {} })).status).toBe(201);
}, 240_000);
afterAll(() => tp?.close());

describe('DESIGN Host capabilities for modules (streamed routes): a module misusing its response stream', () => {
  test('200 unawaited 64 KB writes: the host takes about a megabyte and refuses the rest with STREAM_BACKPRESSURE', async () => {
    const r = await read('/abuse/unawaited');
    const { unawaited } = await seen();
    const taken = Math.ceil(MAX_BUFFERED_BYTES / (64 * 1024));
    expect(unawaited.ok).toBeLessThanOrEqual(taken);
    expect(unawaited.STREAM_BACKPRESSURE).toBe(200 - unawaited.ok);
    expect(r.bytes()).toBe(unawaited.ok * 64 * 1024);
  });

  test('pieces over the limits or of the wrong kind are refused, and the stream goes on', async () => {
    const r = await read('/abuse/huge');
    expect((await seen()).huge).toEqual({
      over_piece_limit: 'STREAM_CHUNK_TOO_LARGE',
      over_output_limit: 'OUTPUT_TOO_LARGE',
      not_text: 'TypeError: ctx.stream.write(chunk) needs a string',
      event_in_text_stream: 'STREAM_NOT_SSE',
    });
    expect(MAX_PIECE_BYTES).toBeLessThan(300 * 1024);
    expect(r.text()).toBe('done');
  });

  test('SSE fields with line breaks cannot forge events: refused, and data lines are framed one by one', async () => {
    const r = await read('/abuse/forge');
    expect((await seen()).forge).toEqual({ event_name: 'INVALID_REQUEST', id: 'INVALID_REQUEST', retry: 'INVALID_REQUEST', data_lines: 'ok' });
    expect(r.text()).toBe('data: a\ndata: event: forged\ndata: \ndata: id: 9\n\n');
  });

  test('a stream kept past its call: closed, and writes reject with INVOCATION_ENDED', async () => {
    expect((await read('/abuse/stash')).text()).toBe('data: stashed\n\n');
    const late = await tp.api('/abuse/late', who);
    expect(late.body).toEqual({ closed: true, write: 'INVOCATION_ENDED' });
  });

  test('a call serving no stream route has no ctx.stream, nor do the calls it makes', async () => {
    const res = await tp.api('/abuse/no-stream', who);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ own: null, nested: { stream: null } });
  });

  test('streams held open past MODULE_STREAMS_PER_TENANT (3 here) get 429 STREAM_LIMIT; a slot frees when its call ends', async () => {
    const open = (p: string) => openStream(`${tp.url}/api/v1${p}`, 'GET', { authorization: `Bearer ${who.token}`, 'x-tenant': who.tenant });
    const held = await Promise.all([open('/abuse/hold'), open('/abuse/hold'), open('/abuse/hold')]);
    await Promise.all(held.map((r) => r.until((t) => t === 'data: held\n\n')));
    const refused = await tp.api('/abuse/hold', who);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'STREAM_LIMIT', details: { limit: 3 } });
    // A slot is the call's, not the reader's: it frees when the handler ends (here, released).
    held[0].destroy();
    expect(await tp.api('/abuse/release', { ...who, body: {} })).toMatchObject({ body: { released: 3 } });
    await Promise.all(held.slice(1).map((r) => r.ended));
    const again = await open('/abuse/hold');
    expect(again.status).toBe(200);
    await again.until((t) => t === 'data: held\n\n');
    await tp.api('/abuse/release', { ...who, body: {} });
    expect(await again.ended).toBe(true);
  });

  // Last: the loop costs the module its isolate, and with it the state the tests above read.
  test('a stream given ten minutes whose handler loops is cut off at the module\'s timeout_ms (1 s), not the stream\'s', async () => {
    const started = Date.now();
    const r = await read('/abuse/spin');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.text()).toMatch(/^data: spinning\n\nevent: error\ndata: \{"code":"MODULE_TIMEOUT"/);
    expect((await tp.api('/abuse/no-stream', who)).status).toBe(200);
  });

  test('afterwards no call of the module is left open', async () => {
    expect((await tp.platform.kernel.runtime.get('abuse@1.0.0')!.stats()).pendingCalls).toBe(0);
  });
});
