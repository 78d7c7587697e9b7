/**
 * GET /ai/usage (not in the spec's tables; spec 2 names tracking of token and cost usage per tenant
 * and feature): totals per feature over a window (default the last 30 days, at most 366), summed in
 * decimal, from at most 50,000 calls (`truncated` says when there were more). Reading needs ai.view.
 */
import Decimal from 'decimal.js';
import { operation, Type } from '../../../../sdk';
import { invalid } from '../errors';
import { VIEW } from '../permissions';

const DAY = 86_400_000;
/** Rows are read in pages by id; past MAX_PAGES the answer says `truncated`. */
const PAGE = 1000;
const MAX_PAGES = 50;

interface UsageRow {
  feature: string;
  provider: string;
  input_tokens: number;
  output_tokens: number;
  cost: string;
}

const Totals = Type.Object({ calls: Type.Integer(), input_tokens: Type.Integer(), output_tokens: Type.Integer(), total_tokens: Type.Integer(), cost: Type.String() });

export const usageOperations = {
  get_usage: operation({
    description: 'Token and cost usage of the tenant per feature (agent, translation, graph, …) over a window.',
    permission: VIEW,
    input: Type.Object({ from: Type.Optional(Type.String({ format: 'date-time' })), to: Type.Optional(Type.String({ format: 'date-time' })) }, { additionalProperties: false }),
    output: Type.Object({
      data: Type.Object({ from: Type.String(), to: Type.String(), by_feature: Type.Array(Type.Composite([Type.Object({ feature: Type.String() }), Totals])), total: Totals, truncated: Type.Boolean() }),
    }),
    http: { method: 'GET', path: '/ai/usage' },
    async handler(input, ctx) {
      const to = input.to ? Date.parse(input.to) : ctx.host.now();
      const from = input.from ? Date.parse(input.from) : to - 30 * DAY;
      if (!(from <= to) || to - from > 366 * DAY) throw invalid('from', 'The window must run forwards and span at most 366 days.');
      const rows: UsageRow[] = [];
      let after = '0';
      let truncated = false;
      for (let page = 0; ; page++) {
        if (page === MAX_PAGES) {
          truncated = true;
          break;
        }
        const batch = await ctx.host.db.find<UsageRow & { id: string; created_at: string }>('Usage', {
          where: { id: { $gt: after }, created_at: { $gte: new Date(from).toISOString(), $lte: new Date(to).toISOString() } },
          attributes: ['id', 'feature', 'provider', 'input_tokens', 'output_tokens', 'cost'],
          order: [['id', 'ASC']],
          limit: PAGE,
        });
        rows.push(...batch);
        if (batch.length < PAGE) break;
        after = batch[batch.length - 1]!.id;
      }
      const empty = () => ({ calls: 0, input_tokens: 0, output_tokens: 0, total_tokens: 0, cost: new Decimal(0) });
      const sums = new Map<string, ReturnType<typeof empty>>();
      const total = empty();
      for (const r of rows) {
        const s = sums.get(r.feature) ?? empty();
        for (const t of [s, total]) {
          t.calls += 1;
          t.input_tokens += r.input_tokens;
          t.output_tokens += r.output_tokens;
          t.total_tokens += r.input_tokens + r.output_tokens;
          t.cost = t.cost.plus(r.cost);
        }
        sums.set(r.feature, s);
      }
      const out = (t: ReturnType<typeof empty>) => ({ ...t, cost: t.cost.toFixed() });
      return {
        data: {
          from: new Date(from).toISOString(),
          to: new Date(to).toISOString(),
          by_feature: [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([feature, t]) => ({ feature, ...out(t) })),
          total: out(total),
          truncated,
        },
      };
    },
  }),
};
