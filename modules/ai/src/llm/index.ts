/**
 * The language-model client for every area of the module:
 *
 *   const result = await chat(ctx, {feature: 'agent', messages, tools, temperature: 0.3});
 *   const result = await chatStream(ctx, {feature: 'agent', messages, tools}, async (e) => { ... });
 *
 * Each runs one completion against the tenant's default provider (or `provider_id`), and on an API
 * error, a timeout or a rate limit against the tenant's fallback (spec 2, AI configuration: General
 * settings); the result names the provider that answered. Both failing → 502 AI_PROVIDERS_FAILED
 * with both reasons. Usage (tokens, cost) is recorded per feature when tracking is on.
 * `embed(ctx, {feature, input: [text]})` gives embeddings (vendora_compatible providers only).
 */
import type { HandlerContext } from '../../../../sdk';
import { complete } from './client';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';
import type { UsageRecord } from './usage';

export type { ChatMessage, ChatRequest, ChatResult, ChatStreamEvent, ToolCall, ToolSpec, Usage } from './types';
export { embed, type EmbedRequest, type EmbedResult } from './embeddings';
export { prefetch } from './client';
export { recordUsage, type UsageRecord } from './usage';

/** `usageRecords`: see complete() (the caller writes them with recordUsage before its call ends). */
export function chat(ctx: HandlerContext, request: ChatRequest, usageRecords?: UsageRecord[]): Promise<ChatResult> {
  return complete(ctx, request, null, usageRecords);
}

/**
 * The same completion, streamed from the vendor (SSE); `onEvent` gets each text delta and each
 * completed tool call in order, and is awaited (a slow reader slows the loop, nothing is buffered
 * without bound). Falls back only while nothing has been reported yet.
 */
export function chatStream(ctx: HandlerContext, request: ChatRequest, onEvent: (event: ChatStreamEvent) => Promise<void>, usageRecords?: UsageRecord[]): Promise<ChatResult> {
  return complete(ctx, request, onEvent, usageRecords);
}
