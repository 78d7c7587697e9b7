/**
 * ai.embed: embeddings for other modules over the bus (e.g. product search), no HTTP route. Spec 2:
 * embeddings need a vendora_compatible provider. Usage is tracked under the caller's `feature`.
 */
import { operation, Type } from '../../../../sdk';
import { embed } from '../llm';
import { VIEW } from '../permissions';

export const embedOperations = {
  embed: operation({
    description: 'Embeddings of up to 100 texts from the default (else fallback) vendora_compatible provider: {embeddings, provider, model, usage}.',
    permission: VIEW,
    input: Type.Object(
      {
        input: Type.Array(Type.String({ minLength: 1, maxLength: 8000 }), { minItems: 1, maxItems: 100 }),
        model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        feature: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]{0,31}$' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      embeddings: Type.Array(Type.Array(Type.Number())),
      provider: Type.String(),
      model: Type.String(),
      usage: Type.Object({ input_tokens: Type.Integer(), cost: Type.String() }),
    }),
    async handler(input, ctx) {
      return embed(ctx, { feature: input.feature ?? 'embeddings', input: input.input, ...(input.model ? { model: input.model } : {}) });
    },
  }),
};
