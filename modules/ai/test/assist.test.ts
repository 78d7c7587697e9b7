/**
 * The assist features (spec 2, "Which provider is needed": order extraction, auto-responses,
 * product descriptions, embeddings; README, Assist) over HTTP on a real platform with orders,
 * reseller-catalog and live chat, the language model a scripted stand-in on 127.0.0.1.
 */
import type { TestHost } from '../../../sdk/testing';
import type { LlmStandIn } from './agent-support';
import { completions, conversation, product, startAssistHost } from './assist-support';
import { addLlmProvider } from './support/host';
import { startVendorA, startVendorB, type StandIn } from './support/vendor-standins';

let host: TestHost;
let llm: LlmStandIn;
let close: () => Promise<void>;
let kurta: { id: string; sku: string };
let saree: { id: string; sku: string };

beforeAll(async () => {
  ({ host, llm, close } = await startAssistHost());
  kurta = await product(host, 'KURTA-01', 'Cotton kurta', '1000.00', { description: 'Hand-block printed' });
  saree = await product(host, 'SAREE-02', 'Silk saree', '2500.00');
}, 240_000);
afterAll(() => close?.());

/** Polls `probe` until `ok` holds (the out-of-hours answer follows an event), else fails. */
async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const orderCount = async () => (await host.request('GET', '/orders')).body.pagination.total as number;
const extraction = (lines: Array<{ sku: string; quantity: number }>, unknown: Array<{ text: string; quantity?: number }> = []) => ({ content: JSON.stringify({ lines, unknown_items: unknown }) });

describe('spec 2, order extraction: POST /ai/orders/extract, then /confirm', () => {
  it('proposes lines matched to the catalog at catalog prices, unknown items apart, and creates nothing', async () => {
    const before = await orderCount();
    const from = llm.requests.length;
    llm.script(extraction([{ sku: 'kurta-01', quantity: 2 }, { sku: 'SAREE-02', quantity: 1 }, { sku: 'NOPE-9', quantity: 3 }], [{ text: 'a blue dupatta', quantity: 1 }]));
    const res = await host.request('POST', '/ai/orders/extract', { text: 'Hi, send me 2 cotton kurtas, one silk saree, 3 nope and a blue dupatta', customer: { name: 'Asha Rao', phone: '+919800000000' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'proposed',
      lines: [
        { product_id: kurta.id, sku: 'KURTA-01', name: 'Cotton kurta', quantity: 2, unit_price: '1150.00', line_total: '2300.00' },
        { product_id: saree.id, sku: 'SAREE-02', quantity: 1, unit_price: '2875.00', line_total: '2875.00' },
      ],
      unknown_items: [
        { text: 'a blue dupatta', quantity: 1, reason: 'not in the catalog' },
        { text: 'NOPE-9', quantity: 3, reason: 'not in the catalog' },
      ],
      subtotal: '5175.00',
      order_id: null,
      provider: 'standin',
    });
    // The model saw the catalog (SKU and name, no prices) and the message as the user turn.
    const sent = completions(llm, from)[0]!.body;
    expect(sent.messages[0].content).toContain('"sku":"KURTA-01"');
    expect(sent.messages[0].content).not.toContain('1150');
    expect(sent.messages[1]).toEqual({ role: 'user', content: expect.stringContaining('2 cotton kurtas') });
    expect(await orderCount()).toBe(before);
  });

  it('confirm creates one pending draft order through orders, at catalog prices; a second confirm is 409', async () => {
    llm.script(extraction([{ sku: 'KURTA-01', quantity: 3 }]));
    const proposed = (await host.request('POST', '/ai/orders/extract', { text: 'three kurtas please', customer: { name: 'Ravi', phone: '+919811111111' } })).body.data;
    const [a, b] = await Promise.all([host.request('POST', `/ai/orders/extract/${proposed.id}/confirm`), host.request('POST', `/ai/orders/extract/${proposed.id}/confirm`)]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([201, 409]);
    const done = a.status === 201 ? a : b;
    const lost = a.status === 201 ? b : a;
    expect(lost.body.code).toBe('EXTRACTION_NOT_PROPOSED');
    expect(done.body.data.extraction).toMatchObject({ status: 'confirmed', order_id: done.body.data.order.id });
    const order = (await host.request('GET', `/orders/${done.body.data.order.id}`)).body;
    expect(order).toMatchObject({ status: 'pending', source: 'ai_extraction', customer: expect.objectContaining({ name: 'Ravi' }) });
    expect(order.items).toEqual([expect.objectContaining({ sku: 'KURTA-01', quantity: 3, unit_price: '1150.00' })]);
    expect((await host.request('POST', `/ai/orders/extract/${proposed.id}/confirm`)).status).toBe(409);
  });

  it('a model answer outside the schema (a price, a huge quantity, prose) is 502 AI_BAD_ANSWER and nothing is kept', async () => {
    for (const content of [
      JSON.stringify({ lines: [{ sku: 'KURTA-01', quantity: 1, unit_price: '1.00' }], unknown_items: [] }),
      JSON.stringify({ lines: [{ sku: 'KURTA-01', quantity: 1_000_000 }], unknown_items: [] }),
      'Sure! Two kurtas.',
    ]) {
      llm.script({ content });
      const res = await host.request('POST', '/ai/orders/extract', { text: 'kurta' });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('AI_BAD_ANSWER');
    }
  });

  it('bad input is 422 before any model call; an unknown or malformed id is 404', async () => {
    const from = llm.requests.length;
    for (const body of [{ text: '' }, { text: 'x'.repeat(4001) }, {}, { text: 'a', customer: { name: 'x', tenant: 'y' } }]) expect((await host.request('POST', '/ai/orders/extract', body)).status).toBe(422);
    expect(completions(llm, from)).toHaveLength(0);
    expect((await host.request('POST', '/ai/orders/extract/00000000-0000-4000-8000-000000000000/confirm')).status).toBe(404);
    expect((await host.request('POST', '/ai/orders/extract/nope/confirm')).body.code).toBe('NOT_FOUND');
  });
});

describe('spec 2, auto-responses: POST /ai/live-chat/conversations/{id}/suggest-reply', () => {
  it("suggests a reply from the conversation's messages; nothing is sent", async () => {
    const id = await conversation(host, ['Hello, where is my order ORD-000042?', 'It was due yesterday.']);
    const before = (await host.request('GET', `/live-chat/conversations/${id}/messages`)).body.data.length;
    const from = llm.requests.length;
    llm.script({ content: JSON.stringify({ reply: 'Sorry for the wait! Let me check ORD-000042 for you.' }) });
    const res = await host.request('POST', `/ai/live-chat/conversations/${id}/suggest-reply`, { instructions: 'be brief' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ conversation_id: id, suggestion: 'Sorry for the wait! Let me check ORD-000042 for you.', based_on_messages: 2, provider: 'standin' });
    const sent = completions(llm, from)[0]!.body;
    expect(sent.messages[1].content).toContain('It was due yesterday.');
    expect(sent.messages[0].content).toContain('be brief');
    expect((await host.request('GET', `/live-chat/conversations/${id}/messages`)).body.data).toHaveLength(before);
  });

  it('an unknown conversation is 404', async () => {
    const res = await host.request('POST', '/ai/live-chat/conversations/999999/suggest-reply', {});
    expect(res.status).toBe(404);
    // Live chat's own answer, read as the user: not a missing route.
    expect(res.body.message).toMatch(/conversation/i);
  });
});

describe('spec 2, product descriptions: POST /ai/products/{id}/description', () => {
  it('drafts one description per language, saves nothing; the save call writes it through the catalog', async () => {
    llm.script({ content: JSON.stringify({ descriptions: { en: 'A breathable cotton kurta.', hi: 'एक हवादार सूती कुर्ता।' } }) });
    const res = await host.request('POST', `/ai/products/${kurta.id}/description`, { languages: ['en', 'hi'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ product_id: kurta.id, saved: false, drafts: [{ language: 'en', description: 'A breathable cotton kurta.' }, { language: 'hi', description: 'एक हवादार सूती कुर्ता।' }] });
    expect((await host.request('GET', `/reseller-catalog/master-products/${kurta.id}`)).body.product.description).toBe('Hand-block printed');
    const saved = await host.request('POST', `/ai/products/${kurta.id}/description/save`, { description: 'A breathable cotton kurta.' });
    expect(saved.body).toEqual({ data: { product_id: kurta.id, description: 'A breathable cotton kurta.', saved: true } });
    expect((await host.request('GET', `/reseller-catalog/master-products/${kurta.id}`)).body.product.description).toBe('A breathable cotton kurta.');
  });

  it('a model leaving out a language asked for is 502; more than 10 languages or a bad code is 422; an unknown product 404', async () => {
    llm.script({ content: JSON.stringify({ descriptions: { en: 'Only English.' } }) });
    expect((await host.request('POST', `/ai/products/${kurta.id}/description`, { languages: ['en', 'ta'] })).status).toBe(502);
    const eleven = ['en', 'hi', 'ta', 'te', 'bn', 'mr', 'gu', 'kn', 'ml', 'pa', 'ur'];
    expect((await host.request('POST', `/ai/products/${kurta.id}/description`, { languages: eleven })).status).toBe(422);
    expect((await host.request('POST', `/ai/products/${kurta.id}/description`, { languages: ['hindi'] })).status).toBe(422);
    expect((await host.request('POST', '/ai/products/00000000-0000-4000-8000-000000000000/description', { languages: ['en'] })).status).toBe(404);
  });
});

describe('spec 2, Which provider is needed: POST /ai/embeddings needs a vendora_compatible provider', () => {
  let a: StandIn;
  let b: StandIn;
  beforeAll(async () => {
    a = await startVendorA();
    b = await startVendorB();
    await addLlmProvider(host, { id: 'emb-a', type: 'vendora_compatible', base_url: `${a.url}/v1`, api_key: 'sk-embeddings-0123456789', models: ['embed-1'] });
    await addLlmProvider(host, { id: 'emb-b', type: 'vendorb', base_url: b.url, api_key: 'sk-vendorb-0123456789' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('answers the embeddings of the named provider through /v1/embeddings', async () => {
    const res = await host.request('POST', '/ai/embeddings', { input: ['red shoes', 'blue'], provider_id: 'emb-a' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ provider: 'emb-a', model: 'embed-1', embeddings: [[9, 0.5, -0.5], [4, 0.5, -0.5]], usage: { input_tokens: 2 } });
    expect(a.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'embed-1', input: ['red shoes', 'blue'] } });
    expect((await host.request('POST', '/ai/embeddings', { input: 'one', provider_id: 'emb-a' })).body.data.embeddings).toEqual([[3, 0.5, -0.5]]);
  });

  it('a vendorb provider is a clear 422 naming its type, and nothing is sent', async () => {
    const sent = b.requests.length;
    const res = await host.request('POST', '/ai/embeddings', { input: ['x'], provider_id: 'emb-b' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'EMBEDDINGS_UNSUPPORTED', message: expect.stringContaining('vendorb'), errors: { provider_id: [expect.stringContaining('vendorb')] } });
    expect(b.requests).toHaveLength(sent);
  });

  it('input bounds: more than 100 texts or an empty one is 422', async () => {
    expect((await host.request('POST', '/ai/embeddings', { input: Array.from({ length: 101 }, () => 'x'), provider_id: 'emb-a' })).status).toBe(422);
    expect((await host.request('POST', '/ai/embeddings', { input: [''], provider_id: 'emb-a' })).status).toBe(422);
  });
});

describe('spec 2, auto-responses: the first answer outside business hours (PUT /ai/live-chat/auto-response)', () => {
  const CLOSED = { timezone: 'Asia/Kolkata', monday: { enabled: false }, tuesday: { enabled: false }, wednesday: { enabled: false }, thursday: { enabled: false }, friday: { enabled: false }, saturday: { enabled: false }, sunday: { enabled: false } };
  const ALWAYS = Object.fromEntries(Object.entries(CLOSED).map(([k, v]) => [k, typeof v === 'string' ? v : { enabled: true, start: '00:00', end: '23:59' }]));
  const botMessages = async (id: number) => ((await host.request('GET', `/live-chat/conversations/${id}/messages`)).body.data as Array<{ sender_type: string; content: string }>).filter((m) => m.sender_type === 'bot');

  it('is off by default; bad business hours are 422; switching on needs business hours', async () => {
    expect((await host.request('GET', '/ai/live-chat/auto-response')).body.data).toMatchObject({ enabled: false, business_hours: null, answer: 'message' });
    expect((await host.request('PUT', '/ai/live-chat/auto-response', { enabled: true })).status).toBe(422);
    expect((await host.request('PUT', '/ai/live-chat/auto-response', { business_hours: { ...CLOSED, timezone: 'Mars/Olympus' } })).body.errors.business_hours).toBeDefined();
    expect((await host.request('PUT', '/ai/live-chat/auto-response', { business_hours: { ...CLOSED, monday: { enabled: true, start: '25:00', end: '18:00' } } })).status).toBe(422);
  });

  it('outside hours the visitor gets the message once per conversation; inside hours nothing', async () => {
    const set = await host.request('PUT', '/ai/live-chat/auto-response', { enabled: true, business_hours: CLOSED, answer: 'message', message: 'We are closed; back at 9.' });
    expect(set.status).toBe(200);
    const id = await conversation(host, ['Anyone there?', 'Hello?']);
    await eventually(() => botMessages(id), (m) => m.length > 0, 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(await botMessages(id)).toEqual([expect.objectContaining({ content: 'We are closed; back at 9.' })]);

    // Open all day (but the last minute): no answer.
    expect((await host.request('PUT', '/ai/live-chat/auto-response', { business_hours: ALWAYS })).status).toBe(200);
    const open = await conversation(host, ['Hi']);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await botMessages(open)).toEqual([]);
  });

  it('with answer: ai the model answers the first message', async () => {
    await host.request('PUT', '/ai/live-chat/auto-response', { enabled: true, business_hours: CLOSED, answer: 'ai', message: 'Closed now.' });
    const from = llm.requests.length;
    llm.script({ content: 'We are offline now, but your question about sizes will be answered at 9.' });
    const id = await conversation(host, ['Do you have the kurta in XL?']);
    await eventually(() => botMessages(id), (m) => m.length > 0, 10_000);
    expect((await botMessages(id))[0]!.content).toBe('We are offline now, but your question about sizes will be answered at 9.');
    expect(completions(llm, from)[0]!.body.messages[1]).toEqual({ role: 'user', content: 'Do you have the kurta in XL?' });
    await host.request('PUT', '/ai/live-chat/auto-response', { enabled: false });
  });
});
