/**
 * The translation area (spec 2, Endpoints AI: Translation; permissions as the table gives them).
 * Responses are wrapped in {data}; batch and the config bodies are "not shown": see the README.
 */
import { operation, Type } from '../../../../sdk';
import type { Area } from '../area';
import { invalid } from '../errors';
import { CONFIGURE, VIEW } from '../permissions';
import { readSettings, writeSettings } from '../providers/settings';
import { findLlmProvider } from '../providers/store';
import { ProviderId } from '../providers/schemas';
import { LANGUAGES } from './languages';
import { detect, translate } from './translator';

export const MAX_TEXT = 10_000;
const Text = Type.String({ minLength: 1, maxLength: MAX_TEXT });
const Code = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 code, e.g. hi' });
const Translation = Type.Object({
  translated_text: Type.String(),
  source_language: Type.String(),
  target_language: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  usage: Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer() }),
});
const Settings = Type.Object({ provider_id: Type.Nullable(Type.String()), model: Type.Nullable(Type.String()) });

export const translateArea: Area = {
  operations: {
    translate_batch: operation({
      description: 'Translates one text into up to 10 target languages (spec 2, Limits: batch translation).',
      permission: VIEW,
      input: Type.Object({ text: Text, targets: Type.Array(Code, { minItems: 1, maxItems: 10, uniqueItems: true }), source: Type.Optional(Code) }, { additionalProperties: false }),
      output: Type.Object({ data: Type.Object({ translations: Type.Array(Translation) }) }),
      http: { method: 'POST', path: '/ai/translate/batch', success_status: 200 },
      async handler(input, ctx) {
        const translations = [];
        // One after another: each is a model call, and a tenant's rate limit is better spent in order.
        for (const target of input.targets) translations.push(await translate(ctx, input.text, target, input.source));
        return { data: { translations } };
      },
    }),

    detect_language: operation({
      description: 'Detects the language of a text: ISO 639-1 code, its name and a confidence from 0 to 1.',
      permission: VIEW,
      input: Type.Object({ text: Text }, { additionalProperties: false }),
      output: Type.Object({ data: Type.Object({ language: Type.String(), language_name: Type.String(), confidence: Type.Number({ minimum: 0, maximum: 1 }) }) }),
      http: { method: 'POST', path: '/ai/translate/detect', success_status: 200 },
      async handler(input, ctx) {
        return { data: await detect(ctx, input.text) };
      },
    }),

    list_languages: operation({
      description: 'The 44 listed languages (others may also work).',
      permission: VIEW,
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ data: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })) }),
      http: { method: 'GET', path: '/ai/translate/languages' },
      handler: () => ({ data: [...LANGUAGES] }),
    }),

    get_translation_config: operation({
      description: 'The translation provider and model (null: the default provider, its model).',
      permission: VIEW,
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ data: Settings }),
      http: { method: 'GET', path: '/ai/translate/config' },
      async handler(_input, ctx) {
        return { data: await readSettings(ctx, 'translation') };
      },
    }),

    update_translation_config: operation({
      description: 'Sets the translation provider (an existing id, or null for the default) and model (empty or null: the provider default).',
      permission: CONFIGURE,
      input: Type.Object({ provider_id: Type.Nullable(ProviderId), model: Type.Optional(Type.Nullable(Type.String({ maxLength: 200 }))) }, { additionalProperties: false }),
      output: Type.Object({ data: Settings }),
      http: { method: 'PUT', path: '/ai/translate/config' },
      async handler(input, ctx) {
        const model = input.model ? input.model : null;
        if (input.provider_id !== null) {
          const provider = await findLlmProvider(ctx, input.provider_id);
          if (!provider) throw invalid('provider_id', `Provider "${input.provider_id}" does not exist; add it with POST /ai/providers first.`);
          if (model && provider.models.length > 0 && !provider.models.includes(model)) throw invalid('model', `Model "${model}" is not one of the provider's models: ${provider.models.join(', ')}.`);
        } else if (model) throw invalid('model', 'A model override needs a provider_id.');
        return { data: await writeSettings(ctx, 'translation', { provider_id: input.provider_id, model }) };
      },
    }),

    translate: operation({
      description: 'Translates a text into the target language (source omitted: detected); order numbers, URLs, brand names and formatting are kept.',
      permission: VIEW,
      input: Type.Object({ text: Text, target: Code, source: Type.Optional(Code) }, { additionalProperties: false }),
      output: Type.Object({ data: Translation }),
      http: { method: 'POST', path: '/ai/translate', success_status: 200 },
      async handler(input, ctx) {
        return { data: await translate(ctx, input.text, input.target, input.source) };
      },
    }),
  },
};
