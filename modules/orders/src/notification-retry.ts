/**
 * Retrying failed notification sends (issue 9 item 5 follow-up), like outbound webhook deliveries.
 *
 * A send of an event that fails for a passing reason (provider unreachable, 5xx, timeout, 429) is
 * kept `retrying` with `next_attempt_at` after 1, 5 and 15 minutes (3 retries, 4 attempts in all),
 * then `failed`. A permanent failure (a 4xx such as an invalid number, a provider that is not
 * installed) is `failed` at once, and a send without a recipient is `skipped`: trying again would
 * give the same answer. Test sends (POST …/test) answer their outcome and are never retried.
 *
 * The schedule `notification_retries` (every minute) sends each due row again with the subject and
 * text rendered for the event (nothing is re-rendered: the customer gets what the event produced),
 * after claiming it with a compare-and-set on (status, attempts), so two runners never send it twice.
 * It also takes over event sends left `sending` longer than the lease (a runner that died mid-send).
 * A send whose rule was deactivated or deleted since is `skipped`, not sent: turning a rule off stops
 * what it had queued.
 */
import type { HandlerContext } from '../../../sdk';
import { deliver, type Channel, type Outcome, type Target } from './notification-channels';
import type { RuleRow, SendRow } from './notification-rules';
import { findOrder, nowIso } from './store';

/** Wait before retry 1, 2 and 3; after the last one a failure is final. */
export const RETRY_BACKOFF_MS = [60_000, 300_000, 900_000] as const;
/** A send left `sending` this long belongs to a runner that died; it may be taken over. */
export const LEASE_MS = 120_000;
const BATCH = 100;

export type Final = Outcome | { status: 'skipped'; error: string };

/** The row's changes for an attempt's outcome; `retry` is false for test sends. */
export function outcomeChanges(ctx: HandlerContext, outcome: Final, attempts: number, retry: boolean): Partial<SendRow> {
  if (outcome.status === 'sent') return { status: 'sent', provider_message_id: outcome.provider_message_id, error: null, next_attempt_at: null, sent_at: nowIso(ctx) };
  const error = outcome.error.slice(0, 2000);
  const wait = outcome.status === 'failed' && outcome.transient && retry ? RETRY_BACKOFF_MS[attempts - 1] : undefined;
  if (wait === undefined) return { status: outcome.status, error, next_attempt_at: null };
  return { status: 'retrying', error, next_attempt_at: new Date(ctx.host.now() + wait).toISOString() };
}

/** The stored recipient label back as a target (labels: see notification-channels.ts). */
function targetOf(channel: Channel, label: string): Target {
  if (channel === 'email') return { kind: 'email', email: label };
  if (channel !== 'in_app') return { kind: 'phone', phone: label };
  return label === 'staff' ? { kind: 'staff' } : { kind: 'user', userId: Number(label.replace(/^user:/, '')) };
}

/** Due retries, and event sends whose runner died mid-send (lease run out). */
async function dueRows(ctx: HandlerContext): Promise<SendRow[]> {
  const now = nowIso(ctx);
  const stale = new Date(ctx.host.now() - LEASE_MS).toISOString();
  const [due, abandoned] = await Promise.all([
    ctx.host.db.find<SendRow>('NotificationSend', { where: { status: 'retrying', next_attempt_at: { $lte: now } }, order: [['next_attempt_at', 'ASC']], limit: BATCH }),
    ctx.host.db.find<SendRow>('NotificationSend', { where: { status: 'sending', is_test: false, claimed_at: { $lte: stale } }, order: [['claimed_at', 'ASC']], limit: BATCH }),
  ]);
  return [...due, ...abandoned];
}

/** Schedule `notification_retries` (and POST /order-notification-rules/retry-due). */
export async function retryDueSends(_input: unknown, ctx: HandlerContext) {
  let attempted = 0;
  const rows = await dueRows(ctx);
  const ruleIds = [...new Set(rows.map((r) => r.rule_id))];
  const active = ruleIds.length
    ? new Set((await ctx.host.db.find<RuleRow>('NotificationRule', { where: { id: { $in: ruleIds }, is_active: true }, attributes: ['id'] })).map((r) => r.id))
    : new Set<string>();
  for (const row of rows) {
    if (!active.has(row.rule_id)) {
      // Same compare-and-set as a claim: a runner that already took the row keeps it.
      await ctx.host.db.update<SendRow>('NotificationSend', { status: 'skipped', error: 'the rule was deactivated or deleted before this retry', next_attempt_at: null }, {
        where: { id: row.id, status: row.status, attempts: row.attempts },
      });
      continue;
    }
    const attempts = row.attempts + 1;
    // Compare-and-set: only the runner that moves the row on from what it read sends it.
    const claimed = await ctx.host.db.update<SendRow>('NotificationSend', { status: 'sending', attempts, claimed_at: nowIso(ctx), next_attempt_at: null }, {
      where: { id: row.id, status: row.status, attempts: row.attempts },
    });
    if (claimed !== 1) continue;
    attempted++;
    const order = row.order_id ? await findOrder(ctx.host.db, row.order_id) : null;
    const outcome: Final = row.recipient
      ? await deliver(ctx, row.channel, targetOf(row.channel, row.recipient), { subject: row.subject ?? '', text: row.text ?? '', order, ruleId: row.rule_id, event: row.event })
      : { status: 'skipped', error: 'the send has no recipient' };
    await ctx.host.db.update<SendRow>('NotificationSend', outcomeChanges(ctx, outcome, attempts, true), { where: { id: row.id } });
  }
  return { attempted };
}
