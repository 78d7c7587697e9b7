/**
 * Usage tracking (spec 2, AI configuration: tracking settings): one Usage row per completion while
 * the tenant's tracking is on, with tokens and cost. Cost = tokens / 1000 × the provider's price per
 * 1,000 tokens, in decimal (never floats); no price set means cost 0.
 */
import Decimal from 'decimal.js';
import type { HandlerContext } from '../../../../sdk';
import type { LlmProviderRow } from '../providers/store';

export function costOf(provider: Pick<LlmProviderRow, 'input_cost_per_1k' | 'output_cost_per_1k'>, input: number, output: number): string {
  const price = (p: string | null) => new Decimal(p ?? 0);
  return price(provider.input_cost_per_1k).times(input).plus(price(provider.output_cost_per_1k).times(output)).dividedBy(1000).toDecimalPlaces(6).toFixed();
}

export interface UsageRecord {
  feature: string;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cost: string;
  created_at: string;
}

export const usageRecord = (ctx: HandlerContext, row: Omit<UsageRecord, 'created_at'>): UsageRecord => ({ ...row, created_at: new Date(ctx.host.now()).toISOString() });

/** The records of one call in one statement: an agent chat has a record per model round. */
export async function recordUsage(ctx: HandlerContext, records: readonly UsageRecord[]): Promise<void> {
  if (records.length === 1) await ctx.host.db.create('Usage', records[0]!);
  else if (records.length > 1) await ctx.host.db.bulkCreate('Usage', records, { returning: false });
}
