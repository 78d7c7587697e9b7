/**
 * ai.embed: embeddings for other modules over the bus (e.g. product search), and POST /ai/embeddings
 * for users (ai.view). Spec 2: embeddings need a vendora_compatible provider; with none in the chain
 * the answer is 422 EMBEDDINGS_UNSUPPORTED naming the provider type. Usage is tracked under `feature`.
 */
import { operation, Type } from '../../../../sdk';
import { ProviderId } from './schemas';
import { embed } from '../llm';
import { VIEW } from '../permissions';

const Text = Type.String({ minLength: 1, maxLength: 8000 });
const Embeddings = Type.Object({
  embeddings: Type.Array(Type.Array(Type.Number())),
  provider: Type.String(),
  model: Type.String(),
  usage: Type.Object({ input_tokens: Type.Integer(), cost: Type.String() }),
});

export const embedOperations = {
  embed: operation({
    description: 'Embeddings of up to 100 texts from the default (else fallback) vendora_compatible provider: {embeddings, provider, model, usage}.',
    permission: VIEW,
    input: Type.Object(
      {
        input: Type.Array(Text, { minItems: 1, maxItems: 100 }),
        model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        feature: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' })),
      },
      { additionalProperties: false },
    ),
    output: Embeddings,
    async handler(input, ctx) {
      return embed(ctx, { feature: input.feature ?? 'embeddings', input: input.input, ...(input.model ? { model: input.model } : {}) });
    },
  }),

  create_embeddings: operation({
    description: 'Embeddings of up to 100 texts (8,000 characters each) from a vendora_compatible provider: the one named, else the default, then the fallback.',
    permission: VIEW,
    ai_tool: false,
    input: Type.Object(
      {
        input: Type.Union([Text, Type.Array(Text, { minItems: 1, maxItems: 100 })]),
        model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        provider_id: Type.Optional(ProviderId),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Embeddings }),
    http: { method: 'POST', path: '/ai/embeddings', success_status: 200 },
    async handler(input, ctx) {
      const texts = typeof input.input === 'string' ? [input.input] : input.input;
      return { data: await embed(ctx, { feature: 'embeddings', input: texts, ...(input.model ? { model: input.model } : {}), ...(input.provider_id ? { provider_id: input.provider_id } : {}) }) };
    },
  }),
};
