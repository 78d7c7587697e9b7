/**
 * vendorb: modelled on the Anthropic Messages API. POST {base_url}/v1/messages with `x-api-key` and
 * `anthropic-version: 2023-06-01`, {model, system, messages, tools: [{name, description,
 * input_schema}], max_tokens (required: 1024 when the caller gives none), temperature, stream}.
 * Assistant turns are content blocks (text, tool_use {id, name, input}); tool results go back as a
 * user turn of tool_result blocks {tool_use_id, content}. Streamed answers are typed SSE events:
 * message_start (input usage), content_block_start / content_block_delta (text_delta,
 * input_json_delta) / content_block_stop, message_delta (stop_reason, output usage), message_stop,
 * and `error`. No embeddings.
 */
import type { ChatMessage, ChatStreamEvent, ToolCall } from '../types';
import type { ToolNames } from '../tool-names';
import { parseArguments, parseJson } from './sse';
import type { Completion, Protocol } from './types';

const DEFAULT_MAX_TOKENS = 1024;

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown } | { type: 'tool_result'; tool_use_id: string; content: string };

function finishOf(reason: unknown, calls: ToolCall[]): Completion['finish_reason'] {
  if (calls.length > 0 || reason === 'tool_use') return 'tool_calls';
  return reason === 'max_tokens' ? 'length' : 'stop';
}

/** System messages become `system`; consecutive tool results one user turn, as the API wants. */
function messagesOut(messages: ChatMessage[], names: ToolNames) {
  const system: string[] = [];
  const out: Array<{ role: 'user' | 'assistant'; content: string | Block[] }> = [];
  for (const m of messages) {
    if (m.role === 'system') system.push(m.content);
    else if (m.role === 'user') out.push({ role: 'user', content: m.content });
    else if (m.role === 'assistant') {
      const blocks: Block[] = [];
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const c of m.tool_calls ?? []) blocks.push({ type: 'tool_use', id: c.id, name: names.vendor(c.name), input: c.arguments });
      out.push({ role: 'assistant', content: blocks });
    } else {
      const last = out[out.length - 1];
      const block: Block = { type: 'tool_result', tool_use_id: m.tool_call_id, content: m.content };
      if (last && last.role === 'user' && Array.isArray(last.content) && last.content.every((b) => b.type === 'tool_result')) last.content.push(block);
      else out.push({ role: 'user', content: [block] });
    }
  }
  return { system: system.join('\n\n'), messages: out };
}

function fromBlocks(blocks: Array<{ type?: string; text?: string; id?: string; name?: string; input?: unknown }>, names: ToolNames) {
  let content: string | null = null;
  const calls: ToolCall[] = [];
  for (const b of blocks) {
    if (b.type === 'text' && typeof b.text === 'string') content = (content ?? '') + b.text;
    if (b.type === 'tool_use') {
      const input = b.input;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new Error('a tool_use block has no input object');
      calls.push({ id: b.id ?? `toolu_${calls.length}`, name: names.own(b.name ?? ''), arguments: input as Record<string, unknown> });
    }
  }
  return { content, calls };
}

export const vendorb: Protocol = {
  request(conn, req, names, stream) {
    const { system, messages } = messagesOut(req.messages, names);
    // The API has no JSON mode: a JSON answer is asked for in the prompt (the caller's) only.
    const body: Record<string, unknown> = {
      model: conn.model,
      messages,
      max_tokens: req.max_tokens ?? DEFAULT_MAX_TOKENS,
      ...(system ? { system } : {}),
      ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      ...(stream ? { stream: true } : {}),
    };
    if (req.tools && req.tools.length > 0) body.tools = req.tools.map((t) => ({ name: names.vendor(t.name), description: t.description, input_schema: t.parameters }));
    return {
      url: `${conn.base_url.replace(/\/+$/, '')}/v1/messages`,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': conn.api_key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      },
    };
  },

  parse(text, names) {
    const answer = parseJson(text, 'the answer') as { model?: string; content?: unknown; stop_reason?: string; usage?: { input_tokens?: number; output_tokens?: number } };
    if (!Array.isArray(answer.content)) throw new Error('the answer has no content blocks');
    const { content, calls } = fromBlocks(answer.content as Array<Record<string, never>>, names);
    return {
      content,
      tool_calls: calls,
      finish_reason: finishOf(answer.stop_reason, calls),
      input_tokens: answer.usage?.input_tokens ?? 0,
      output_tokens: answer.usage?.output_tokens ?? 0,
      model: answer.model ?? '',
    };
  },

  streamParser(names) {
    let content: string | null = null;
    let reason: unknown = null;
    let input = 0;
    let output = 0;
    let model = '';
    let stopped = false;
    const blocks = new Map<number, { type: string; id: string; name: string; json: string }>();
    const calls: ToolCall[] = [];
    return {
      push({ event, data }) {
        if (stopped) return { events: [], over: true };
        const e = parseJson(data, 'a streamed event') as {
          type?: string;
          index?: number;
          message?: { model?: string; usage?: { input_tokens?: number; output_tokens?: number } };
          content_block?: { type?: string; id?: string; name?: string };
          delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
          usage?: { output_tokens?: number };
          error?: { type?: string; message?: string };
        };
        const type = e.type ?? event;
        const events: ChatStreamEvent[] = [];
        if (type === 'error') throw new Error(`the stream reported an error: ${e.error?.type ?? ''} ${e.error?.message ?? ''}`.trim());
        if (type === 'message_start') {
          model = e.message?.model ?? model;
          input = e.message?.usage?.input_tokens ?? input;
          output = e.message?.usage?.output_tokens ?? output;
        } else if (type === 'content_block_start') {
          blocks.set(e.index ?? 0, { type: e.content_block?.type ?? 'text', id: e.content_block?.id ?? '', name: e.content_block?.name ?? '', json: '' });
        } else if (type === 'content_block_delta') {
          const block = blocks.get(e.index ?? 0);
          if (e.delta?.type === 'text_delta' && typeof e.delta.text === 'string') {
            content = (content ?? '') + e.delta.text;
            events.push({ type: 'text', delta: e.delta.text });
          } else if (e.delta?.type === 'input_json_delta' && block) block.json += e.delta.partial_json ?? '';
        } else if (type === 'content_block_stop') {
          const block = blocks.get(e.index ?? 0);
          if (block?.type === 'tool_use') {
            const call = { id: block.id || `toolu_${calls.length}`, name: names.own(block.name), arguments: parseArguments(block.json) };
            calls.push(call);
            events.push({ type: 'tool_call', call });
          }
        } else if (type === 'message_delta') {
          reason = e.delta?.stop_reason ?? reason;
          output = e.usage?.output_tokens ?? output;
        } else if (type === 'message_stop') stopped = true;
        return { events, over: stopped };
      },
      end() {
        if (!stopped) throw new Error('the stream ended before message_stop');
        return { content, tool_calls: calls, finish_reason: finishOf(reason, calls), input_tokens: input, output_tokens: output, model };
      },
    };
  },

  errorMessage(text) {
    try {
      const body = JSON.parse(text) as { error?: { message?: unknown } };
      return typeof body.error?.message === 'string' ? body.error.message : null;
    } catch {
      return null;
    }
  },
};
