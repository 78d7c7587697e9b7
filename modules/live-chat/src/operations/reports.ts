/**
 * The report endpoints (beyond spec 2, README Reports): first response time, resolution time and
 * CSAT over the conversations created in a period, per day/week/month, per agent and per team; the
 * definitions are in ../reports.ts. Read with the `live_chat.reports` permission.
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { byKey, byPeriod, conversationsIn, GROUPS, metricsOf, Metrics, periodOf, type Period } from '../reports';
import type { AgentRow, TeamRow } from '../records';

const REPORTS = 'live_chat.reports';
const NOT_TOOL = { ai_tool: false } as const;
const When = Type.String({ minLength: 10, maxLength: 40 });
const PeriodInput = { from: Type.Optional(When), to: Type.Optional(When) };
const Answered = { from: Type.String(), to: Type.String(), totals: Metrics };
const Name = Type.Nullable(Type.String());
const AgentMetrics = Type.Composite([Type.Object({ agent_id: Type.Integer(), name: Name }), Metrics]);
const TeamMetrics = Type.Composite([Type.Object({ team_id: Type.Nullable(Type.Integer()), name: Name }), Metrics]);

const bounds = (p: Period) => ({ from: p.from.toISOString(), to: p.to.toISOString() });

async function read(ctx: HandlerContext, input: { from?: string; to?: string }) {
  const period = periodOf(input, ctx.host.now());
  const rows = await conversationsIn(ctx, period);
  return { period, rows, head: { ...bounds(period), totals: metricsOf(rows) } };
}

/** Names of the ids a report names (agents or teams; a deleted one answers name null). */
async function namesOf(ctx: HandlerContext, model: 'Agent' | 'Team', ids: (number | null)[]): Promise<Map<number, string>> {
  const known = ids.filter((id): id is number => id !== null);
  if (!known.length) return new Map();
  const found = await ctx.host.db.find<AgentRow | TeamRow>(model, { where: { id: { $in: known } }, attributes: ['id', 'name'], limit: 1000 });
  return new Map(found.map((r) => [r.id, r.name]));
}

export const reportOperations = {
  report_overview: operation({
    description: 'First response time, resolution time and CSAT of the conversations created in a period, in total and per day, week or month (UTC).',
    permission: REPORTS,
    ...NOT_TOOL,
    input: Type.Object({ ...PeriodInput, group_by: Type.Optional(Type.StringEnum([...GROUPS], { default: 'day' })) }, { additionalProperties: false }),
    output: Type.Object({ ...Answered, group_by: Type.StringEnum([...GROUPS]), periods: Type.Array(Type.Composite([Type.Object({ period: Type.String() }), Metrics])) }),
    http: { method: 'GET', path: '/live-chat/reports/overview' },
    handler: async (input, ctx) => {
      const group = input.group_by ?? 'day';
      const { period, rows, head } = await read(ctx, input);
      return { ...head, group_by: group, periods: byPeriod(rows, period, group) };
    },
  }),
  report_agents: operation({
    description: 'The same metrics per agent (the agent a conversation is assigned to), over the conversations created in a period.',
    permission: REPORTS,
    ...NOT_TOOL,
    input: Type.Object(PeriodInput, { additionalProperties: false }),
    output: Type.Object({ ...Answered, data: Type.Array(AgentMetrics) }),
    http: { method: 'GET', path: '/live-chat/reports/agents' },
    handler: async (input, ctx) => {
      const { rows, head } = await read(ctx, input);
      // A conversation no agent ever took has no agent to count it for (it still counts in totals).
      const groups = byKey(rows, 'agent_id').filter((g): g is [number, typeof rows] => g[0] !== null);
      const names = await namesOf(ctx, 'Agent', groups.map(([id]) => id));
      return { ...head, data: groups.map(([id, list]) => ({ agent_id: id, name: names.get(id) ?? null, ...metricsOf(list) })) };
    },
  }),
  report_teams: operation({
    description: 'The same metrics per team (team_id null: conversations of no team), over the conversations created in a period.',
    permission: REPORTS,
    ...NOT_TOOL,
    input: Type.Object(PeriodInput, { additionalProperties: false }),
    output: Type.Object({ ...Answered, data: Type.Array(TeamMetrics) }),
    http: { method: 'GET', path: '/live-chat/reports/teams' },
    handler: async (input, ctx) => {
      const { rows, head } = await read(ctx, input);
      const groups = byKey(rows, 'team_id');
      const names = await namesOf(ctx, 'Team', groups.map(([id]) => id));
      return { ...head, data: groups.map(([id, list]) => ({ team_id: id, name: id === null ? null : (names.get(id) ?? null), ...metricsOf(list) })) };
    },
  }),
};
