/** Shapes shared by the provider operations (bodies documented in the module's README). */
import { Type } from '../../../../sdk';

export const ProviderId = Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$', description: 'unique, lowercase: letters, digits, _ and -' });
export const LlmTypeSchema = Type.StringEnum(['vendora_compatible', 'vendorb'] as const, { description: 'vendora_compatible (chat-completions protocol) or vendorb (Messages API style)' });
export const BaseUrl = Type.String({ minLength: 8, maxLength: 500, pattern: '^https?://', description: 'http(s) URL of the API, e.g. https://api.openai.com/v1' });
export const Models = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 });
export const Price = Type.String({ pattern: '^\\d{1,6}(\\.\\d{1,6})?$', description: 'decimal price per 1,000 tokens' });
export const ApiKey = Type.String({ minLength: 1, maxLength: 4000 });
const { Nullable } = Type;

export const LlmProviderView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: LlmTypeSchema,
  base_url: Type.String(),
  models: Type.Array(Type.String()),
  model: Nullable(Type.String()),
  has_credentials: Type.Boolean(),
  key_hint: Nullable(Type.String()),
  input_cost_per_1k: Nullable(Type.String()),
  output_cost_per_1k: Nullable(Type.String()),
  status: Type.StringEnum(['untested', 'ok', 'failed'] as const),
  last_error: Nullable(Type.String()),
  last_tested_at: Nullable(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const LlmSettingsView = Type.Object({
  default_provider: Type.Nullable(Type.String()),
  fallback_provider: Type.Nullable(Type.String()),
  tracking: Type.Object({ enabled: Type.Boolean() }),
  timeout_ms: Type.Integer(),
});

export const Empty = Type.Object({}, { additionalProperties: false });
