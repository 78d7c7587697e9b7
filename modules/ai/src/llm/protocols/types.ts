/** What each vendor protocol implements: build the HTTP request, read the answer (whole or SSE). */
import type { FetchInit } from '../../../../../sdk';
import type { ChatRequest, ChatStreamEvent, ToolCall } from '../types';
import type { ToolNames } from '../tool-names';

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
  request(conn: Connection, req: ChatRequest, names: ToolNames, stream: boolean): { url: string; init: FetchInit };
  /** A non-streamed answer's body. Throws a plain Error whose message says what is wrong with it. */
  parse(body: string, names: ToolNames): Completion;
  /** A streamed answer's SSE body; each piece is pushed to `events` in order. */
  parseStream(body: string, names: ToolNames, events: ChatStreamEvent[]): Completion;
  /** The vendor's error message inside an error body, if it has one. */
  errorMessage(body: string): string | null;
}
