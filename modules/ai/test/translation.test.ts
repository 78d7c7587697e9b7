/**
 * Translation (spec 2, Endpoints AI: Translation; Limits: batch at most 10): the prompt and
 * temperature sent, protected parts surviving a round trip through a stand-in that rewrites
 * everything it is given, batch, detection, languages, config.
 */
import type { TestHost } from '../../../sdk/testing';
import { addLlmProvider, startAiHost } from './support/host';
import { lastUserText, startVendorA, systemText, type StandIn } from './support/vendor-standins';

let host: TestHost;
let a: StandIn;

/** A "translator" that upper-cases and reverses word order: it would break any URL or id it saw. */
const mangle = (text: string) => text.split(' ').reverse().join(' ').toUpperCase();
const target = (system: string) => /ISO 639-1 "([a-z]{2})"/.exec(system)?.[1] ?? '??';

beforeAll(async () => {
  a = await startVendorA();
  host = await startAiHost();
  await addLlmProvider(host, { id: 'alpha', type: 'vendora_compatible', base_url: `${a.url}/v1`, api_key: 'sk-translate-key-123456' });
  await host.request('PUT', '/ai/config', { default_provider: 'alpha' });
});
afterAll(async () => {
  await host?.close();
  await a?.close();
});
beforeEach(() => {
  a.script();
  a.requests.length = 0;
  a.fallback = (body) => ({ text: JSON.stringify({ translated_text: `[${target(systemText(body))}] ${mangle(lastUserText(body))}`, source_language: 'en' }) });
});

describe('spec 2, Endpoints AI: POST /ai/translate', () => {
  it('keeps order numbers, URLs, e-mails and placeholders exactly through a model that rewrites everything', async () => {
    const text = 'Your order ORD-000123 has shipped.\nTrack it at https://track.example.com/t/AbC-9?x=1 or mail help@shop.example, {{customer.name}}.';
    const res = await host.request('POST', '/ai/translate', { text, target: 'hi', source: 'en' });
    expect(res.status).toBe(200);
    const out: string = res.body.data.translated_text;
    for (const kept of ['ORD-000123', 'https://track.example.com/t/AbC-9?x=1', 'help@shop.example', '{{customer.name}}']) expect(out).toContain(kept);
    expect(out.startsWith('[hi] ')).toBe(true);
    expect(res.body.data).toMatchObject({ source_language: 'en', target_language: 'hi', provider: 'alpha', model: 'model-1', usage: { input_tokens: 10, output_tokens: 5 } });
    // What the model saw: markers instead of the protected parts, the rule in the prompt, temperature 0.1.
    const sent = a.requests[0]!.body;
    expect(sent.temperature).toBe(0.1);
    expect(lastUserText(sent)).not.toContain('ORD-000123');
    expect(lastUserText(sent)).toContain('⟦1⟧');
    expect(systemText(sent)).toMatch(/order numbers.*URLs.*brand and product names/s);
    expect(systemText(sent)).toMatch(/formatting/);
  });

  it('a model that drops a protected part gives a clear 502, not a translation without the order number', async () => {
    a.script({ text: JSON.stringify({ translated_text: 'Votre commande a été expédiée.' }) });
    const res = await host.request('POST', '/ai/translate', { text: 'Order ORD-000777 shipped.', target: 'fr' });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('AI_BAD_ANSWER');
  });

  it('auto-detects the source when none is given, from the JSON answer', async () => {
    a.script({ text: '```json\n{"translated_text": "Hola", "source_language": "EN"}\n```' });
    const res = await host.request('POST', '/ai/translate', { text: 'Hello', target: 'es' });
    expect(res.body.data).toMatchObject({ translated_text: 'Hola', source_language: 'en', target_language: 'es' });
    expect(systemText(a.requests[0]!.body)).toMatch(/from the language it is written in/);
  });

  it('refuses a bad target code and empty text with 422', async () => {
    for (const body of [{ text: 'Hi', target: 'hindi' }, { text: '', target: 'hi' }, { text: 'Hi' }]) expect((await host.request('POST', '/ai/translate', body)).status).toBe(422);
    expect(a.requests).toHaveLength(0);
  });
});

describe('spec 2, Limits: batch translation, at most 10 targets', () => {
  it('translates into each target', async () => {
    const res = await host.request('POST', '/ai/translate/batch', { text: 'Order ORD-000123', targets: ['hi', 'ta', 'fr'], source: 'en' });
    expect(res.status).toBe(200);
    expect(res.body.data.translations.map((t: { target_language: string; translated_text: string }) => [t.target_language, t.translated_text])).toEqual([
      ['hi', '[hi] ORD-000123 ORDER'],
      ['ta', '[ta] ORD-000123 ORDER'],
      ['fr', '[fr] ORD-000123 ORDER'],
    ]);
  });

  it('a batch of 11 targets is refused with 422 and reaches no model', async () => {
    const targets = ['hi', 'ta', 'te', 'bn', 'mr', 'gu', 'kn', 'ml', 'pa', 'ur', 'fr'];
    const res = await host.request('POST', '/ai/translate/batch', { text: 'Hello', targets });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/targets/);
    expect(a.requests).toHaveLength(0);
  });
});

describe('spec 2, Endpoints AI: detect, languages, config', () => {
  it('detects with a numeric confidence between 0 and 1', async () => {
    a.script({ text: '{"language": "hi", "confidence": 0.97}' });
    expect((await host.request('POST', '/ai/translate/detect', { text: 'नमस्ते' })).body).toEqual({ data: { language: 'hi', language_name: 'Hindi', confidence: 0.97 } });
    a.script({ text: '{"language": "ta", "confidence": 88}' });
    expect((await host.request('POST', '/ai/translate/detect', { text: 'வணக்கம்' })).body.data.confidence).toBe(0.88);
    a.script({ text: '{"language": "tamil", "confidence": "high"}' });
    expect((await host.request('POST', '/ai/translate/detect', { text: 'x' })).status).toBe(502);
  });

  it('lists 44 languages by ISO 639-1 code', async () => {
    const res = await host.request('GET', '/ai/translate/languages');
    expect(res.body.data).toHaveLength(44);
    expect(new Set(res.body.data.map((l: { code: string }) => l.code)).size).toBe(44);
    for (const l of res.body.data) expect(l.code).toMatch(/^[a-z]{2}$/);
    expect(res.body.data).toEqual(expect.arrayContaining([{ code: 'hi', name: 'Hindi' }, { code: 'en', name: 'English' }, { code: 'ta', name: 'Tamil' }]));
  });

  it('config: provider and model override, checked against the provider', async () => {
    expect((await host.request('GET', '/ai/translate/config')).body).toEqual({ data: { provider_id: null, model: null } });
    expect((await host.request('PUT', '/ai/translate/config', { provider_id: 'nope', model: null })).status).toBe(422);
    expect((await host.request('PUT', '/ai/translate/config', { provider_id: 'alpha', model: 'gpt-9' })).status).toBe(422);
    expect((await host.request('PUT', '/ai/translate/config', { provider_id: 'alpha', model: 'model-2' })).body).toEqual({ data: { provider_id: 'alpha', model: 'model-2' } });
    await host.request('POST', '/ai/translate', { text: 'Hi', target: 'fr' });
    expect(a.requests[a.requests.length - 1]!.body.model).toBe('model-2');
    expect((await host.request('PUT', '/ai/translate/config', { provider_id: 'alpha', model: '' })).body).toEqual({ data: { provider_id: 'alpha', model: null } });
  });
});
