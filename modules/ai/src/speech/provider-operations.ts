/**
 * Speech-to-text and text-to-speech providers (spec 2, Endpoints AI: "Speech-to-text: GET/POST
 * /ai/stt/providers, DELETE …/{id}, PUT …/{id}/credentials, GET …/presets, PUT …/config"; the same
 * under /ai/tts). Bodies "not shown", decided in the README: POST {preset, base_url?} answers the
 * new provider with its `id` (the preset's id, or `<preset>-2`, … when taken).
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { conflict, invalid } from '../errors';
import { CONFIGURE, VIEW } from '../permissions';
import { hintOf, writeKey } from '../providers/credentials';
import { allowOrigin } from '../providers/llm-operations';
import { ApiKey, BaseUrl, Empty, ProviderId } from '../providers/schemas';
import { readSettings, writeSettings } from '../providers/settings';
import { findSpeechProvider, presetOf, presetsOf, speechProvider, speechProviderView, type SpeechKind, type SpeechProviderRow } from './store';

const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

const View = Type.Object({
  id: Type.String(),
  preset: Type.String(),
  name: Type.String(),
  base_url: Type.String(),
  models: Type.Array(Type.String()),
  model: Type.Nullable(Type.String()),
  has_credentials: Type.Boolean(),
  key_hint: Type.Nullable(Type.String()),
  created_at: Type.String(),
});
const Preset = Type.Object({
  id: Type.String(),
  name: Type.String(),
  base_url: Type.String(),
  models: Type.Array(Type.String()),
  protocol: Type.String(),
  available: Type.Boolean(),
  voices: Type.Optional(Type.Array(Type.Object({ id: Type.String(), name: Type.String(), language: Type.String(), gender: Type.Optional(Type.String()) }))),
});
const Config = Type.Object({ default_provider: Type.Nullable(Type.String()), fallback_provider: Type.Nullable(Type.String()), default_voice: Type.Optional(Type.Nullable(Type.String())) });

export function speechProviderOperations(kind: SpeechKind) {
  const label = kind === 'stt' ? 'speech-to-text' : 'text-to-speech';
  return {
    [`${kind}_list_providers`]: operation({
      description: `The ${label} providers, with a key hint (never the key).`,
      permission: VIEW,
      input: Empty,
      output: Type.Object({ data: Type.Array(View) }),
      http: { method: 'GET', path: `/ai/${kind}/providers` },
      async handler(_input, ctx) {
        const rows = await ctx.host.db.find<SpeechProviderRow>('SpeechProvider', { where: { kind }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
        return { data: rows.map(speechProviderView) };
      },
    }),

    [`${kind}_add_provider`]: operation({
      description: `Adds a ${label} provider from a preset (base_url overrides the preset's, e.g. a regional endpoint); answers it with its id.`,
      permission: CONFIGURE,
      input: Type.Object({ preset: Type.String({ minLength: 1, maxLength: 64 }), base_url: Type.Optional(BaseUrl) }, { additionalProperties: false }),
      output: Type.Object({ data: View }),
      http: { method: 'POST', path: `/ai/${kind}/providers` },
      async handler(input, ctx) {
        const preset = presetOf(kind, input.preset);
        if (!preset) throw invalid('preset', `Unknown ${label} preset "${input.preset}"; GET /ai/${kind}/presets lists them: ${presetsOf(kind).map((p) => p.id).join(', ')}.`);
        let id = preset.id;
        for (let n = 2; await findSpeechProvider(ctx, kind, id); n++) id = `${preset.id}-${n}`;
        const baseUrl = input.base_url ?? preset.base_url;
        await allowOrigin(ctx, baseUrl);
        const row = await ctx.host.db.create<SpeechProviderRow>('SpeechProvider', { id, kind, preset: preset.id, name: preset.name, base_url: baseUrl, model: preset.models[0] ?? null, created_at: nowIso(ctx) });
        return { data: speechProviderView(row) };
      },
    }),

    [`${kind}_delete_provider`]: operation({
      description: `Removes a ${label} provider and its key; refused (409) while the ${kind} settings name it.`,
      permission: CONFIGURE,
      input: Type.Object({ id: ProviderId }, { additionalProperties: false }),
      output: Type.Object({ data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) }),
      http: { method: 'DELETE', path: `/ai/${kind}/providers/:id` },
      async handler(input, ctx) {
        await speechProvider(ctx, kind, input.id);
        const settings = await readSettings(ctx, kind);
        const uses = (['default_provider', 'fallback_provider'] as const).filter((f) => settings[f] === input.id);
        if (uses.length > 0) throw conflict(`Provider "${input.id}" is in use as ${uses.join(' and ')}; change PUT /ai/${kind}/config first.`, { id: input.id, used_as: uses });
        await writeKey(ctx, kind, input.id, null);
        await ctx.host.db.destroy<SpeechProviderRow>('SpeechProvider', { where: { id: input.id, kind } });
        return { data: { id: input.id, deleted: true } };
      },
    }),

    [`${kind}_save_credentials`]: operation({
      description: `Saves a ${label} provider's API key (write-only: only its hint is answered) and model.`,
      permission: CONFIGURE,
      input: Type.Object({ id: ProviderId, api_key: ApiKey, model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false }),
      output: Type.Object({ data: View }),
      http: { method: 'PUT', path: `/ai/${kind}/providers/:id/credentials` },
      async handler(input, ctx) {
        const row = await speechProvider(ctx, kind, input.id);
        const models = presetOf(kind, row.preset)?.models ?? [];
        if (input.model !== undefined && !models.includes(input.model)) throw invalid('model', `Model "${input.model}" is not one of the preset's models: ${models.join(', ')}.`);
        await writeKey(ctx, kind, input.id, input.api_key);
        await ctx.host.db.update<SpeechProviderRow>('SpeechProvider', { key_hint: hintOf(input.api_key), key_set_at: nowIso(ctx), ...(input.model === undefined ? {} : { model: input.model }) }, { where: { id: input.id, kind } });
        return { data: speechProviderView(await speechProvider(ctx, kind, input.id)) };
      },
    }),

    [`${kind}_list_presets`]: operation({
      description: `The ${label} presets with base URL, models, protocol and whether the platform can use them.`,
      permission: VIEW,
      input: Empty,
      output: Type.Object({ data: Type.Array(Preset) }),
      http: { method: 'GET', path: `/ai/${kind}/presets` },
      handler: () => ({ data: presetsOf(kind) }),
    }),

    [`${kind}_get_config`]: operation({
      description: `The ${label} settings: default and fallback provider${kind === 'tts' ? ', default voice' : ''}.`,
      permission: VIEW,
      input: Empty,
      output: Type.Object({ data: Config }),
      http: { method: 'GET', path: `/ai/${kind}/config` },
      async handler(_input, ctx) {
        return { data: await readSettings(ctx, kind) };
      },
    }),

    [`${kind}_update_config`]: operation({
      description: `Sets the default and fallback ${label} providers (existing ids, or null); fields left out keep their value.`,
      permission: CONFIGURE,
      input: Type.Object({ default_provider: Type.Optional(Type.Nullable(ProviderId)), fallback_provider: Type.Optional(Type.Nullable(ProviderId)) }, { additionalProperties: false }),
      output: Type.Object({ data: Config }),
      http: { method: 'PUT', path: `/ai/${kind}/config` },
      async handler(input, ctx) {
        for (const field of ['default_provider', 'fallback_provider'] as const) {
          const id = input[field];
          if (id && !(await findSpeechProvider(ctx, kind, id))) throw invalid(field, `Provider "${id}" does not exist; add it with POST /ai/${kind}/providers first.`);
        }
        return { data: await writeSettings(ctx, kind, input) };
      },
    }),
  };
}
