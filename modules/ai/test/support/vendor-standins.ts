/**
 * Stand-in AI vendors: small real HTTP servers on 127.0.0.1 speaking each protocol the module
 * supports, for the ai module's tests (and the agent work's). Each answers from a script — a queue
 * of replies, then `fallback` — and records every request (headers and JSON body) for assertions.
 *
 *   const a = await startVendorA();              // chat completions, SSE streams ending [DONE], embeddings
 *   a.script({ status: 429 }, { text: 'hi' });   // the first call is rate limited, the second answers
 *   a.script({ toolCalls: [{ name: 'orders_get', arguments: { id: '1' } }] });
 *   const b = await startVendorB();              // Messages API style (Anthropic), typed SSE events
 *   const g = await startSpeechStandIn();        // Google-style JSON speech: /v1/text:synthesize, /v1/speech:recognize
 *
 * A reply may also be a function of the request's body, e.g. to answer with what it was sent.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { flac, mp3, opus, wav } from './audio-samples';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the vendor request under test
}

export type Reply =
  | { status: number; error?: string }
  | { text?: string; toolCalls?: Array<{ id?: string; name: string; arguments: Record<string, unknown> }>; usage?: { input: number; output: number }; finish?: string }
  /** An exact body (e.g. a half-finished stream); content type JSON unless `stream`. */
  | { raw: string; stream?: boolean }
  /** Holds the answer this long first (timeouts). */
  | { delayMs: number; then: Reply }
  /** Speech stand-in: exactly these audio bytes. */
  | { audio: Buffer };

type Scripted = Reply | ((body: any) => Reply); // eslint-disable-line @typescript-eslint/no-explicit-any -- the vendor request under test

export interface StandIn {
  url: string;
  origin: string;
  requests: Recorded[];
  /** Replies for the next calls, in order; after them `fallback` answers. */
  script(...replies: Scripted[]): void;
  fallback: Scripted;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

type Writer = (res: ServerResponse, reply: Reply, body: any, path: string) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- as above

async function serve(write: Writer, defaultReply: Scripted): Promise<StandIn> {
  const queue: Scripted[] = [];
  const requests: Recorded[] = [];
  const state: StandIn = {
    url: '',
    origin: '',
    requests,
    script: (...replies) => void queue.push(...replies),
    fallback: defaultReply,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: kept as text */
    }
    const path = req.url ?? '/';
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const next = queue.length > 0 ? queue.shift()! : state.fallback;
    let reply = typeof next === 'function' ? next(body) : next;
    while ('delayMs' in reply) {
      await new Promise((r) => setTimeout(r, (reply as { delayMs: number }).delayMs));
      reply = (reply as { then: Reply }).then;
    }
    if ('raw' in reply) {
      res.writeHead(200, { 'content-type': reply.stream ? 'text/event-stream' : 'application/json' });
      res.end(reply.raw);
      return;
    }
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: reply.error ?? `stand-in error ${reply.status}`, type: reply.status === 429 ? 'rate_limit_error' : 'api_error' } }));
      return;
    }
    write(res, reply, body, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.url = state.origin;
  return state;
}

type Answer = Extract<Reply, { text?: string }>;

const sse = (res: ServerResponse, events: string[]) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  // Written piece by piece, as a vendor does.
  for (const e of events) res.write(e);
  res.end();
};

/** vendora_compatible: POST …/chat/completions (stream or not), POST …/embeddings. */
export function startVendorA(defaultReply: Scripted = { text: 'ok' }): Promise<StandIn> {
  return serve((res, reply, body, path) => {
    const a = reply as Answer;
    if (path.endsWith('/embeddings')) {
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model: body.model, data: inputs.map((s, i) => ({ object: 'embedding', index: i, embedding: [s.length, 0.5, -0.5] })), usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }));
      return;
    }
    const usage = { prompt_tokens: a.usage?.input ?? 10, completion_tokens: a.usage?.output ?? 5 };
    const calls = (a.toolCalls ?? []).map((c, i) => ({ id: c.id ?? `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    const finish = a.finish ?? (calls.length > 0 ? 'tool_calls' : 'stop');
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: a.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish }], usage }));
      return;
    }
    const chunk = (delta: unknown, finishReason: string | null = null, extra: object = {}) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;
    const events = [chunk({ role: 'assistant', content: '' })];
    // Text in pieces of 4 characters; tool calls with their arguments split in two.
    for (const piece of (a.text ?? '').match(/[\s\S]{1,4}/g) ?? []) events.push(chunk({ content: piece }));
    calls.forEach((c, index) => {
      const args = c.function.arguments;
      const half = Math.ceil(args.length / 2);
      events.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: args.slice(0, half) } }] }));
      events.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
    });
    events.push(chunk({}, finish));
    events.push(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model, choices: [], usage })}\n\n`);
    events.push('data: [DONE]\n\n');
    sse(res, events);
  }, defaultReply);
}

/** vendorb (Anthropic Messages API style): POST …/v1/messages, stream or not. */
export function startVendorB(defaultReply: Scripted = { text: 'ok' }): Promise<StandIn> {
  return serve((res, reply, body) => {
    const a = reply as Answer;
    const usage = { input_tokens: a.usage?.input ?? 10, output_tokens: a.usage?.output ?? 5 };
    const blocks = [
      ...(a.text !== undefined ? [{ type: 'text', text: a.text }] : []),
      ...(a.toolCalls ?? []).map((c, i) => ({ type: 'tool_use', id: c.id ?? `toolu_${i + 1}`, name: c.name, input: c.arguments })),
    ];
    const stop = a.finish ?? ((a.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn');
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: blocks, stop_reason: stop, usage }));
      return;
    }
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const events = [ev('message_start', { message: { id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content: [], usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } }), ev('ping', {})];
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
        for (const piece of ((b as { text: string }).text.match(/[\s\S]{1,4}/g) ?? [])) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
      } else {
        const t = b as { id: string; name: string; input: unknown };
        const json = JSON.stringify(t.input);
        const half = Math.ceil(json.length / 2);
        events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: t.id, name: t.name, input: {} } }));
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }));
        events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }));
      }
      events.push(ev('content_block_stop', { index }));
    });
    events.push(ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
    events.push(ev('message_stop', {}));
    sse(res, events);
  }, defaultReply);
}

/** The last user message's text of a vendor request (either protocol). */
export function lastUserText(body: { messages: Array<{ role: string; content: unknown }> }): string {
  const user = [...body.messages].reverse().find((m) => m.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content ?? '');
}

/** The system prompt of a vendor request (either protocol). */
export function systemText(body: { system?: string; messages: Array<{ role: string; content: unknown }> }): string {
  return body.system ?? body.messages.filter((m) => m.role === 'system').map((m) => String(m.content)).join('\n');
}

/**
 * json_base64 speech (after Google Cloud Text-to-Speech and Speech-to-Text):
 * POST /v1/text:synthesize {input: {text}, voice, audioConfig: {audioEncoding}} → {audioContent}, a
 * file of 100 ms per character of text in the encoding asked for (a `{audio}` reply sends exactly
 * those bytes); POST /v1/speech:recognize {config, audio: {content}} → {results: [{alternatives:
 * [{transcript, confidence}]}]}, the transcript saying how many bytes it heard (or a `{text}` reply's).
 */
export function startSpeechStandIn(defaultReply: Scripted = { text: '' }): Promise<StandIn> {
  return serve((res, reply, body, path) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (path.startsWith('/v1/text:synthesize')) {
      const given = (reply as { audio?: Buffer }).audio;
      const ms = String(body.input?.text ?? '').length * 100;
      const make: Record<string, () => Buffer> = { LINEAR16: () => wav(ms), MP3: () => mp3(Math.max(1, Math.round(ms / 26.122))), OGG_OPUS: () => opus(ms), FLAC: () => flac(ms) };
      const audio = given ?? make[body.audioConfig?.audioEncoding]?.() ?? Buffer.alloc(0);
      res.end(JSON.stringify({ audioContent: audio.toString('base64') }));
      return;
    }
    const heard = Buffer.from(String(body.audio?.content ?? ''), 'base64').length;
    const text = (reply as { text?: string }).text || `heard ${heard} bytes of ${body.config?.encoding}`;
    res.end(JSON.stringify({ results: [{ alternatives: [{ transcript: text, confidence: 0.93 }], languageCode: body.config?.languageCode ?? 'en-US' }] }));
  }, defaultReply);
}
