/**
 * spec 2, Endpoints: public widget endpoints (/api/widget/{token}/…; Authentication 2: identified by
 * the widget token), with the decisions of the module's README: allowed_domains from Origin (and
 * Referer for script.js), CORS for allowed origins only, the offline message outside business hours,
 * input limits and rate limits, and HTML kept as text.
 */
import type { TestHost } from '../../../sdk/testing';
import { createWidget, startHost, visitor, widgetCall } from './support';

let host: TestHost;
beforeAll(async () => {
  host = await startHost();
}, 120_000);
afterAll(() => host?.close());
afterEach(() => host.clock.reset());

describe('spec 2 public widget endpoints: allowed_domains and CORS', () => {
  test('an allowed page gets CORS and answers; another origin gets neither, before or after a preflight', async () => {
    const w = await createWidget(host, { name: 'Domains', allowed_domains: ['shop.example', '*.brand.example', 'http://localhost:8080'] });
    for (const origin of ['https://shop.example', 'https://www.brand.example', 'https://brand.example', 'http://localhost:8080']) {
      const ok = await widgetCall(host, w.token, 'GET', '/config', undefined, { origin });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    }
    for (const origin of ['https://evil.example', 'https://shop.example.evil.example', 'http://localhost:9999', 'null']) {
      const refused = await widgetCall(host, w.token, 'GET', '/config', undefined, { origin });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('ORIGIN_NOT_ALLOWED');
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      // A form post needs no preflight: the handler refuses it itself, so nothing is stored.
      const post = await widgetCall(host, w.token, 'POST', '/session', { name: 'x', email: 'x@example.com' }, { origin });
      expect(post.status).toBe(403);
    }
    const preflight = await fetch(`${host.url}/api/widget/${w.token}/session`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const badPreflight = await fetch(`${host.url}/api/widget/${w.token}/session`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(badPreflight.status).toBe(403);
    expect(badPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('script.js: JavaScript for pages on allowed domains (by Referer), refused elsewhere; default all domains', async () => {
    const w = await createWidget(host, { name: 'Script', allowed_domains: ['shop.example'] });
    const ok = await widgetCall(host, w.token, 'GET', '/script.js', undefined, { referer: 'https://shop.example/products/1' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(ok.body).toContain(JSON.stringify(w.token));
    expect(Buffer.byteLength(ok.body)).toBeLessThan(12_000);
    expect((await widgetCall(host, w.token, 'GET', '/script.js', undefined, { referer: 'https://evil.example/' })).status).toBe(403);
    expect((await widgetCall(host, w.token, 'GET', '/script.js')).status).toBe(403);
    const open = await createWidget(host, { name: 'Anywhere' });
    expect((await widgetCall(host, open.token, 'GET', '/script.js', undefined, { referer: 'https://anyone.example/' })).status).toBe(200);
    expect((await widgetCall(host, 'a'.repeat(32), 'GET', '/script.js')).status).toBe(404);
  });
});

describe('spec 2 Live chat records: business hours and the offline message', () => {
  test('outside the per-day window of the IANA timezone the widget is offline and says so', async () => {
    const w = await createWidget(host, {
      name: 'Hours',
      offline_message: 'We are closed; leave a message.',
      business_hours: { timezone: 'Asia/Kolkata', monday: { enabled: true, start: '09:00', end: '18:00' }, tuesday: { enabled: false }, saturday: { enabled: true, start: '22:00', end: '02:00' } },
    });
    const at = async (iso: string) => {
      host.clock.freeze(Date.parse(iso));
      return (await widgetCall(host, w.token, 'GET', '/config')).body.online;
    };
    expect(await at('2026-11-23T04:00:00Z')).toBe(true); // Monday 09:30 in Kolkata (UTC+5:30)
    expect(await at('2026-11-23T03:00:00Z')).toBe(false); // Monday 08:30
    expect(await at('2026-11-23T12:29:00Z')).toBe(true); // Monday 17:59
    expect(await at('2026-11-23T12:31:00Z')).toBe(false); // Monday 18:01
    expect(await at('2026-11-24T06:00:00Z')).toBe(false); // Tuesday: disabled
    expect(await at('2026-11-29T19:00:00Z')).toBe(false); // Monday 00:30, after Sunday (no window)
    expect(await at('2026-11-28T17:00:00Z')).toBe(true); // Saturday 22:30
    expect(await at('2026-11-28T20:00:00Z')).toBe(true); // Sunday 01:30, Saturday's window past midnight
    host.clock.freeze(Date.parse('2026-11-23T03:00:00Z'));
    const v = await visitor(host, w.token);
    const started = await v.start('anyone?');
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ online: false, offline_message: 'We are closed; leave a message.' });
  });
});

describe('spec 2 public widget endpoints: sessions, inputs and limits', () => {
  test('session asks for name and email when the widget collects them; resumes by session_id with a grant for open conversations', async () => {
    const w = await createWidget(host, { name: 'Session' });
    const missing = await widgetCall(host, w.token, 'POST', '/session', { email: 'a@example.com' });
    expect(missing.status).toBe(422);
    expect(missing.body.details.errors.name).toBeDefined();
    expect((await widgetCall(host, w.token, 'POST', '/session', { name: 'A', email: 'not-an-email' })).status).toBe(422);
    const anon = await createWidget(host, { name: 'Anonymous', collect_name: false, collect_email: false });
    expect((await widgetCall(host, anon.token, 'POST', '/session', {})).status).toBe(200);

    const v = await visitor(host, w.token, { name: 'Resumer', email: 'r@example.com' });
    const first = await widgetCall(host, w.token, 'POST', '/session', { session_id: v.sessionId });
    expect(first.body).toMatchObject({ session_id: v.sessionId, conversation_id: null, grant: null, tenant: host.tenantId });
    const id = (await v.start('hello')).body.conversation.id;
    const resumed = await widgetCall(host, w.token, 'POST', '/session', { session_id: v.sessionId, current_page: 'https://shop.example/checkout' });
    expect(resumed.body).toMatchObject({ session_id: v.sessionId, conversation_id: id, grant: expect.any(String) });
    const row = (await host.request('GET', `/live-chat/conversations/${id}`)).body.visitor;
    expect(row).toMatchObject({ name: 'Resumer', email: 'r@example.com', current_page: 'https://shop.example/checkout', ip_address: expect.any(String) });
  });

  test('input limits: message length, metadata size, rating range; unknown sessions', async () => {
    const w = await createWidget(host, { name: 'Limits' });
    const v = await visitor(host, w.token);
    expect((await v.start('x'.repeat(5001))).status).toBe(422);
    expect((await v.start('')).status).toBe(422);
    const big = await widgetCall(host, w.token, 'POST', '/conversations', { session_id: v.sessionId, message: 'hi', metadata: { blob: 'x'.repeat(5000) } });
    expect(big.status).toBe(422);
    expect((await widgetCall(host, w.token, 'POST', '/conversations', { session_id: 'y'.repeat(32), message: 'hi' })).status).toBe(404);
    const id = (await v.start('x'.repeat(5000))).body.conversation.id;
    expect((await v.write(id, 'y'.repeat(5001))).status).toBe(422);
  });

  test('HTML is stored and answered as text: a visitor\'s <script> comes back verbatim in JSON, never as markup', async () => {
    const w = await createWidget(host, { name: 'Escaping' });
    const v = await visitor(host, w.token, { name: '<img src=x onerror=alert(1)>' });
    const evil = '<script>alert("pwned")</script>';
    const started = await v.start(evil);
    expect(started.headers.get('content-type')).toMatch(/^application\/json/);
    expect(started.body.message.content).toBe(evil);
    const listed = (await host.request('GET', `/live-chat/conversations/${started.body.conversation.id}/messages`)).body.data;
    expect(listed[0]).toMatchObject({ content: evil, sender_name: '<img src=x onerror=alert(1)>' });
    // The script renders every text with textContent (the browser test shows the markup as text).
    const script = (await widgetCall(host, w.token, 'GET', '/script.js')).body as string;
    expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
  });

  test('per-visitor limits: three open conversations at most, thirty messages a minute per conversation', async () => {
    const w = await createWidget(host, { name: 'Rates' });
    const s = await host.call<{ session_id: string }>('live_chat.start_session', { token: w.token, name: 'Flood', email: 'f@example.com' });
    const start = (n: number) => host.call<{ conversation: { id: number } }>('live_chat.start_conversation', { token: w.token, session_id: s.session_id, message: `c${n}` });
    const first = await start(1);
    await start(2);
    await start(3);
    await expect(start(4)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const send = (n: number) => host.call('live_chat.visitor_send', { token: w.token, session_id: s.session_id, id: first.conversation.id, content: `m${n}` });
    for (let i = 0; i < 29; i++) await send(i); // the first message counts too
    await expect(send(99)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // Someone else's session on the full conversation is told it does not exist, not that it is busy.
    const other = await host.call<{ session_id: string }>('live_chat.start_session', { token: w.token, name: 'Other', email: 'o@example.com' });
    await expect(host.call('live_chat.visitor_send', { token: w.token, session_id: other.session_id, id: first.conversation.id, content: 'x' })).rejects.toMatchObject({ status: 404 });
    host.clock.freeze(Date.now() + 61_000);
    await expect(send(100)).resolves.toBeDefined();
  }, 60_000);

  test('the host limits each route per widget token and client address (429 with Retry-After)', async () => {
    const w = await createWidget(host, { name: 'HostRate' });
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await widgetCall(host, w.token, 'POST', '/session', { name: 'n', email: 'n@example.com' }, { 'x-forwarded-for': '203.0.113.9' })).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
    // Another visitor's address has its own budget.
    expect((await widgetCall(host, w.token, 'POST', '/session', { name: 'n', email: 'n@example.com' }, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(200);
  });
});
