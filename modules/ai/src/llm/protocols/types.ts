/** What each vendor protocol implements: build the HTTP request, read the answer (whole or SSE). */
import type { FetchInit } from '../../../../../sdk';
import type { ChatRequest, ChatStreamEvent, ToolCall } from '../types';
import type { ToolNames } from '../tool-names';
import type { SseMessage } from './sse';

/** A provider ready to call: where, which model, with which key. */
export interface Connection {
  base_url: string;
  model: string;
  api_key: string;
}

export interface Completion {
  content: string | null;
  tool_calls: ToolCall[];
  finish_reason: 'stop' | 'tool_calls' | 'length';
  input_tokens: number;
  output_tokens: number;
  model: string;
}

export interface Protocol {
  /** `init` without `stream`: the client decides how it reads the answer. */
  request(conn: Connection, req: ChatRequest, names: ToolNames, stream: boolean): { url: string; init: Omit<FetchInit, 'stream'> };
  /** A non-streamed answer's body. Throws a plain Error whose message says what is wrong with it. */
  parse(body: string, names: ToolNames): Completion;
  /** Reads a streamed answer one server-sent event at a time. */
  streamParser(names: ToolNames): StreamParser;
  /** The vendor's error message inside an error body, if it has one. */
  errorMessage(body: string): string | null;
}

/**
 * A streamed answer being read. `push` takes the next event and answers what it completed (text
 * deltas, finished tool calls), to report at once, and whether the vendor said the answer is over;
 * `end` answers the completion, or throws when the stream stopped short. Both throw a plain Error
 * saying what is wrong with the stream.
 */
export interface StreamParser {
  push(message: SseMessage): { events: ChatStreamEvent[]; over: boolean };
  end(): Completion;
}
