/**
 * vendora_compatible: the common chat-completions protocol. POST {base_url}/chat/completions with
 * `Authorization: Bearer <key>`, {model, messages, tools: [{type: function, function: {name,
 * description, parameters}}], temperature, max_tokens, stream}; a tool result goes back as a
 * `role: tool` message with the vendor's `tool_call_id`. Streamed answers are SSE `data:` chunks of
 * choices[0].delta ending with `data: [DONE]`; usage comes in the last chunk when asked for
 * (stream_options.include_usage). Embeddings: POST {base_url}/embeddings {model, input}.
 */
import type { ChatMessage, ChatStreamEvent, ToolCall } from '../types';
import type { ToolNames } from '../tool-names';
import { parseArguments, parseJson } from './sse';
import type { Completion, Protocol } from './types';

interface VendorToolCall {
  id?: string;
  index?: number;
  type?: string;
  function?: { name?: string; arguments?: string };
}
interface VendorUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

function finishOf(reason: unknown, calls: ToolCall[]): Completion['finish_reason'] {
  if (calls.length > 0 || reason === 'tool_calls') return 'tool_calls';
  return reason === 'length' ? 'length' : 'stop';
}

function messagesOut(messages: ChatMessage[], names: ToolNames) {
  return messages.map((m) => {
    if (m.role === 'assistant') {
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, type: 'function', function: { name: names.vendor(c.name), arguments: JSON.stringify(c.arguments) } }));
      return { role: 'assistant', content: m.content, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    }
    return m;
  });
}

export const vendora: Protocol = {
  request(conn, req, names, stream) {
    const body: Record<string, unknown> = {
      model: conn.model,
      messages: messagesOut(req.messages, names),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(req.max_tokens === undefined ? {} : { max_tokens: req.max_tokens }),
      ...(req.json ? { response_format: { type: 'json_object' } } : {}),
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    };
    if (req.tools && req.tools.length > 0) {
      body.tools = req.tools.map((t) => ({ type: 'function', function: { name: names.vendor(t.name), description: t.description, parameters: t.parameters } }));
    }
    return {
      url: `${conn.base_url.replace(/\/+$/, '')}/chat/completions`,
      init: { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${conn.api_key}` }, body: JSON.stringify(body) },
    };
  },

  parse(text, names) {
    const answer = parseJson(text, 'the answer') as { model?: string; choices?: Array<{ message?: { content?: string | null; tool_calls?: VendorToolCall[] }; finish_reason?: string }>; usage?: VendorUsage };
    const choice = answer.choices?.[0];
    if (!choice?.message) throw new Error('the answer has no choices[0].message');
    const calls = (choice.message.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: names.own(c.function?.name ?? ''), arguments: parseArguments(c.function?.arguments) }));
    return {
      content: choice.message.content ?? null,
      tool_calls: calls,
      finish_reason: finishOf(choice.finish_reason, calls),
      input_tokens: answer.usage?.prompt_tokens ?? 0,
      output_tokens: answer.usage?.completion_tokens ?? 0,
      model: answer.model ?? '',
    };
  },

  streamParser(names) {
    let content: string | null = null;
    let reason: unknown = null;
    let usage: VendorUsage = {};
    let model = '';
    let done = false;
    const partial = new Map<number, { id: string; name: string; args: string }>();
    const calls = () => [...partial.entries()].sort(([a], [b]) => a - b).map(([i, c]) => ({ id: c.id || `call_${i}`, name: names.own(c.name), arguments: parseArguments(c.args) }));
    return {
      push({ data }) {
        if (done) return { events: [], over: true };
        if (data === '[DONE]') {
          done = true;
          // Tool calls arrive in fragments; each is whole only at the end.
          return { events: calls().map((call) => ({ type: 'tool_call', call }) satisfies ChatStreamEvent), over: true };
        }
        const chunk = parseJson(data, 'a streamed chunk') as { model?: string; error?: { message?: string }; choices?: Array<{ delta?: { content?: string | null; tool_calls?: VendorToolCall[] }; finish_reason?: string | null }>; usage?: VendorUsage | null };
        if (chunk.error) throw new Error(`the stream reported an error: ${chunk.error.message ?? 'unknown'}`);
        if (chunk.model) model = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices?.[0];
        if (!choice) return { events: [], over: false };
        if (choice.finish_reason) reason = choice.finish_reason;
        const events: ChatStreamEvent[] = [];
        const delta = choice.delta;
        if (typeof delta?.content === 'string' && delta.content !== '') {
          content = (content ?? '') + delta.content;
          events.push({ type: 'text', delta: delta.content });
        }
        for (const c of delta?.tool_calls ?? []) {
          const index = c.index ?? 0;
          const call = partial.get(index) ?? { id: '', name: '', args: '' };
          if (c.id) call.id = c.id;
          if (c.function?.name) call.name += c.function.name;
          if (c.function?.arguments) call.args += c.function.arguments;
          partial.set(index, call);
        }
        return { events, over: false };
      },
      end() {
        if (!done) throw new Error('the stream ended before [DONE]');
        const toolCalls: ToolCall[] = calls();
        return { content, tool_calls: toolCalls, finish_reason: finishOf(reason, toolCalls), input_tokens: usage.prompt_tokens ?? 0, output_tokens: usage.completion_tokens ?? 0, model };
      },
    };
  },

  errorMessage(text) {
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } | string };
      if (typeof body.error === 'string') return body.error;
      return typeof body.error?.message === 'string' ? body.error.message : null;
    } catch {
      return null;
    }
  },
};
