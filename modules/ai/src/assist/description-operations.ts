/**
 * Product descriptions (README, Assist): POST /ai/products/{id}/description drafts one description
 * per language asked for, from the product as the user's catalog shows it
 * (reseller_catalog.get_my_catalog_product, catalog.view); nothing is saved. Saving is the second,
 * explicit call, POST /ai/products/{id}/description/save, through the catalog's own operation
 * (reseller_catalog.update_master_product as the user: catalog.manage_master, the super admin's
 * master products only), since the catalog owns the product.
 */
import { operation, Type } from '../../../../sdk';
import type { JsonSchema } from '../graph/json-schema';
import { invalid } from '../errors';
import { VIEW } from '../permissions';
import { languageName } from '../translate/languages';
import { asUser, askSchema, modelOf } from './model-answer';

const MAX_DESCRIPTION = 5_000;
const ProductId = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'a catalog product (UUID)' });
const Code = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 code, e.g. hi' });

interface Product {
  id: string;
  sku: string;
  name: string;
  description: string | null;
  attributes: unknown;
}

/** The model's answer: exactly the languages asked for, each a bounded text. */
const draftsSchema = (languages: string[]): JsonSchema => ({
  type: 'object',
  required: ['descriptions'],
  additionalProperties: false,
  properties: {
    descriptions: {
      type: 'object',
      required: languages,
      additionalProperties: false,
      properties: Object.fromEntries(languages.map((l) => [l, { type: 'string', minLength: 1, maxLength: MAX_DESCRIPTION }])),
    },
  },
});

export const descriptionOperations = {
  draft_product_description: operation({
    description: "Drafts a catalog product's description in each language asked for (at most 10); nothing is saved.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object(
      { id: ProductId, languages: Type.Array(Code, { minItems: 1, maxItems: 10, uniqueItems: true }), tone: Type.Optional(Type.String({ maxLength: 200 })) },
      { additionalProperties: false },
    ),
    output: Type.Object({
      data: Type.Object({
        product_id: Type.String(),
        drafts: Type.Array(Type.Object({ language: Type.String(), description: Type.String() })),
        saved: Type.Boolean(),
        provider: Type.String(),
        model: Type.String(),
        usage: Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer() }),
      }),
    }),
    http: { method: 'POST', path: '/ai/products/:id/description', success_status: 200 },
    async handler(input, ctx) {
      const { product } = await asUser<{ product: Product }>(ctx, 'reseller_catalog.get_my_catalog_product', { productId: input.id });
      const { answer, result } = await askSchema<{ descriptions: Record<string, string> }>(ctx, {
        feature: 'product_description',
        temperature: 0.7,
        max_tokens: 400 * input.languages.length,
        system: [
          'You write product descriptions for an online shop: two or three sentences each, factual, from the product record only (invent no features, prices or offers).',
          `Write one for each of these languages, keyed by code: ${input.languages.map((l) => `${l} (${languageName(l)})`).join(', ')}.`,
          ...(input.tone ? [`Tone: ${input.tone}`] : []),
        ].join('\n'),
        user: JSON.stringify({ name: product.name, sku: product.sku, description: product.description, attributes: product.attributes }),
        schema: draftsSchema(input.languages),
      });
      return { data: { product_id: product.id, drafts: input.languages.map((l) => ({ language: l, description: answer.descriptions[l]! })), saved: false, ...modelOf(result) } };
    },
  }),

  save_product_description: operation({
    description: "Saves a (reviewed) description on a master product through the catalog's own update, as the user.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({ id: ProductId, description: Type.String({ maxLength: MAX_DESCRIPTION }) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Object({ product_id: Type.String(), description: Type.String(), saved: Type.Boolean() }) }),
    http: { method: 'POST', path: '/ai/products/:id/description/save', success_status: 200 },
    async handler(input, ctx) {
      if (!input.description.trim()) throw invalid('description', 'The description is empty.');
      const { product } = await asUser<{ product: Product }>(ctx, 'reseller_catalog.update_master_product', { id: input.id, description: input.description });
      return { data: { product_id: product.id, description: product.description ?? '', saved: true } };
    },
  }),
};
