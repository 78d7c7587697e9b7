/** Language-model provider rows, as stored and as answered (never a key: only its hint). */
import type { HandlerContext } from '../../../../sdk';
import { notFound } from '../errors';
import type { LlmType } from './presets';

export interface LlmProviderRow {
  id: string;
  name: string;
  type: LlmType;
  base_url: string;
  models: string[];
  model: string | null;
  key_hint: string | null;
  key_set_at: string | null;
  input_cost_per_1k: string | null;
  output_cost_per_1k: string | null;
  status: 'untested' | 'ok' | 'failed';
  last_error: string | null;
  last_tested_at: string | null;
  created_at: string;
  updated_at: string;
}

export async function findLlmProvider(ctx: HandlerContext, id: string): Promise<LlmProviderRow | null> {
  return ctx.host.db.findOne<LlmProviderRow>('LlmProvider', { where: { id } });
}

export async function llmProvider(ctx: HandlerContext, id: string): Promise<LlmProviderRow> {
  const row = await findLlmProvider(ctx, id);
  if (!row) throw notFound('AI provider', id);
  return row;
}

/** A provider as responses show it: `has_credentials` and the key's hint, never the key. */
export function llmProviderView(row: LlmProviderRow) {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    base_url: row.base_url,
    models: row.models,
    model: row.model,
    has_credentials: row.key_set_at !== null,
    key_hint: row.key_hint,
    input_cost_per_1k: row.input_cost_per_1k,
    output_cost_per_1k: row.output_cost_per_1k,
    status: row.status,
    last_error: row.last_error,
    last_tested_at: row.last_tested_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
