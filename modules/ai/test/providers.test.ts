/**
 * Language-model providers, credentials, config with fallback, tracking: real platform, real
 * sandbox, stand-in vendors over real HTTP on 127.0.0.1.
 */
import type { TestHost } from '../../../sdk/testing';
import { addLlmProvider, startAiHost } from './support/host';
import { startVendorA, startVendorB, type StandIn } from './support/vendor-standins';

const KEY_A = 'sk-vendora-SECRET-0123456789abcd';
const KEY_B = 'sk-ant-vendorb-SECRET-9876543210wxyz';

let host: TestHost;
let a: StandIn;
let b: StandIn;

beforeAll(async () => {
  [a, b] = await Promise.all([startVendorA(), startVendorB()]);
  host = await startAiHost({ captureLogs: true });
  await addLlmProvider(host, { id: 'alpha', type: 'vendora_compatible', base_url: `${a.url}/v1`, api_key: KEY_A, prices: ['0.5', '1.5'] });
  await addLlmProvider(host, { id: 'beta', type: 'vendorb', base_url: b.url, api_key: KEY_B });
  expect((await host.request('PUT', '/ai/config', { default_provider: 'alpha', fallback_provider: 'beta' })).status).toBe(200);
});

afterAll(async () => {
  await host?.close();
  await Promise.all([a?.close(), b?.close()]);
});

beforeEach(() => {
  a.script();
  b.script();
  a.requests.length = 0;
  b.requests.length = 0;
});

const translate = (text = 'Hello') => host.request('POST', '/ai/translate', { text, target: 'fr', source: 'en' });
const json = (translated: string) => ({ text: JSON.stringify({ translated_text: translated, source_language: 'en' }) });

describe('spec 2, AI configuration: language-model providers', () => {
  it('lists the ten presets with base URL, type and models', async () => {
    const res = await host.request('GET', '/ai/presets');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    for (const p of res.body.data) expect(p).toEqual({ id: expect.any(String), name: expect.any(String), type: expect.stringMatching(/^(vendora_compatible|vendorb)$/), base_url: expect.stringMatching(/^https:\/\//), models: expect.arrayContaining([expect.any(String)]) });
  });

  it("adds each provider's origin to the tenant's fetch origins when an admin adds it", async () => {
    const res = await host.request('GET', '/modules/fetch-origins');
    expect(res.body.fetch_origins).toEqual(expect.arrayContaining([{ origin: a.origin, module: 'ai' }, { origin: b.origin, module: 'ai' }]));
  });

  it('lists providers with status and a key hint, never the key', async () => {
    const res = await host.request('GET', '/ai/providers');
    expect(res.status).toBe(200);
    const alpha = res.body.data.find((p: { id: string }) => p.id === 'alpha');
    expect(alpha).toMatchObject({ id: 'alpha', type: 'vendora_compatible', has_credentials: true, key_hint: '…abcd', model: 'model-1', status: 'untested' });
    expect(JSON.stringify(res.body)).not.toContain('SECRET');
  });

  it('refuses an unknown provider type with 422 and writes nothing', async () => {
    const res = await host.request('POST', '/ai/providers', { id: 'gamma', name: 'Gamma', type: 'vendorc', base_url: 'https://api.gamma.example/v1', models: [] });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/type/);
    expect((await host.request('GET', '/ai/providers')).body.data.map((p: { id: string }) => p.id)).toEqual(['alpha', 'beta']);
    expect((await host.request('GET', '/modules/fetch-origins')).body.fetch_origins).not.toContainEqual(expect.objectContaining({ origin: 'https://api.gamma.example' }));
  });

  it('refuses a duplicate id (409), an unknown provider in config (422), and a model not offered (422)', async () => {
    expect((await host.request('POST', '/ai/providers', { id: 'alpha', name: 'Again', type: 'vendorb', base_url: b.url })).status).toBe(409);
    const bad = await host.request('PUT', '/ai/config', { fallback_provider: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ fallback_provider: [expect.stringContaining('nope')] });
    expect((await host.request('GET', '/ai/config')).body.data).toEqual({ default_provider: 'alpha', fallback_provider: 'beta', tracking: { enabled: true }, timeout_ms: 20000 });
    expect((await host.request('PUT', '/ai/providers/alpha/credentials', { api_key: 'sk-other-0000000000', model: 'gpt-unknown' })).status).toBe(422);
  });

  it('updates metadata; a new base URL has its origin allowed; an unknown provider is 404', async () => {
    const res = await host.request('PUT', '/ai/providers/c0', { name: 'x' });
    expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await host.request('POST', '/ai/providers', { id: 'moving', name: 'Moving', type: 'vendorb', base_url: b.url })).status).toBe(201);
    const moved = await host.request('PUT', '/ai/providers/moving', { name: 'Moved', base_url: 'https://api.moved.example/v2', models: ['m2'], input_cost_per_1k: '0.25' });
    expect(moved.body.data).toMatchObject({ id: 'moving', name: 'Moved', type: 'vendorb', base_url: 'https://api.moved.example/v2', models: ['m2'], input_cost_per_1k: '0.250000' });
    expect((await host.request('GET', '/modules/fetch-origins')).body.fetch_origins).toContainEqual({ origin: 'https://api.moved.example', module: 'ai' });
    expect((await host.request('PUT', '/ai/providers/moving', { type: 'vendorc' })).status).toBe(422);
    const withKey = await host.request('PUT', '/ai/providers/moving', { base_url: 'https://u:sk-in-url-0000000000@api.moved.example/v2?key=sk-x' });
    expect([withKey.status, Object.keys(withKey.body.errors)]).toEqual([422, ['base_url']]);
    expect((await host.request('POST', '/ai/stt/providers', { preset: 'google_stt', base_url: 'https://speech.example/?key=abc' })).status).toBe(422);
    expect((await host.request('DELETE', '/ai/providers/moving')).status).toBe(200);
    expect((await host.request('GET', '/ai/providers')).body.data.map((p: { id: string }) => p.id)).toEqual(['alpha', 'beta']);
  });

  it('tests a connection: success against the stand-in, failure with the vendor status', async () => {
    const ok = await host.request('POST', '/ai/providers/beta/test');
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ success: true, provider: 'beta', model: 'model-1', error: null });
    expect(b.requests[0]!.headers['x-api-key']).toBe(KEY_B);
    expect(b.requests[0]!.headers['anthropic-version']).toBe('2023-06-01');
    a.script({ status: 401, error: `Incorrect API key provided: ${KEY_A}` });
    const failed = await host.request('POST', '/ai/providers/alpha/test');
    expect(failed.body.data).toMatchObject({ success: false, error: expect.stringContaining('HTTP 401') });
    expect(JSON.stringify(failed.body)).not.toContain('SECRET');
    expect((await host.request('GET', '/ai/providers')).body.data.find((p: { id: string }) => p.id === 'alpha').status).toBe('failed');
  });
});

describe('spec 2, AI configuration: General settings — the fallback answers when the default fails', () => {
  it('the default answers when it works, with the chat-completions request shape and a bearer key', async () => {
    a.script(json('Bonjour'));
    const res = await translate();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ translated_text: 'Bonjour', provider: 'alpha', model: 'model-1' });
    expect(a.requests).toHaveLength(1);
    expect(a.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'model-1', temperature: 0.1 } });
    expect(a.requests[0]!.headers.authorization).toBe(`Bearer ${KEY_A}`);
    expect(b.requests).toHaveLength(0);
  });

  it('on 429 the fallback (vendorb) answers and the response names it', async () => {
    a.script({ status: 429, error: 'Rate limit reached' });
    b.script(json('Salut'));
    const res = await translate();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ translated_text: 'Salut', provider: 'beta' });
    expect(b.requests[0]).toMatchObject({ path: '/v1/messages', body: { model: 'model-1', temperature: 0.1, max_tokens: 1024 } });
    expect(b.requests[0]!.body.system).toMatch(/Preserve exactly/);
  });

  it('on 500 the fallback answers', async () => {
    a.script({ status: 500 });
    b.script(json('Coucou'));
    const res = await translate();
    expect(res.body.data).toMatchObject({ translated_text: 'Coucou', provider: 'beta' });
  });

  it('on a timeout the fallback answers (the per-provider timeout is a setting)', async () => {
    expect((await host.request('PUT', '/ai/config', { timeout_ms: 1000 })).body.data.timeout_ms).toBe(1000);
    a.script({ delayMs: 2500, then: json('Trop tard') });
    b.script(json('À temps'));
    const started = Date.now();
    const res = await translate();
    expect(res.body.data).toMatchObject({ translated_text: 'À temps', provider: 'beta' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect((await host.request('PUT', '/ai/config', { timeout_ms: 500 })).status).toBe(422);
    await host.request('PUT', '/ai/config', { timeout_ms: 20000 });
  });

  it('both failing is a 502 with both reasons, no key in it', async () => {
    a.script({ status: 429, error: `Rate limit for key ${KEY_A}` });
    b.script({ status: 500, error: 'Overloaded' });
    const res = await translate();
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('AI_PROVIDERS_FAILED');
    expect(res.body.details.attempts).toEqual([
      { provider: 'alpha', reason: expect.stringContaining('429') },
      { provider: 'beta', reason: 'HTTP 500: Overloaded' },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('SECRET');
  });

  it('tracks tokens and cost per feature, in decimal', async () => {
    a.script({ ...json('Un'), usage: { input: 1000, output: 2000 } });
    expect((await translate()).status).toBe(200);
    const usage = await host.request('GET', '/ai/usage');
    expect(usage.status).toBe(200);
    const translation = usage.body.data.by_feature.find((f: { feature: string }) => f.feature === 'translation');
    expect(translation.calls).toBeGreaterThanOrEqual(1);
    const rows = await host.sql<{ provider: string; input_tokens: number; output_tokens: number; cost: string }>(
      `SELECT provider, input_tokens, output_tokens, cost::text FROM ai.usage WHERE input_tokens = 1000`,
    );
    // 1000 × 0.5 / 1000 + 2000 × 1.5 / 1000 = 3.5
    expect(rows).toEqual([{ provider: 'alpha', input_tokens: 1000, output_tokens: 2000, cost: '3.500000' }]);
  });
});

describe('credentials saved at the same time for different providers all survive (one secret per kind, written under a row lock)', () => {
  it('six concurrent saves: each provider then calls its vendor with its own key', async () => {
    const ids = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];
    for (const id of ids) expect((await host.request('POST', '/ai/providers', { id, name: id, type: 'vendorb', base_url: b.url, models: ['m'] })).status).toBe(201);
    const saves = await Promise.all(ids.map((id) => host.request('PUT', `/ai/providers/${id}/credentials`, { api_key: `key-of-${id}-000000000000` })));
    expect(saves.map((r) => r.status)).toEqual(ids.map(() => 200));
    for (const id of ids) {
      b.requests.length = 0;
      expect((await host.request('POST', `/ai/providers/${id}/test`)).body.data.success).toBe(true);
      expect(b.requests[0]!.headers['x-api-key']).toBe(`key-of-${id}-000000000000`);
    }
    // Deleting one removes its key only.
    expect((await host.request('DELETE', '/ai/providers/c3')).status).toBe(200);
    b.requests.length = 0;
    await host.request('POST', '/ai/providers/c4/test');
    expect(b.requests[0]!.headers['x-api-key']).toBe('key-of-c4-000000000000');
    expect((await host.request('DELETE', '/ai/providers/alpha')).status).toBe(409);
  });
});

describe('spec 2, Which provider is needed: embeddings need a vendora_compatible provider', () => {
  it('ai.embed answers from the vendora provider; with it failing, the vendorb fallback is skipped with its reason', async () => {
    const res = await host.call<{ embeddings: number[][]; provider: string }>('ai.embed', { input: ['red shoes', 'blue'], feature: 'search' });
    expect(res).toMatchObject({ provider: 'alpha', embeddings: [[9, 0.5, -0.5], [4, 0.5, -0.5]] });
    expect(a.requests[0]).toMatchObject({ path: '/v1/embeddings', body: { input: ['red shoes', 'blue'] } });
    a.script({ status: 500 });
    await expect(host.call('ai.embed', { input: ['x'] })).rejects.toMatchObject({
      code: 'AI_PROVIDERS_FAILED',
      details: { attempts: [{ provider: 'alpha', reason: 'HTTP 500: stand-in error 500' }, { provider: 'beta', reason: 'vendorb providers have no embeddings' }] },
    });
  });
});

describe('spec 2, Authentication 3: ai.view reads, ai.configure changes', () => {
  it('a member with ai.view only can read and translate but not configure', async () => {
    const token = await host.memberWith('ai-viewer', ['ai.view']);
    expect((await host.requestAs(token, 'GET', '/ai/providers')).status).toBe(200);
    a.script(json('Oui'));
    expect((await host.requestAs(token, 'POST', '/ai/translate', { text: 'Yes', target: 'fr' })).status).toBe(200);
    expect((await host.requestAs(token, 'PUT', '/ai/config', { default_provider: 'beta' })).status).toBe(403);
    expect((await host.requestAs(token, 'POST', '/ai/providers', { id: 'x1', name: 'X', type: 'vendorb', base_url: 'https://x.example' })).status).toBe(403);
    expect((await host.requestAs(token, 'PUT', '/ai/translate/config', { provider_id: null })).status).toBe(403);
  });

  it('a member without ai.view reaches none of it', async () => {
    const token = await host.memberWith('no-ai', ['members.view']);
    expect((await host.requestAs(token, 'GET', '/ai/config')).status).toBe(403);
    expect((await host.requestAs(token, 'POST', '/ai/translate', { text: 'Yes', target: 'fr' })).status).toBe(403);
  });
});

describe('API keys never leave the host: not in responses, log lines or audit rows', () => {
  it('no key in any log line or audit row after all of the above', async () => {
    const lines = host.logLines();
    expect(lines.length).toBeGreaterThan(10);
    for (const key of [KEY_A, KEY_B]) {
      expect(lines.filter((l) => l.includes(key) || l.includes('SECRET'))).toEqual([]);
    }
    // A provider failure is logged (without its key).
    expect(lines.some((l) => l.includes('AI provider failed'))).toBe(true);
    const audit = JSON.stringify(await host.auditRows());
    expect(audit).toContain('ai.save_provider_credentials');
    for (const key of [KEY_A, KEY_B]) expect(audit).not.toContain(key);
    expect(audit).not.toContain('SECRET');
  });
});
