/**
 * The language-model client's contract (what the agent, graph flows and translation call): one chat
 * completion, optionally with tools, against the tenant's configured provider with fallback. Vendor
 * protocols (vendora_compatible, vendorb) are hidden behind it; see ./protocols.
 */

/** A message of the conversation, in one vendor-neutral shape. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  /** A model turn: text, tool calls, or both. */
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  /** The result of one tool call, sent back to the model; `tool_call_id` is the call's id. */
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool the model may call: a bus operation, with its input schema as `parameters`. */
export interface ToolSpec {
  /**
   * The tool's own name (e.g. `orders.getStats`). The client sanitises it for each vendor's rules
   * (`orders_getStats`) and maps calls back, so callers only ever see this name.
   */
  name: string;
  description: string;
  /** JSON Schema of the tool's input (an object schema). */
  parameters: Record<string, unknown>;
}

/** A call the model asked for; `arguments` parsed from the vendor's JSON ({} when it sent none). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ChatRequest {
  /** Who uses the model, for usage tracking: e.g. "agent", "graph", "translation". */
  feature: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  temperature?: number;
  max_tokens?: number;
  /** A provider id (e.g. an agent role's provider_id); null/absent means the tenant's default. The tenant's fallback still applies. */
  provider_id?: string | null;
  /** A model of that provider; absent means the provider's configured model. */
  model?: string;
  /** Ask for a JSON object answer (vendora: response_format json_object; vendorb: by prompt only). */
  json?: boolean;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Decimal string, from the provider's prices per 1,000 tokens ("0" when none are set). */
  cost: string;
}

export interface ChatResult {
  /** The model's answer: text, tool calls, or both. */
  message: { role: 'assistant'; content: string | null; tool_calls: ToolCall[] };
  finish_reason: 'stop' | 'tool_calls' | 'length';
  /** The provider that served the answer (the fallback's id when the default failed). */
  provider: string;
  model: string;
  usage: Usage;
  /** True when the default failed and the fallback answered. */
  fallback_used: boolean;
}

/** What a streamed completion reports as it goes. */
export type ChatStreamEvent =
  | { type: 'text'; delta: string }
  /** A tool call, once its arguments are complete. */
  | { type: 'tool_call'; call: ToolCall };
