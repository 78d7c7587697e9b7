/**
 * Shared by the agent and graph tests: a platform with ai, orders and the Shiprocket module, a
 * scripted stand-in language model on 127.0.0.1 speaking the chat-completions protocol
 * (vendora_compatible: JSON answers, `stream: true` as server-sent events ending in `[DONE]`, tool
 * calls, usage), configured as the tenant's default provider, and helpers for orders and members.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost } from '../../../sdk/testing';
import { addLlmProvider } from './support/host';


export const AI_DIR = path.resolve(__dirname, '..');
export const ORDERS_DIR = path.resolve(__dirname, '../../orders');
export const SHIPROCKET_DIR = path.resolve(__dirname, '../../shipping-shiprocket');

/** One scripted model turn: text, tool calls (by the tool's own name), or both. */
export interface Turn {
  content?: string;
  tool_calls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>;
  usage?: { prompt_tokens: number; completion_tokens: number };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the vendor's JSON as received
export type SeenRequest = { url: string; headers: http.IncomingHttpHeaders; body: any };

/** When the stand-in got a completion request, wrote its first text and ended its answer (performance.now()). */
export interface AnswerTiming {
  receivedAt: number;
  firstTextAt: number | null;
  endedAt: number;
}

export interface LlmStandIn {
  origin: string;
  requests: SeenRequest[];
  /** One per chat completion answered, in order: the stand-in's own time, which benchmarks subtract. */
  timings: AnswerTiming[];
  /** Queues turns; each chat completion takes the next (an empty queue answers "ok"). */
  script(...turns: Turn[]): void;
  /** Milliseconds between streamed pieces (default 0). */
  streamDelayMs: number;
  /** Milliseconds the stand-in waits before each answer (its "own time", for the benchmark). */
  answerDelayMs: number;
  /** Awaited before each streamed text piece after the first (its index): lets a test hold the next token back. */
  beforePiece: ((index: number) => Promise<void>) | null;
  close(): Promise<void>;
}

let callIds = 0;

/** The vendor's name of a tool the request offered: the client may sanitise `orders.get` to `orders_get`. */
function vendorName(req: SeenRequest, name: string): string {
  const offered: string[] = (req.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name);
  return offered.find((n) => n === name || n === name.replace(/[^A-Za-z0-9_-]/g, '_')) ?? name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export async function llmStandIn(): Promise<LlmStandIn> {
  const queue: Turn[] = [];
  const requests: SeenRequest[] = [];
  const timings: AnswerTiming[] = [];
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const state: { streamDelayMs: number; answerDelayMs: number; beforePiece: LlmStandIn['beforePiece'] } = { streamDelayMs: 0, answerDelayMs: 0, beforePiece: null };
  const server = http.createServer((req, res) => {
    const timing: AnswerTiming = { receivedAt: performance.now(), firstTextAt: null, endedAt: 0 };
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      const seen: SeenRequest = { url: req.url!, headers: req.headers, body: raw ? JSON.parse(raw) : null };
      requests.push(seen);
      if (!req.url!.endsWith('/chat/completions')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'stand-in-model', object: 'model' }] }));
        return;
      }
      const turn = queue.shift() ?? { content: 'ok' };
      const calls = (turn.tool_calls ?? []).map((c) => ({ id: c.id ?? `call_${++callIds}`, type: 'function', function: { name: vendorName(seen, c.name), arguments: JSON.stringify(c.arguments) } }));
      const usage = { prompt_tokens: turn.usage?.prompt_tokens ?? 20, completion_tokens: turn.usage?.completion_tokens ?? 10 };
      const total = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
      const finish = calls.length > 0 ? 'tool_calls' : 'stop';
      if (state.answerDelayMs > 0) await sleep(state.answerDelayMs);
      timings.push(timing);
      res.on('finish', () => (timing.endedAt = performance.now()));
      if (!seen.body.stream) {
        timing.firstTextAt = performance.now();
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${callIds}`, object: 'chat.completion', model: seen.body.model ?? 'stand-in-model',
            choices: [{ index: 0, message: { role: 'assistant', content: turn.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) }, finish_reason: finish }],
            usage: total,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = async (chunk: unknown) => {
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        if (state.streamDelayMs > 0) await sleep(state.streamDelayMs);
      };
      const base = { id: `chatcmpl-${callIds}`, object: 'chat.completion.chunk', model: seen.body.model ?? 'stand-in-model' };
      await send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
      for (const [index, piece] of ((turn.content ?? '').match(/\S+\s*/g) ?? []).entries()) {
        if (index > 0 && state.beforePiece) await state.beforePiece(index);
        timing.firstTextAt ??= performance.now();
        await send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
      }
      for (const [index, call] of calls.entries()) {
        await send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }] });
        const args = call.function.arguments;
        const half = Math.ceil(args.length / 2);
        for (const part of [args.slice(0, half), args.slice(half)]) await send({ ...base, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: part } }] }, finish_reason: null }] });
      }
      await send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
      await send({ ...base, choices: [], usage: total });
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    timings,
    script: (...turns) => void queue.push(...turns),
    get streamDelayMs() {
      return state.streamDelayMs;
    },
    set streamDelayMs(ms: number) {
      state.streamDelayMs = ms;
    },
    get answerDelayMs() {
      return state.answerDelayMs;
    },
    set answerDelayMs(ms: number) {
      state.answerDelayMs = ms;
    },
    get beforePiece() {
      return state.beforePiece;
    },
    set beforePiece(gate) {
      state.beforePiece = gate;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Configures the stand-in as the tenant's default language-model provider, as a tenant admin would. */
export async function useStandIn(host: TestHost, llm: LlmStandIn): Promise<void> {
  const networks = await host.request('PATCH', `/admin/tenants/${host.tenantId}/private-networks`, { allow_private_networks: true });
  if (networks.status !== 200) throw new Error(`allowing private networks failed: ${JSON.stringify(networks.body)}`);
  await addLlmProvider(host, { id: 'standin', type: 'vendora_compatible', base_url: `${llm.origin}/v1`, api_key: 'sk-standin-0123456789', models: ['stand-in-model'] });
  const config = await host.request('PUT', '/ai/config', { default_provider: 'standin' });
  if (config.status !== 200) throw new Error(`PUT /ai/config: ${config.status} ${JSON.stringify(config.body)}`);
}

export async function startAiHost(): Promise<{ host: TestHost; llm: LlmStandIn; close(): Promise<void> }> {
  const llm = await llmStandIn();
  const host = await createTestHost({ modulePath: AI_DIR, withModules: [ORDERS_DIR, SHIPROCKET_DIR] });
  await useStandIn(host, llm);
  return {
    host,
    llm,
    close: async () => {
      await host.close();
      await llm.close();
    },
  };
}

let orders = 0;

/** A confirmed order whose one line makes its total `unitPrice` plus 18% GST, over REST. */
export async function createOrder(host: TestHost, unitPrice = '500.00', over: Record<string, unknown> = {}) {
  orders++;
  const res = await host.request('POST', '/orders', {
    customer: { id: `ai-cust-${orders}-${Date.now()}`, name: 'Asha Rao', email: `asha.ai${orders}@example.com`, phone: '+919800000000' },
    items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 1, unit_price: unitPrice }],
    shipping_address: { name: 'Asha Rao', line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', phone: '+919800000000' },
    status: 'confirmed',
    ...over,
  });
  if (res.status !== 201) throw new Error(`POST /orders: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: string; order_number: string; total: string; status: string };
}

/** An order shipped with Shiprocket whose delivery failed: its NDR case is open, escalated (no auto-reattempt). */
export async function orderWithNdr(host: TestHost, unitPrice = '500.00') {
  const order = await createOrder(host, unitPrice);
  const awb = `AI-${order.id.slice(0, 8)}`;
  for (const [method, p, body] of [
    ['PUT', '/order-settings', { ndr_auto_reattempt: false, ndr_max_attempts: 3 }],
    ['POST', `/orders/${order.id}/ship`, { carrier_module: 'shipping-shiprocket', awb_number: awb }],
    ['POST', '/orders/shipments/tracking', { carrier_module: 'shipping-shiprocket', awb_number: awb, status: 'ndr', reason: 'customer not available' }],
  ] as const) {
    const res = await host.request(method, p, body);
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return order;
}

/** A paid (cash) order: one completed payment of its whole total. */
export async function paidOrder(host: TestHost, unitPrice = '500.00') {
  const order = await createOrder(host, unitPrice);
  const res = await host.request('POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total });
  if (res.status !== 201) throw new Error(`POST payments: ${res.status} ${JSON.stringify(res.body)}`);
  return order;
}
