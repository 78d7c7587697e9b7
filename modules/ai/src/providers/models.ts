/**
 * The module's tables (schema "ai" of each tenant). API keys are never here: they live in the
 * module's secrets (see ./credentials), a row keeps only the key's hint.
 */
import type { Model } from '../../../../sdk';

export const providerModels: Record<string, Model> = {
  /** Language-model providers (spec 2, AI configuration: LLM provider). */
  LlmProvider: {
    table: 'llm_providers',
    columns: {
      id: { type: 'string', length: 64, primaryKey: true },
      name: { type: 'string', length: 100, nullable: false },
      type: { type: 'string', length: 32, nullable: false },
      base_url: { type: 'string', length: 500, nullable: false },
      models: { type: 'json', nullable: false, default: [] },
      /** The credentials' model (the provider's default model). */
      model: { type: 'string', length: 200, nullable: true },
      key_hint: { type: 'string', length: 8, nullable: true },
      key_set_at: { type: 'datetime', nullable: true },
      /** Prices per 1,000 tokens, for cost tracking (null: cost 0). */
      input_cost_per_1k: { type: 'decimal', precision: 12, scale: 6, nullable: true },
      output_cost_per_1k: { type: 'decimal', precision: 12, scale: 6, nullable: true },
      /** Result of the last connection test: untested, ok, failed. */
      status: { type: 'string', length: 16, nullable: false, default: 'untested' },
      last_error: { type: 'string', length: 500, nullable: true },
      last_tested_at: { type: 'datetime', nullable: true },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
  },
  /** Speech-to-text and text-to-speech providers, each made from a preset. */
  SpeechProvider: {
    table: 'speech_providers',
    columns: {
      id: { type: 'string', length: 64, primaryKey: true },
      kind: { type: 'string', length: 3, nullable: false },
      preset: { type: 'string', length: 64, nullable: false },
      name: { type: 'string', length: 100, nullable: false },
      base_url: { type: 'string', length: 500, nullable: false },
      model: { type: 'string', length: 200, nullable: true },
      key_hint: { type: 'string', length: 8, nullable: true },
      key_set_at: { type: 'datetime', nullable: true },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
  },
  /** Settings by key: llm (default, fallback, tracking), stt, tts (with default voice), translation. */
  Setting: {
    table: 'settings',
    columns: {
      key: { type: 'string', length: 32, primaryKey: true },
      value: { type: 'json', nullable: false },
      updated_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
  },
  /** One row per model call while tracking is on: tokens and cost per feature. */
  Usage: {
    table: 'usage',
    columns: {
      id: { type: 'bigint', primaryKey: true, autoIncrement: true },
      feature: { type: 'string', length: 32, nullable: false },
      provider: { type: 'string', length: 64, nullable: false },
      model: { type: 'string', length: 200, nullable: false },
      input_tokens: { type: 'integer', nullable: false },
      output_tokens: { type: 'integer', nullable: false },
      cost: { type: 'decimal', precision: 14, scale: 6, nullable: false, default: '0' },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
    indexes: [{ name: 'usage_feature_created', fields: ['feature', 'created_at'] }],
  },
};
