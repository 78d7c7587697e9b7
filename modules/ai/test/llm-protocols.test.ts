/**
 * The two vendor protocols of the language-model client, each against its stand-in over real HTTP:
 * request shapes (tools, tool results, system prompt), whole and streamed answers read chunk by
 * chunk, tool names mapped to the vendor's rules and back, cut-off streams refused. The client's
 * fallback and the provider settings are covered through the module's routes (providers.test.ts).
 */
import { SseSplitter } from '../src/llm/protocols/sse';
import { vendora } from '../src/llm/protocols/vendora';
import { vendorb } from '../src/llm/protocols/vendorb';
import type { Protocol } from '../src/llm/protocols/types';
import { ToolNames } from '../src/llm/tool-names';
import type { ChatRequest, ChatStreamEvent } from '../src/llm/types';
import { startVendorA, startVendorB, type StandIn } from './support/vendor-standins';

let a: StandIn;
let b: StandIn;
beforeAll(async () => {
  [a, b] = await Promise.all([startVendorA(), startVendorB()]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const tools = [{ name: 'orders.getStats', description: 'Order statistics', parameters: { type: 'object', properties: { period: { type: 'string' } } } }];
const conversation: ChatRequest = {
  feature: 'agent',
  messages: [
    { role: 'system', content: 'You help the shop.' },
    { role: 'user', content: 'How many orders this week?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', name: 'orders.getStats', arguments: { period: 'week' } }] },
    { role: 'tool', tool_call_id: 'call_9', content: '{"total_orders":42}' },
  ],
  tools,
  temperature: 0.3,
};

/** A streamed body read as the client reads it, in pieces that end anywhere (here every 7 characters). */
function readStream(protocol: Protocol, body: string, names: ToolNames, events: ChatStreamEvent[]) {
  const splitter = new SseSplitter();
  const parser = protocol.streamParser(names);
  const messages = [];
  for (let i = 0; i < body.length; i += 7) messages.push(...splitter.push(body.slice(i, i + 7)));
  for (const message of [...messages, ...splitter.end()]) {
    const { events: got, over } = parser.push(message);
    events.push(...got);
    if (over) break;
  }
  return parser.end();
}

async function send(protocol: Protocol, standIn: StandIn, base: string, req: ChatRequest, stream: boolean) {
  const names = new ToolNames((req.tools ?? []).map((t) => t.name));
  const { url, init } = protocol.request({ base_url: base, model: 'model-x', api_key: 'k-123' }, req, names, stream);
  // The chat protocols send text bodies only.
  const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body as string });
  const body = await res.text();
  const events: ChatStreamEvent[] = [];
  return { names, body, events, parsed: () => (stream ? readStream(protocol, body, names, events) : protocol.parse(body, names)), sent: standIn.requests[standIn.requests.length - 1]! };
}

describe('spec 2, AI configuration: vendora_compatible (chat-completions protocol)', () => {
  it('sends tools under vendor-safe names and a tool result as a role tool message with its tool_call_id', async () => {
    a.script({ text: 'You had 42 orders.' });
    const { parsed, sent } = await send(vendora, a, `${a.url}/v1`, conversation, false);
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body.tools).toEqual([{ type: 'function', function: { name: 'orders_getStats', description: 'Order statistics', parameters: tools[0]!.parameters } }]);
    expect(sent.body.messages.slice(2)).toEqual([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'orders_getStats', arguments: '{"period":"week"}' } }] },
      { role: 'tool', tool_call_id: 'call_9', content: '{"total_orders":42}' },
    ]);
    expect(parsed()).toMatchObject({ content: 'You had 42 orders.', tool_calls: [], finish_reason: 'stop', input_tokens: 10, output_tokens: 5 });
  });

  it('maps a tool call back to the tool name', async () => {
    a.script({ toolCalls: [{ id: 'call_1', name: 'orders_getStats', arguments: { period: 'month' } }] });
    const { parsed } = await send(vendora, a, `${a.url}/v1`, conversation, false);
    expect(parsed()).toMatchObject({ content: null, finish_reason: 'tool_calls', tool_calls: [{ id: 'call_1', name: 'orders.getStats', arguments: { period: 'month' } }] });
  });

  it('reads a stream chunk by chunk: text deltas in order, tool calls once their arguments are whole, usage at the end', async () => {
    a.script({ text: 'Checking your orders now.', toolCalls: [{ id: 'call_2', name: 'orders_getStats', arguments: { period: 'week', status: 'delivered' } }], usage: { input: 31, output: 17 } });
    const { parsed, events, body, sent } = await send(vendora, a, `${a.url}/v1`, conversation, true);
    expect(sent.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
    const result = parsed();
    const deltas = events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Checking your orders now.');
    expect(events[events.length - 1]).toEqual({ type: 'tool_call', call: { id: 'call_2', name: 'orders.getStats', arguments: { period: 'week', status: 'delivered' } } });
    expect(result).toMatchObject({ content: 'Checking your orders now.', finish_reason: 'tool_calls', input_tokens: 31, output_tokens: 17 });
  });

  it('refuses a stream cut off before [DONE]', async () => {
    a.script({ raw: 'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n', stream: true });
    const { parsed } = await send(vendora, a, `${a.url}/v1`, conversation, true);
    expect(parsed).toThrow(/before \[DONE\]/);
  });

  it('asks for a JSON object when the caller wants JSON', async () => {
    const { sent } = await send(vendora, a, `${a.url}/v1`, { ...conversation, tools: [], json: true }, false);
    expect(sent.body.response_format).toEqual({ type: 'json_object' });
    expect(sent.body.tools).toBeUndefined();
  });

  it('the stand-in serves embeddings too', async () => {
    const res = await fetch(`${a.url}/v1/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'emb', input: ['abc'] }) });
    expect(((await res.json()) as { data: Array<{ embedding: number[] }> }).data[0]!.embedding).toHaveLength(3);
  });
});

describe('spec 2, AI configuration: vendorb (Anthropic Messages API style)', () => {
  it('sends the system prompt apart, tools with input_schema, tool use and tool results as content blocks', async () => {
    b.script({ text: 'You had 42 orders.' });
    const { parsed, sent } = await send(vendorb, b, b.url, conversation, false);
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('k-123');
    expect(sent.body).toMatchObject({ model: 'model-x', system: 'You help the shop.', max_tokens: 1024, temperature: 0.3 });
    expect(sent.body.tools).toEqual([{ name: 'orders_getStats', description: 'Order statistics', input_schema: tools[0]!.parameters }]);
    expect(sent.body.messages).toEqual([
      { role: 'user', content: 'How many orders this week?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_9', name: 'orders_getStats', input: { period: 'week' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_9', content: '{"total_orders":42}' }] },
    ]);
    expect(parsed()).toMatchObject({ content: 'You had 42 orders.', finish_reason: 'stop' });
  });

  it('reads a typed event stream: text deltas, tool_use with its input JSON in pieces, usage', async () => {
    b.script({ text: 'Let me look.', toolCalls: [{ id: 'toolu_7', name: 'orders_getStats', arguments: { period: 'day' } }], usage: { input: 12, output: 9 } });
    const { parsed, events } = await send(vendorb, b, b.url, conversation, true);
    const result = parsed();
    expect(events.filter((e) => e.type === 'text').map((e) => (e as { delta: string }).delta).join('')).toBe('Let me look.');
    expect(events.filter((e) => e.type === 'tool_call')).toEqual([{ type: 'tool_call', call: { id: 'toolu_7', name: 'orders.getStats', arguments: { period: 'day' } } }]);
    expect(result).toMatchObject({ finish_reason: 'tool_calls', input_tokens: 12, output_tokens: 9 });
  });

  it('an error event in the stream fails the answer', async () => {
    b.script({ raw: 'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":1}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n', stream: true });
    const { parsed } = await send(vendorb, b, b.url, conversation, true);
    expect(parsed).toThrow(/overloaded_error Overloaded/);
  });
});

describe('tool names for vendors', () => {
  it('are made vendor-safe and unique, and map back', () => {
    const names = new ToolNames(['orders.get', 'orders_get', 'reseller-admin.list.all']);
    expect([names.vendor('orders.get'), names.vendor('orders_get'), names.vendor('reseller-admin.list.all')]).toEqual(['orders_get', 'orders_get_2', 'reseller-admin_list_all']);
    expect(names.own('orders_get_2')).toBe('orders_get');
    expect(names.own('made_up')).toBe('made_up');
  });
});
