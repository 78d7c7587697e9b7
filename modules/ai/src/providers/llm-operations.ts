/**
 * Language-model providers (spec 2, Endpoints AI: Language-model providers; bodies "not shown",
 * decided in the README): CRUD, test connection, credentials, presets, general config, usage.
 * Reads need ai.view, changes ai.configure. A provider's base URL origin is added to the tenant's
 * allowed fetch origins when an admin adds it or moves it (fetch_origins.add).
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { forgetConfig } from '../config-cache';
import { conflict, invalid } from '../errors';
import { attempt } from '../llm/client';
import { CONFIGURE, VIEW } from '../permissions';
import { hintOf, writeKey } from './credentials';
import { LLM_PRESETS } from './presets';
import { ApiKey, BaseUrl, Empty, LlmProviderView, LlmSettingsView, LlmTypeSchema, Models, Price, ProviderId } from './schemas';
import { readSettings, writeSettings } from './settings';
import { findLlmProvider, llmProvider, llmProviderView, type LlmProviderRow } from './store';

const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/**
 * Lets the module's host.fetch reach the provider (the admin's act authorises it). A base URL with
 * credentials, a query or a fragment is refused: it would be shown in every provider listing.
 */
export async function allowOrigin(ctx: HandlerContext, baseUrl: string): Promise<void> {
  // The sandbox has no URL class: scheme, then an authority without credentials, then a path only.
  if (!/^https?:\/\/[^/?#@\s]+(\/[^?#\s]*)?$/i.test(baseUrl)) {
    throw invalid('base_url', 'The base_url must be an http(s) URL without credentials, query or fragment (give the key with the credentials endpoint).');
  }
  await ctx.host.call('fetch_origins.add', { origin: baseUrl });
}

/** Settings that name the provider; it cannot go while one does. */
async function usesOf(ctx: HandlerContext, id: string): Promise<string[]> {
  const llm = await readSettings(ctx, 'llm');
  const translation = await readSettings(ctx, 'translation');
  return [
    ...(llm.default_provider === id ? ['default_provider'] : []),
    ...(llm.fallback_provider === id ? ['fallback_provider'] : []),
    ...(translation.provider_id === id ? ['translation provider_id'] : []),
  ];
}

const ProviderData = Type.Object({ data: LlmProviderView });

export const llmProviderOperations = {
  list_providers: operation({
    description: 'The language-model providers with their status (has_credentials, key hint, last test).',
    permission: VIEW,
    input: Empty,
    output: Type.Object({ data: Type.Array(LlmProviderView) }),
    http: { method: 'GET', path: '/ai/providers' },
    async handler(_input, ctx) {
      const rows = await ctx.host.db.find<LlmProviderRow>('LlmProvider', { order: [['created_at', 'ASC'], ['id', 'ASC']] });
      return { data: rows.map(llmProviderView) };
    },
  }),

  create_provider: operation({
    description: 'Adds a language-model provider {id, name, type, base_url, models}; its credentials come next (PUT /ai/providers/{id}/credentials).',
    permission: CONFIGURE,
    input: Type.Object(
      {
        id: ProviderId,
        name: Type.String({ minLength: 1, maxLength: 100 }),
        type: LlmTypeSchema,
        base_url: BaseUrl,
        models: Type.Optional(Models),
        input_cost_per_1k: Type.Optional(Price),
        output_cost_per_1k: Type.Optional(Price),
      },
      { additionalProperties: false },
    ),
    output: ProviderData,
    http: { method: 'POST', path: '/ai/providers' },
    async handler(input, ctx) {
      if (await findLlmProvider(ctx, input.id)) throw conflict(`A provider with id "${input.id}" exists already.`, { id: input.id });
      await allowOrigin(ctx, input.base_url);
      const at = nowIso(ctx);
      const row = await ctx.host.db.create<LlmProviderRow>('LlmProvider', {
        id: input.id,
        name: input.name,
        type: input.type,
        base_url: input.base_url,
        models: input.models ?? [],
        input_cost_per_1k: input.input_cost_per_1k ?? null,
        output_cost_per_1k: input.output_cost_per_1k ?? null,
        status: 'untested',
        created_at: at,
        updated_at: at,
      });
      forgetConfig();
      return { data: llmProviderView(row) };
    },
  }),

  update_provider: operation({
    description: "Updates a provider's metadata (name, type, base_url, models, prices); the id stays.",
    permission: CONFIGURE,
    input: Type.Object(
      {
        id: ProviderId,
        name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        type: Type.Optional(LlmTypeSchema),
        base_url: Type.Optional(BaseUrl),
        models: Type.Optional(Models),
        input_cost_per_1k: Type.Optional(Type.Nullable(Price)),
        output_cost_per_1k: Type.Optional(Type.Nullable(Price)),
      },
      { additionalProperties: false },
    ),
    output: ProviderData,
    http: { method: 'PUT', path: '/ai/providers/:id' },
    async handler(input, ctx) {
      const current = await llmProvider(ctx, input.id);
      if (input.base_url !== undefined && input.base_url !== current.base_url) await allowOrigin(ctx, input.base_url);
      const { id, ...change } = input;
      await ctx.host.db.update<LlmProviderRow>('LlmProvider', { ...change, updated_at: nowIso(ctx) }, { where: { id } });
      forgetConfig();
      return { data: llmProviderView(await llmProvider(ctx, id)) };
    },
  }),

  delete_provider: operation({
    description: 'Removes a provider and its key; refused (409) while the general or translation settings name it.',
    permission: CONFIGURE,
    input: Type.Object({ id: ProviderId }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) }),
    http: { method: 'DELETE', path: '/ai/providers/:id' },
    async handler(input, ctx) {
      await llmProvider(ctx, input.id);
      const uses = await usesOf(ctx, input.id);
      if (uses.length > 0) throw conflict(`Provider "${input.id}" is in use as ${uses.join(' and ')}; change the settings first.`, { id: input.id, used_as: uses });
      await writeKey(ctx, 'llm', input.id, null);
      await ctx.host.db.destroy('LlmProvider', { where: { id: input.id } });
      forgetConfig();
      return { data: { id: input.id, deleted: true } };
    },
  }),

  test_provider: operation({
    description: "Tests the connection: one tiny completion with the provider's key and model; records and answers the outcome.",
    permission: CONFIGURE,
    input: Type.Object({ id: ProviderId }, { additionalProperties: false }),
    output: Type.Object({
      data: Type.Object({ success: Type.Boolean(), provider: Type.String(), model: Type.Nullable(Type.String()), latency_ms: Type.Integer(), error: Type.Nullable(Type.String()) }),
    }),
    http: { method: 'POST', path: '/ai/providers/:id/test', success_status: 200 },
    async handler(input, ctx) {
      await llmProvider(ctx, input.id);
      const started = ctx.host.now();
      const result = await attempt(ctx, input.id, { feature: 'test', messages: [{ role: 'user', content: 'Reply with the word ok.' }], max_tokens: 5 }, undefined, null);
      const latency = Math.max(0, Math.round(ctx.host.now() - started));
      const error = result.ok ? null : result.reason.slice(0, 500);
      await ctx.host.db.update<LlmProviderRow>('LlmProvider', { status: result.ok ? 'ok' : 'failed', last_error: error, last_tested_at: nowIso(ctx) }, { where: { id: input.id } });
      return { data: { success: result.ok, provider: input.id, model: result.ok ? result.completion.model : null, latency_ms: latency, error } };
    },
  }),

  save_provider_credentials: operation({
    description: "Saves a provider's API key (encrypted, write-only: only its hint is ever answered) and default model.",
    permission: CONFIGURE,
    input: Type.Object({ id: ProviderId, api_key: ApiKey, model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false }),
    output: ProviderData,
    http: { method: 'PUT', path: '/ai/providers/:id/credentials' },
    async handler(input, ctx) {
      const provider = await llmProvider(ctx, input.id);
      if (input.model !== undefined && provider.models.length > 0 && !provider.models.includes(input.model)) {
        throw invalid('model', `Model "${input.model}" is not one of the provider's models: ${provider.models.join(', ')}.`);
      }
      await writeKey(ctx, 'llm', input.id, input.api_key);
      await ctx.host.db.update<LlmProviderRow>(
        'LlmProvider',
        { key_hint: hintOf(input.api_key), key_set_at: nowIso(ctx), status: 'untested', updated_at: nowIso(ctx), ...(input.model === undefined ? {} : { model: input.model }) },
        { where: { id: input.id } },
      );
      forgetConfig();
      return { data: llmProviderView(await llmProvider(ctx, input.id)) };
    },
  }),

  list_presets: operation({
    description: 'The language-model presets (spec 2, AI configuration): ten vendors, each with its type, base URL and models.',
    permission: VIEW,
    input: Empty,
    output: Type.Object({ data: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), type: LlmTypeSchema, base_url: Type.String(), models: Type.Array(Type.String()) })) }),
    http: { method: 'GET', path: '/ai/presets' },
    handler: () => ({ data: LLM_PRESETS }),
  }),

  get_config: operation({
    description: 'General settings: default provider, fallback provider, tracking.',
    permission: VIEW,
    input: Empty,
    output: Type.Object({ data: LlmSettingsView }),
    http: { method: 'GET', path: '/ai/config' },
    async handler(_input, ctx) {
      return { data: await readSettings(ctx, 'llm') };
    },
  }),

  update_config: operation({
    description: 'Sets the default and fallback providers (existing ids, or null), tracking and the per-provider timeout; fields left out keep their value.',
    permission: CONFIGURE,
    input: Type.Object(
      {
        default_provider: Type.Optional(Type.Nullable(ProviderId)),
        fallback_provider: Type.Optional(Type.Nullable(ProviderId)),
        tracking: Type.Optional(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
        timeout_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 25_000, description: 'per provider, before the fallback is asked' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: LlmSettingsView }),
    http: { method: 'PUT', path: '/ai/config' },
    async handler(input, ctx) {
      for (const field of ['default_provider', 'fallback_provider'] as const) {
        const id = input[field];
        if (id && !(await findLlmProvider(ctx, id))) throw invalid(field, `Provider "${id}" does not exist; add it with POST /ai/providers first.`);
      }
      return { data: await writeSettings(ctx, 'llm', input) };
    },
  }),
};
