/**
 * Notification rules (spec 3, Notification rule: name, event, channel, recipient_type, template,
 * conditions, is_active): create, list, get, update (PUT, partial), delete, and the send log.
 * Sending — on events and from POST …/test — is in notification-dispatch.ts.
 *
 * Checked when a rule is saved (422 naming the field): the event (order.* as in the spec, orders.*
 * accepted and normalised), the channel × recipient_type pairs of notification-channels.ts, the
 * recipient's form, unknown template placeholders (named), the conditions (rule-conditions.ts),
 * and that the channel's provider module is installed (PROVIDER_NOT_INSTALLED) — a rule that could
 * never send is refused instead of filling the send log with failures. A provider uninstalled
 * later makes the rule's sends fail, logged with the reason.
 */
import type { HandlerContext, RowOf } from '../../../sdk';
import { invalid, notFound } from './errors';
import { EMAIL_RE, PHONE_RE, PROVIDER_OF, providerInstalled, RECIPIENTS_OF, type Channel, type RecipientType } from './notification-channels';
import { checkConditions, type Conditions } from './rule-conditions';
import { nowIso, UUID_RE } from './store';
import { checkTemplate } from './templates';
import { ORDER_EVENTS } from './webhooks';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type RuleRow = RowOf<Models['NotificationRule'], { channel: Channel; recipient_type: RecipientType; conditions: Conditions }>;

export type SendRow = RowOf<Models['NotificationSend'], { channel: Channel; status: 'sending' | 'retrying' | 'sent' | 'failed' | 'skipped' }>;

type RuleInput = Partial<Omit<RuleRow, 'id' | 'created_at' | 'updated_at'>> & { rule_id?: string };

function checkEvent(event: string): string {
  if (!ORDER_EVENTS.includes(event)) throw invalid('event', `Unknown event "${event}". Known: ${ORDER_EVENTS.join(', ')}.`);
  return event;
}

/** Every check of a complete rule; `rule` is the stored rule with the changes applied. */
async function check(ctx: HandlerContext, rule: Omit<RuleRow, 'id' | 'created_at' | 'updated_at'>) {
  const allowed = RECIPIENTS_OF[rule.channel];
  if (!allowed.includes(rule.recipient_type)) {
    throw invalid('recipient_type', `The ${rule.channel} channel takes recipient_type ${allowed.join(' or ')}, not "${rule.recipient_type}"${rule.channel === 'in_app' ? ' (in-app notifications reach platform users; a customer is not one)' : ''}.`);
  }
  if (rule.recipient_type === 'user' && !rule.recipient_user_id) throw invalid('recipient_user_id', 'recipient_type "user" needs recipient_user_id (a platform user id).');
  if (rule.recipient_type === 'custom') {
    if (!rule.recipient) throw invalid('recipient', `recipient_type "custom" needs recipient (${rule.channel === 'email' ? 'an email address' : 'a phone number'}).`);
    const wanted = rule.channel === 'email' ? EMAIL_RE : PHONE_RE;
    if (!wanted.test(rule.recipient)) throw invalid('recipient', `"${rule.recipient}" is not ${rule.channel === 'email' ? 'an email address' : 'a phone number (+<country code><number>)'}.`);
  }
  checkTemplate('template', rule.template);
  if (rule.subject) checkTemplate('subject', rule.subject);
  checkConditions(rule.conditions);
}

/**
 * What the rule needs that the tenant lacks, said in the answer: a rule on a channel whose provider
 * module is not installed is kept (rules may be set up before the provider), and its sends fail,
 * logged with PROVIDER_NOT_INSTALLED, until the module is installed.
 */
async function warningsFor(ctx: HandlerContext, rule: Pick<RuleRow, 'channel'>): Promise<string[]> {
  if (await providerInstalled(ctx, rule.channel)) return [];
  return [`The ${rule.channel} channel sends through the module ${PROVIDER_OF[rule.channel]}, which is not installed for this tenant: until it is, this rule's sends fail (PROVIDER_NOT_INSTALLED in its send log).`];
}

const withWarnings = <T extends object>(rule: T, warnings: string[]) => (warnings.length ? { ...rule, warnings } : rule);

/** Fields that only mean something for one recipient type are cleared for the others. */
function tidy<T extends { recipient_type: RecipientType; recipient: string | null; recipient_user_id: number | null }>(rule: T): T {
  return { ...rule, recipient: rule.recipient_type === 'custom' ? rule.recipient : null, recipient_user_id: rule.recipient_type === 'user' ? rule.recipient_user_id : null };
}

export async function loadRule(ctx: HandlerContext, id: string): Promise<RuleRow> {
  const rule = UUID_RE.test(id) ? await ctx.host.db.findOne<RuleRow>('NotificationRule', { where: { id: id.toLowerCase() } }) : null;
  if (!rule) throw notFound('Notification rule', id);
  return rule;
}

export async function createRule(input: RuleInput, ctx: HandlerContext) {
  const rule = tidy({
    name: input.name!,
    event: checkEvent(input.event!),
    channel: input.channel!,
    // In-app notifications reach members, never customers: that channel defaults to the tenant's staff.
    recipient_type: input.recipient_type ?? (input.channel === 'in_app' ? 'staff' : 'customer'),
    recipient: input.recipient ?? null,
    recipient_user_id: input.recipient_user_id ?? null,
    subject: input.subject ?? null,
    template: input.template!,
    conditions: input.conditions ?? {},
    is_active: input.is_active ?? true,
  });
  await check(ctx, rule);
  const at = nowIso(ctx);
  return withWarnings(await ctx.host.db.create<RuleRow>('NotificationRule', { ...rule, created_at: at, updated_at: at }), await warningsFor(ctx, rule));
}

export async function listRules(input: { event?: string; channel?: string; is_active?: boolean }, ctx: HandlerContext) {
  const where: Record<string, unknown> = {};
  if (input.event) where.event = checkEvent(input.event);
  if (input.channel) where.channel = input.channel;
  if (input.is_active !== undefined) where.is_active = input.is_active;
  return { data: await ctx.host.db.find<RuleRow>('NotificationRule', { where, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: 1000 }) };
}

export const getRule = (input: { rule_id: string }, ctx: HandlerContext) => loadRule(ctx, input.rule_id);

export async function updateRule(input: RuleInput & { rule_id: string }, ctx: HandlerContext) {
  const current = await loadRule(ctx, input.rule_id);
  const { rule_id: _id, ...changes } = input;
  const next = tidy({ ...current, ...changes, ...(changes.event !== undefined ? { event: checkEvent(changes.event) } : {}) });
  await check(ctx, next);
  const saved = { ...next, updated_at: nowIso(ctx) };
  const { id: _same, created_at: _created, ...values } = saved;
  await ctx.host.db.update<RuleRow>('NotificationRule', values, { where: { id: current.id } });
  return withWarnings(saved, await warningsFor(ctx, saved));
}

/** Deletes the rule; its send log stays (history of what customers were sent). */
export async function deleteRule(input: { rule_id: string }, ctx: HandlerContext) {
  const rule = await loadRule(ctx, input.rule_id);
  await ctx.host.db.destroy('NotificationRule', { where: { id: rule.id } });
  return { deleted: true as const, id: rule.id };
}

export async function listSends(input: { rule_id: string; status?: string; order_id?: string; limit?: number; offset?: number }, ctx: HandlerContext) {
  const rule = await loadRule(ctx, input.rule_id);
  const where: Record<string, unknown> = { rule_id: rule.id };
  if (input.status) where.status = input.status;
  if (input.order_id) where.order_id = input.order_id.toLowerCase();
  const [rows, total] = await Promise.all([
    ctx.host.db.find<SendRow>('NotificationSend', { where, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: input.limit ?? 50, offset: input.offset ?? 0 }),
    ctx.host.db.count('NotificationSend', { where }),
  ]);
  return { data: rows, total };
}
