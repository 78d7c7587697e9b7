/**
 * Embeddings (spec 2, "Which provider is needed": embeddings need a vendora_compatible provider;
 * vendorb has none): POST {base_url}/embeddings {model, input} → {data: [{embedding}], usage}.
 * The default provider, then the fallback; a vendorb provider is skipped with that reason. The
 * model is the caller's (embedding models differ from chat models) or the provider's.
 */
import type { HandlerContext } from '../../../../sdk';
import { aiErrors, notConfigured, providersFailed } from '../errors';
import { apiKeyOf } from '../providers/credentials';
import { readSettings } from '../providers/settings';
import { findLlmProvider } from '../providers/store';
import { costOf, recordUsage, usageRecord } from './usage';
import { httpReason, scrub } from './vendor-error';
import { vendora } from './protocols/vendora';

export interface EmbedRequest {
  feature: string;
  input: string[];
  model?: string;
  provider_id?: string | null;
}

export interface EmbedResult {
  embeddings: number[][];
  provider: string;
  model: string;
  usage: { input_tokens: number; cost: string };
}

export async function embed(ctx: HandlerContext, req: EmbedRequest): Promise<EmbedResult> {
  const settings = await readSettings(ctx, 'llm');
  const first = req.provider_id ?? settings.default_provider;
  if (!first) throw notConfigured('No language-model provider is configured for embeddings (PUT /ai/config).');
  // A provider asked for by id is the only one tried (the caller chose it); else default, then fallback.
  const ids = req.provider_id ? [first] : settings.fallback_provider && settings.fallback_provider !== first ? [first, settings.fallback_provider] : [first];
  const chain = await Promise.all(ids.map((id) => findLlmProvider(ctx, id)));
  const types = chain.flatMap((p) => (p ? [{ provider: p.id, type: p.type }] : []));
  // Spec 2: embeddings need an OpenAI-compatible provider. When none of them is one, the answer is
  // a 422 naming the types rather than a 502: no retry would help, the configuration must change.
  if (types.length === ids.length && types.every((t) => t.type !== 'vendora_compatible')) {
    throw aiErrors.embeddingsUnsupported(types);
  }
  const failures: Array<{ provider: string; reason: string }> = [];
  for (const [i, id] of ids.entries()) {
    const provider = chain[i];
    const key = provider ? await apiKeyOf(ctx, 'llm', id) : null;
    const model = req.model ?? provider?.model ?? provider?.models[0];
    if (!provider) failures.push({ provider: id, reason: 'the provider does not exist' });
    else if (provider.type !== 'vendora_compatible') failures.push({ provider: id, reason: 'vendorb providers have no embeddings' });
    else if (!key || !model) failures.push({ provider: id, reason: 'the provider has no credentials or model' });
    else {
      let res;
      try {
        res = await ctx.host.fetch(`${provider.base_url.replace(/\/+$/, '')}/embeddings`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({ model, input: req.input }),
          timeout_ms: settings.timeout_ms,
        });
      } catch (err) {
        failures.push({ provider: id, reason: scrub((err as Error).message, key) });
        continue;
      }
      if (res.status >= 400) {
        failures.push({ provider: id, reason: httpReason(res.status, vendora.errorMessage(res.body), key) });
        continue;
      }
      try {
        const body = JSON.parse(res.body) as { data?: Array<{ index?: number; embedding?: number[] }>; usage?: { prompt_tokens?: number } };
        const rows = [...(body.data ?? [])].sort((x, y) => (x.index ?? 0) - (y.index ?? 0));
        if (rows.length !== req.input.length || !rows.every((r) => Array.isArray(r.embedding))) throw new Error('one embedding per input expected');
        const tokens = body.usage?.prompt_tokens ?? 0;
        const cost = costOf(provider, tokens, 0);
        if (settings.tracking.enabled) await recordUsage(ctx, [usageRecord(ctx, { feature: req.feature, provider: id, model, input_tokens: tokens, output_tokens: 0, cost })]);
        return { embeddings: rows.map((r) => r.embedding!), provider: id, model, usage: { input_tokens: tokens, cost } };
      } catch (err) {
        failures.push({ provider: id, reason: `unreadable answer: ${(err as Error).message}` });
      }
    }
  }
  throw providersFailed(failures);
}
