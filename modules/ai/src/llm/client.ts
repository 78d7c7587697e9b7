/**
 * One completion with fallback (spec 2, AI configuration: General settings): the requested or
 * default provider first, then the tenant's fallback when the first fails through an API error
 * (any HTTP error status, 429 included), a timeout or network failure, or an answer that cannot be
 * read. Streamed answers are read as they arrive (host.fetch with `stream: true`) and each text
 * delta or finished tool call is reported at once. The fallback is asked only while nothing has been
 * reported: a failure after the first piece ends the completion with the reason, so the caller never
 * sees half an answer from one provider followed by another's.
 */
import type { FetchInit, HandlerContext } from '../../../../sdk';
import { configRead } from '../config-cache';
import { notConfigured, providersFailed } from '../errors';
import { apiKeyOf } from '../providers/credentials';
import { readSettings, type LlmSettings } from '../providers/settings';
import { findLlmProvider, type LlmProviderRow } from '../providers/store';
import { protocolOf } from './protocols';
import { SseSplitter } from './protocols/sse';
import type { Completion, Protocol } from './protocols/types';
import { ToolNames } from './tool-names';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';
import { costOf, recordUsage, usageRecord, type UsageRecord } from './usage';
import { httpReason, scrub } from './vendor-error';

type Attempt = { ok: true; provider: LlmProviderRow; completion: Completion } | { ok: false; reason: string; reported?: boolean };
type OnEvent = (event: ChatStreamEvent) => Promise<void>;

/** An error body is read up to this much for the vendor's message. */
const MAX_ERROR_BODY = 64 * 1024;

const llmSettings = (ctx: HandlerContext): Promise<LlmSettings> => configRead(ctx, 'settings:llm', () => readSettings(ctx, 'llm'));
const providerRow = (ctx: HandlerContext, id: string) => configRead(ctx, `provider:${id}`, () => findLlmProvider(ctx, id));
const providerKey = (ctx: HandlerContext, id: string) => configRead(ctx, `key:${id}`, () => apiKeyOf(ctx, 'llm', id));

/**
 * Starts the reads of the first completion (settings, then the default provider's row and key) so a
 * caller with reads of its own (the agent's tools) waits for both at once; mostly they are answered
 * from ../config-cache.ts. A failure here is not reported, the completion's own read reports it. A
 * request naming another provider reads that one as well.
 */
export function prefetch(ctx: HandlerContext): void {
  llmSettings(ctx).then(
    (settings) => {
      if (!settings.default_provider) return;
      providerRow(ctx, settings.default_provider).catch(() => undefined);
      providerKey(ctx, settings.default_provider).catch(() => undefined);
    },
    () => undefined,
  );
}

/** Which providers to try, in order: the requested or default one, then the fallback. */
async function chain(ctx: HandlerContext, req: ChatRequest): Promise<string[]> {
  const settings = await llmSettings(ctx);
  const first = req.provider_id ?? settings.default_provider;
  if (!first) throw notConfigured('No language-model provider is configured: add one (POST /ai/providers), save its credentials and set it as default_provider (PUT /ai/config).');
  return settings.fallback_provider && settings.fallback_provider !== first ? [first, settings.fallback_provider] : [first];
}

/**
 * One provider's try; never throws for the provider's own failure, which becomes the reason. With
 * `onEvent` the answer is streamed and reported as it comes.
 */
export async function attempt(ctx: HandlerContext, providerId: string, req: ChatRequest, model: string | undefined, onEvent: OnEvent | null): Promise<Attempt> {
  // The row and the key at once; every round of a chat uses the same (../config-cache.ts).
  const [provider, key] = await Promise.all([providerRow(ctx, providerId), providerKey(ctx, providerId)]);
  if (!provider) return { ok: false, reason: 'the provider does not exist' };
  if (!key) return { ok: false, reason: 'the provider has no credentials (PUT /ai/providers/{id}/credentials)' };
  const chosen = model ?? provider.model ?? provider.models[0];
  if (!chosen) return { ok: false, reason: 'the provider has no model' };
  const protocol = protocolOf(provider.type);
  const names = new ToolNames((req.tools ?? []).map((t) => t.name));
  const { url, init } = protocol.request({ base_url: provider.base_url, model: chosen, api_key: key }, req, names, onEvent !== null);
  const timeout_ms = (await llmSettings(ctx)).timeout_ms;
  const read = onEvent ? streamed(ctx, protocol, names, url, { ...init, timeout_ms }, key, onEvent) : whole(ctx, protocol, names, url, { ...init, timeout_ms }, key);
  const result = await read.catch((err: Error) => ({ ok: false as const, reason: err.message, reported: false }));
  if (!result.ok) return { ...result, reason: scrub(result.reason, key) };
  return { ok: true, provider, completion: { ...result.completion, model: result.completion.model || chosen } };
}

type Read = { ok: true; completion: Completion } | { ok: false; reason: string; reported: boolean };
type Init = Omit<FetchInit, 'stream'>;

async function whole(ctx: HandlerContext, protocol: Protocol, names: ToolNames, url: string, init: Init, key: string): Promise<Read> {
  const res = await ctx.host.fetch(url, init);
  if (res.status >= 400) return { ok: false, reason: httpReason(res.status, protocol.errorMessage(res.body), key), reported: false };
  try {
    return { ok: true, completion: protocol.parse(res.body, names) };
  } catch (err) {
    return { ok: false, reason: `unreadable answer: ${(err as Error).message}`, reported: false };
  }
}

/** Reads the vendor's server-sent events as they arrive and reports each piece before reading on. */
async function streamed(ctx: HandlerContext, protocol: Protocol, names: ToolNames, url: string, init: Init, key: string, onEvent: OnEvent): Promise<Read> {
  const res = await ctx.host.fetch(url, { ...init, stream: true });
  if (res.status >= 400) {
    let body = '';
    for await (const piece of res.body) {
      body += piece;
      if (body.length >= MAX_ERROR_BODY) break;
    }
    return { ok: false, reason: httpReason(res.status, protocol.errorMessage(body), key), reported: false };
  }
  const splitter = new SseSplitter();
  const parser = protocol.streamParser(names);
  let reported = false;
  const take = async (messages: ReturnType<SseSplitter['push']>): Promise<boolean> => {
    for (const message of messages) {
      const { events, over } = parser.push(message);
      for (const event of events) {
        reported = true;
        await onEvent(event);
      }
      if (over) return true;
    }
    return false;
  };
  try {
    let over = false;
    for (;;) {
      const piece = await res.body.read();
      if (piece.done) break;
      if ((over = await take(splitter.push(piece.value)))) break;
    }
    if (over) await res.body.cancel();
    else await take(splitter.end());
    return { ok: true, completion: parser.end() };
  } catch (err) {
    await res.body.cancel().catch(() => undefined);
    const message = (err as Error).message;
    // A vendor's broken stream reads as an unreadable answer; the host's own refusal (a limit, a lost connection) as it is.
    return { ok: false, reason: (err as { code?: unknown }).code ? message : `unreadable answer: ${message}`, reported };
  }
}

/**
 * With `usageRecords` the usage record is not written but added there, for a caller that makes
 * several completions in one call (the agent) to write them all at its end in one statement
 * (recordUsage): one crossing less per round.
 */
export async function complete(ctx: HandlerContext, req: ChatRequest, onEvent: OnEvent | null, usageRecords?: UsageRecord[]): Promise<ChatResult> {
  const failures: Array<{ provider: string; reason: string }> = [];
  const providers = await chain(ctx, req);
  for (const [i, providerId] of providers.entries()) {
    // A model named by the caller belongs to the provider it asked for, not to the fallback.
    const result = await attempt(ctx, providerId, req, i === 0 ? req.model : undefined, onEvent);
    if (!result.ok) {
      failures.push({ provider: providerId, reason: result.reason });
      ctx.host.log.warn('AI provider failed', { provider: providerId, feature: req.feature, reason: result.reason });
      // Part of this provider's answer reached the caller already: another's must not follow it.
      if (result.reported) break;
      continue;
    }
    const { provider, completion } = result;
    const usage = {
      input_tokens: completion.input_tokens,
      output_tokens: completion.output_tokens,
      total_tokens: completion.input_tokens + completion.output_tokens,
      cost: costOf(provider, completion.input_tokens, completion.output_tokens),
    };
    if ((await llmSettings(ctx)).tracking.enabled) {
      const record = usageRecord(ctx, { feature: req.feature, provider: provider.id, model: completion.model, input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, cost: usage.cost });
      if (usageRecords) usageRecords.push(record);
      else await recordUsage(ctx, [record]);
    }
    return {
      message: { role: 'assistant', content: completion.content, tool_calls: completion.tool_calls },
      finish_reason: completion.finish_reason,
      provider: provider.id,
      model: completion.model,
      usage,
      fallback_used: i > 0,
    };
  }
  throw providersFailed(failures);
}
