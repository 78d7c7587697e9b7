/**
 * One completion with fallback (spec 2, AI configuration: General settings): the requested or
 * default provider first, then the tenant's fallback when the first fails through an API error
 * (any HTTP error status, 429 included), a timeout or network failure, or an answer that cannot be
 * read. Streamed answers arrive whole through host.fetch, so they are read completely before
 * anything is reported: a failure midway still falls back cleanly, and the caller never sees half
 * an answer from one provider followed by another's.
 */
import type { HandlerContext } from '../../../../sdk';
import { notConfigured, providersFailed } from '../errors';
import { apiKeyOf } from '../providers/credentials';
import { readSettings } from '../providers/settings';
import { findLlmProvider, type LlmProviderRow } from '../providers/store';
import { protocolOf } from './protocols';
import type { Completion } from './protocols/types';
import { ToolNames } from './tool-names';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';
import { costOf, recordUsage } from './usage';
import { httpReason, scrub } from './vendor-error';

type Attempt = { ok: true; provider: LlmProviderRow; completion: Completion; events: ChatStreamEvent[] } | { ok: false; reason: string };

/** Which providers to try, in order: the requested or default one, then the fallback. */
async function chain(ctx: HandlerContext, req: ChatRequest): Promise<string[]> {
  const settings = await readSettings(ctx, 'llm');
  const first = req.provider_id ?? settings.default_provider;
  if (!first) throw notConfigured('No language-model provider is configured: add one (POST /ai/providers), save its credentials and set it as default_provider (PUT /ai/config).');
  return settings.fallback_provider && settings.fallback_provider !== first ? [first, settings.fallback_provider] : [first];
}

/** One provider's try; never throws for the provider's own failure, which becomes the reason. */
export async function attempt(ctx: HandlerContext, providerId: string, req: ChatRequest, model: string | undefined, stream: boolean): Promise<Attempt> {
  const provider = await findLlmProvider(ctx, providerId);
  if (!provider) return { ok: false, reason: 'the provider does not exist' };
  const key = await apiKeyOf(ctx, 'llm', providerId);
  if (!key) return { ok: false, reason: 'the provider has no credentials (PUT /ai/providers/{id}/credentials)' };
  const chosen = model ?? provider.model ?? provider.models[0];
  if (!chosen) return { ok: false, reason: 'the provider has no model' };
  const protocol = protocolOf(provider.type);
  const names = new ToolNames((req.tools ?? []).map((t) => t.name));
  const { url, init } = protocol.request({ base_url: provider.base_url, model: chosen, api_key: key }, req, names, stream);
  let res;
  try {
    res = await ctx.host.fetch(url, { ...init, timeout_ms: (await readSettings(ctx, 'llm')).timeout_ms });
  } catch (err) {
    return { ok: false, reason: scrub((err as Error).message, key) };
  }
  if (res.status >= 400) return { ok: false, reason: httpReason(res.status, protocol.errorMessage(res.body), key) };
  const events: ChatStreamEvent[] = [];
  try {
    const completion = stream ? protocol.parseStream(res.body, names, events) : protocol.parse(res.body, names);
    return { ok: true, provider, completion: { ...completion, model: completion.model || chosen }, events };
  } catch (err) {
    return { ok: false, reason: `unreadable answer: ${scrub((err as Error).message, key)}` };
  }
}

export async function complete(ctx: HandlerContext, req: ChatRequest, onEvent: ((event: ChatStreamEvent) => Promise<void>) | null): Promise<ChatResult> {
  const failures: Array<{ provider: string; reason: string }> = [];
  const providers = await chain(ctx, req);
  for (const [i, providerId] of providers.entries()) {
    // A model named by the caller belongs to the provider it asked for, not to the fallback.
    const result = await attempt(ctx, providerId, req, i === 0 ? req.model : undefined, onEvent !== null);
    if (!result.ok) {
      failures.push({ provider: providerId, reason: result.reason });
      ctx.host.log.warn('AI provider failed', { provider: providerId, feature: req.feature, reason: result.reason });
      continue;
    }
    const { provider, completion } = result;
    const usage = {
      input_tokens: completion.input_tokens,
      output_tokens: completion.output_tokens,
      total_tokens: completion.input_tokens + completion.output_tokens,
      cost: costOf(provider, completion.input_tokens, completion.output_tokens),
    };
    if ((await readSettings(ctx, 'llm')).tracking.enabled) {
      await recordUsage(ctx, { feature: req.feature, provider: provider.id, model: completion.model, input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, cost: usage.cost });
    }
    if (onEvent) for (const event of result.events) await onEvent(event);
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
