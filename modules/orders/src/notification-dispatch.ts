/**
 * Sending notification rules: on order events, and on demand (POST /order-notification-rules/{rule}/test).
 *
 * On an event, every active rule on that event whose conditions match is rendered and sent once.
 * Events arrive at least once (a redelivery carries the same ctx.event.id), so each (rule, event id)
 * is claimed first by inserting its send-log row (unique index): a redelivery finds the row and
 * stops. A row still `sending` after LEASE_MS belongs to a delivery that died mid-send; the next
 * redelivery takes it over (compare-and-set on attempts) — at least once, never twice while a send
 * is running. The row then records the outcome: sent (with the provider's message id), failed (the
 * provider's error) or skipped (no recipient, e.g. the customer has no phone); a failure that may
 * pass is `retrying` instead, sent again by the schedule notification_retries (notification-retry.ts).
 */
import type { HandlerContext } from '../../../sdk';
import { codeOf } from './errors';
import { deliver, overrideRecipient, resolveRecipient, type Resolved } from './notification-channels';
import { LEASE_MS, outcomeChanges, type Final } from './notification-retry';
import { loadRule, type RuleRow, type SendRow } from './notification-rules';
import { factsOf, matches } from './rule-conditions';
import { findOrder, loadOrder, nowIso, type OrderRow } from './store';
import { render, SAMPLE_VALUES, type TemplateValues } from './templates';

const DEFAULT_SUBJECT = 'Order {{order_number}}: {{status}}';

type Payload = Record<string, unknown>;
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** Placeholder values for an order, the event payload first (it says what just happened). */
async function valuesFor(ctx: HandlerContext, order: OrderRow, payload: Payload): Promise<TemplateValues> {
  let tracking = text(payload.tracking_url);
  if (!tracking) {
    const shipment = await ctx.host.db.findOne<{ order_id: string; tracking_url: string | null; created_at: string }>('Shipment', {
      where: { order_id: order.id, tracking_url: { $not: null } }, order: [['created_at', 'DESC']],
    });
    tracking = shipment?.tracking_url ?? null;
  }
  const name = text(order.customer?.name) ?? text(order.shipping_address?.name) ?? '';
  return {
    order_number: order.order_number,
    customer_name: name,
    total: order.total,
    status: text(payload.new_status) ?? text(payload.status) ?? order.status,
    tracking_url: tracking ?? '',
    // Filled when an event carries one (there is no returns flow in the orders module yet).
    return_number: text(payload.return_number) ?? '',
  };
}

const compose = (rule: RuleRow, values: Partial<TemplateValues>) => ({ subject: render(rule.subject ?? DEFAULT_SUBJECT, values), text: render(rule.template, values) });

/** Event handler: the active rules on this event, matched and each sent once per event id. */
export async function applyRules(event: string, payload: unknown, ctx: HandlerContext) {
  const rules = await ctx.host.db.find<RuleRow>('NotificationRule', { where: { event, is_active: true }, order: [['created_at', 'ASC']], limit: 1000 });
  if (rules.length === 0) return;
  const p = (payload && typeof payload === 'object' ? payload : {}) as Payload;
  const order = typeof p.order_id === 'string' ? await findOrder(ctx.host.db, p.order_id) : null;
  if (!order) {
    ctx.host.log.warn('notification rules: event without a known order', { event, order_id: p.order_id ?? null });
    return;
  }
  const facts = factsOf(order, p);
  const matching = rules.filter((r) => matches(r.conditions, facts));
  if (matching.length === 0) return;
  const values = await valuesFor(ctx, order, p);
  for (const rule of matching) await sendOnce(ctx, rule, order, event, ctx.event?.id ?? null, values);
}

async function sendOnce(ctx: HandlerContext, rule: RuleRow, order: OrderRow, event: string, eventId: string | null, values: TemplateValues) {
  const { subject, text: body } = compose(rule, values);
  const recipient = resolveRecipient(rule, order);
  const row = await claim(ctx, {
    rule_id: rule.id, event_id: eventId, event, order_id: order.id, order_number: order.order_number, channel: rule.channel,
    recipient: recipient.ok ? recipient.label : null, subject, text: body, is_test: false,
  });
  if (!row) return; // sent (or being sent) by an earlier delivery of this event
  const outcome: Final = recipient.ok
    ? await deliver(ctx, rule.channel, recipient.target, { subject, text: body, order, ruleId: rule.id, event })
    : { status: 'skipped', error: recipient.reason };
  await ctx.host.db.update<SendRow>('NotificationSend', outcomeChanges(ctx, outcome, row.attempts, true), { where: { id: row.id } });
}

type NewSend = Pick<SendRow, 'rule_id' | 'event_id' | 'event' | 'order_id' | 'order_number' | 'channel' | 'recipient' | 'subject' | 'text' | 'is_test'>;

const insertSend = (ctx: HandlerContext, send: NewSend, at: string) =>
  ctx.host.db.create<SendRow>('NotificationSend', { ...send, status: 'sending', attempts: 1, claimed_at: at, created_at: at });

/** Inserts the send as `sending`; null when this (rule, event id) is already done or in progress. */
async function claim(ctx: HandlerContext, send: NewSend): Promise<SendRow | null> {
  const at = nowIso(ctx);
  try {
    return await insertSend(ctx, send, at);
  } catch (err) {
    if (codeOf(err) !== 'DB_CONFLICT') throw err;
  }
  const existing = await ctx.host.db.findOne<SendRow>('NotificationSend', { where: { rule_id: send.rule_id, event_id: send.event_id } });
  if (!existing || existing.status !== 'sending') return null;
  if (existing.claimed_at && Date.parse(existing.claimed_at) + LEASE_MS > ctx.host.now()) return null;
  const attempts = existing.attempts + 1;
  const taken = await ctx.host.db.update<SendRow>('NotificationSend', { attempts, claimed_at: at }, { where: { id: existing.id, status: 'sending', attempts: existing.attempts } });
  return taken === 1 ? { ...existing, attempts } : null;
}

type TestInput = { rule_id: string; order_id?: string; sample?: Partial<TemplateValues>; to?: string; user_id?: number; dry_run?: boolean };

/**
 * POST /order-notification-rules/{rule}/test: renders the rule for an order (order_id) or the
 * sample values (overridable with `sample`), sends it to `to` / `user_id` or the rule's recipient,
 * and answers what was sent. Conditions and is_active do not stop a test; `conditions_match` says
 * whether the order would have matched. dry_run renders only. A real test send is in the send log
 * with is_test = true. A channel failure is an answer (sent: false, error), not an HTTP error.
 */
export async function testRule(input: TestInput, ctx: HandlerContext) {
  const rule = await loadRule(ctx, input.rule_id);
  const order = input.order_id ? await loadOrder(ctx.host.db, input.order_id) : null;
  const values = { ...(order ? await valuesFor(ctx, order, {}) : SAMPLE_VALUES), ...(input.sample ?? {}) };
  const { subject, text: body } = compose(rule, values);
  const recipient: Resolved = overrideRecipient(rule.channel, input.to, input.user_id) ?? resolveRecipient(rule, order);
  const conditions_match = order ? matches(rule.conditions, factsOf(order, {})) : null;
  if (!recipient.ok) {
    // Nobody to send to (a customer rule tested without an order or `to`): the rendering is still the answer.
    const give = rule.channel === 'in_app' ? 'user_id' : '"to" or an order_id';
    return { rule_id: rule.id, channel: rule.channel, recipient: null, subject, text: body, conditions_match, dry_run: true, sent: false, status: 'rendered', reason: `No recipient: ${recipient.reason}; give ${give} to send it.` };
  }
  const answer = { rule_id: rule.id, channel: rule.channel, recipient: recipient.label, subject, text: body, conditions_match };
  if (input.dry_run) return { ...answer, dry_run: true, sent: false, status: 'rendered' };
  const row = await insertSend(ctx, {
    rule_id: rule.id, event_id: null, event: null, order_id: order?.id ?? null, order_number: order?.order_number ?? values.order_number,
    channel: rule.channel, recipient: recipient.label, subject, text: body, is_test: true,
  }, nowIso(ctx));
  const outcome = await deliver(ctx, rule.channel, recipient.target, { subject, text: body, order, ruleId: rule.id, event: null });
  await ctx.host.db.update<SendRow>('NotificationSend', outcomeChanges(ctx, outcome, row.attempts, false), { where: { id: row.id } });
  return {
    ...answer, dry_run: false, sent: outcome.status === 'sent', status: outcome.status, send_id: row.id,
    provider_message_id: outcome.status === 'sent' ? outcome.provider_message_id : null, error: outcome.status === 'failed' ? outcome.error : null,
  };
}
