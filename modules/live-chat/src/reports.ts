/**
 * Live chat reports (beyond spec 2, README Reports): first response time, resolution time and CSAT
 * over the conversations created in a period, in total, per agent, per team and per day, week or
 * month (UTC). Definitions, one conversation at a time:
 * - first response: `first_response_at − created_at`. A conversation begins with the visitor's first
 *   message (POST /conversations stores both at once), and `first_response_at` is stamped by the first
 *   agent reply (not an internal note, not a bot), so this is the first agent message after the
 *   first visitor message.
 * - resolution: `(resolved_at ?? closed_at) − created_at`, for conversations resolved or closed (a
 *   reopened one counts again once it ends again; reopening clears both stamps).
 * - CSAT: the visitor's rating 1-5 (POST …/rate); `average` of the ratings and `satisfied_percent`,
 *   the share rated 4 or 5.
 * Durations are in seconds, averages and medians rounded to 2 decimals; a metric with no
 * conversation answers count 0 and nulls. host.db has no aggregates, so the period's conversations
 * are read in pages by id (a few columns each) and summed here, up to MAX_CONVERSATIONS.
 */
import { Type, type HandlerContext, type Static } from '../../../sdk';
import { validation } from './errors';
import type { ConversationRow } from './records';

export const GROUPS = ['day', 'week', 'month'] as const;
export type Group = (typeof GROUPS)[number];

/** The most conversations one report reads (memory and time of one call); a larger period is refused. */
export const MAX_CONVERSATIONS = 50_000;
/** The longest period (days) a report covers, so a day-grouped answer has at most this many rows. */
export const MAX_DAYS = 731;
const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;
const PAGE = 1000;

const COLUMNS = ['id', 'agent_id', 'team_id', 'created_at', 'first_response_at', 'resolved_at', 'closed_at', 'rating'] as const;
export type ReportConversation = Pick<ConversationRow, (typeof COLUMNS)[number]>;

const Seconds = Type.Nullable(Type.Number({ minimum: 0 }));
const Durations = Type.Object({ count: Type.Integer({ minimum: 0 }), average_seconds: Seconds, median_seconds: Seconds });
/** The metrics of a set of conversations: the shape every report row carries (one schema, the type derived). */
export const Metrics = Type.Object({
  conversations: Type.Integer({ minimum: 0 }),
  first_response: Durations,
  resolution: Durations,
  csat: Type.Object({ count: Type.Integer({ minimum: 0 }), average: Type.Nullable(Type.Number()), satisfied_percent: Type.Nullable(Type.Number()) }),
});
export type Metrics = Static<typeof Metrics>;
type Durations = Static<typeof Durations>;

export interface Period {
  from: Date;
  to: Date;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const ms = (iso: string | Date) => new Date(iso).getTime();

function durations(seconds: number[]): Durations {
  if (!seconds.length) return { count: 0, average_seconds: null, median_seconds: null };
  const sorted = [...seconds].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { count: sorted.length, average_seconds: round2(sorted.reduce((s, x) => s + x, 0) / sorted.length), median_seconds: round2(median) };
}

/** The three metrics over some conversations (definitions above). */
export function metricsOf(rows: readonly ReportConversation[]): Metrics {
  const frt: number[] = [];
  const resolution: number[] = [];
  const ratings: number[] = [];
  for (const c of rows) {
    const start = ms(c.created_at);
    if (c.first_response_at) frt.push(Math.max(0, ms(c.first_response_at) - start) / 1000);
    const end = c.resolved_at ?? c.closed_at;
    if (end) resolution.push(Math.max(0, ms(end) - start) / 1000);
    if (c.rating !== null) ratings.push(c.rating);
  }
  const csat: Metrics['csat'] = ratings.length
    ? { count: ratings.length, average: round2(ratings.reduce((s, r) => s + r, 0) / ratings.length), satisfied_percent: round2((100 * ratings.filter((r) => r >= 4).length) / ratings.length) }
    : { count: 0, average: null, satisfied_percent: null };
  return { conversations: rows.length, first_response: durations(frt), resolution: durations(resolution), csat };
}

/** The start (UTC) of the day, ISO week (Monday) or month holding `t`. */
export function bucketStart(t: Date, group: Group): Date {
  const d = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), group === 'month' ? 1 : t.getUTCDate()));
  if (group === 'week') d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d;
}

function nextBucket(d: Date, group: Group): Date {
  const n = new Date(d);
  if (group === 'month') n.setUTCMonth(n.getUTCMonth() + 1);
  else n.setUTCDate(n.getUTCDate() + (group === 'week' ? 7 : 1));
  return n;
}

/** Rows grouped by the bucket of their created_at, every bucket of the period present (empty ones too, for a chart). */
export function byPeriod(rows: readonly ReportConversation[], period: Period, group: Group): Array<{ period: string } & Metrics> {
  const groups = new Map<string, ReportConversation[]>();
  for (let b = bucketStart(period.from, group); b < period.to; b = nextBucket(b, group)) groups.set(b.toISOString().slice(0, 10), []);
  for (const c of rows) groups.get(bucketStart(new Date(c.created_at), group).toISOString().slice(0, 10))?.push(c);
  return [...groups].map(([start, list]) => ({ period: start, ...metricsOf(list) }));
}

/** Rows grouped by a column (agent_id, team_id), by its value ascending, null last. */
export function byKey<K extends 'agent_id' | 'team_id'>(rows: readonly ReportConversation[], key: K): Array<[number | null, ReportConversation[]]> {
  const groups = new Map<number | null, ReportConversation[]>();
  for (const c of rows) {
    const list = groups.get(c[key]);
    if (list) list.push(c);
    else groups.set(c[key], [c]);
  }
  return [...groups].sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b));
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The period asked: `from` inclusive, `to` exclusive, each a date (UTC midnight; a date `to` takes
 * its whole day) or an ISO date-time; by default the 30 days up to now.
 */
export function periodOf(input: { from?: string; to?: string }, now: number): Period {
  const parse = (field: 'from' | 'to', value: string) => {
    const t = Date.parse(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
    if (Number.isNaN(t)) throw validation(field, `${field} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`);
    return field === 'to' && DATE_ONLY.test(value) ? t + DAY_MS : t;
  };
  const to = input.to ? parse('to', input.to) : now;
  const from = input.from ? parse('from', input.from) : to - DEFAULT_DAYS * DAY_MS;
  if (from >= to) throw validation('to', 'to must be after from.');
  if (to - from > MAX_DAYS * DAY_MS) throw validation('from', `A report covers at most ${MAX_DAYS} days.`);
  return { from: new Date(from), to: new Date(to) };
}

/** The conversations created in the period, in pages by id (keyset), a few columns each. */
export async function conversationsIn(ctx: HandlerContext, period: Period): Promise<ReportConversation[]> {
  const rows: ReportConversation[] = [];
  for (let after = 0; ; ) {
    const page = await ctx.host.db.find<ConversationRow>('Conversation', {
      where: { id: { $gt: after }, created_at: { $gte: period.from.toISOString(), $lt: period.to.toISOString() } },
      order: [['id', 'ASC']],
      limit: PAGE,
      attributes: COLUMNS,
    });
    rows.push(...page);
    if (rows.length > MAX_CONVERSATIONS) throw validation('from', `The period holds more than ${MAX_CONVERSATIONS} conversations; ask a shorter one.`);
    if (page.length < PAGE) return rows;
    after = page[page.length - 1].id;
  }
}
