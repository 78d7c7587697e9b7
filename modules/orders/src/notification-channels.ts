/**
 * Where a notification rule's message goes and how (spec 3: "Channels of notification rules: sms
 * (SMS provider module), whatsapp (channel module), email (email service), in_app (notification
 * service)").
 *
 *   channel   recipient_type            goes through
 *   sms       customer | custom         sms_msg91.send        (provider module, MSG91)
 *   whatsapp  customer | custom         whatsapp_cloud.send   (provider module, WhatsApp Cloud API)
 *   email     customer | custom         mail.send             (core mail transport)
 *   in_app    user | staff              notifications.send    (core in-app notifications)
 *
 * customer = the order's customer (customer.phone, else the shipping then billing address phone;
 * customer.email); custom = the rule's fixed `recipient` (a phone number or an email address, e.g.
 * the shop's own); user = one platform user (`recipient_user_id`); staff = every member of the
 * tenant. In-app notifications reach platform users only, and a customer is not one, so in_app
 * takes user/staff and the other channels take customer/custom.
 *
 * A failed channel call never throws here: it becomes the send's outcome, kept in the send log
 * (and retried later when it may pass: notification-retry.ts).
 */
import type { HandlerContext } from '../../../sdk';
import { codeOf } from './errors';
import { isTransient } from './notification-failures';
import type { OrderRow } from './store';

export const CHANNELS = ['sms', 'whatsapp', 'email', 'in_app'] as const;
export const RECIPIENT_TYPES = ['customer', 'custom', 'user', 'staff'] as const;
export type Channel = (typeof CHANNELS)[number];
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

export const RECIPIENTS_OF: Record<Channel, readonly RecipientType[]> = {
  sms: ['customer', 'custom'],
  whatsapp: ['customer', 'custom'],
  email: ['customer', 'custom'],
  in_app: ['user', 'staff'],
};

/** Provider modules behind the sms and whatsapp channels (orders consumes `<alias>.*`). */
export const PROVIDER_OF: Partial<Record<Channel, string>> = { sms: 'sms_msg91', whatsapp: 'whatsapp_cloud' };

export const PHONE_RE = /^\+?[0-9][0-9 ()-]{8,20}$/;
export const EMAIL_RE = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

export type Target = { kind: 'phone'; phone: string } | { kind: 'email'; email: string } | { kind: 'user'; userId: number } | { kind: 'staff' };
export type Resolved = { ok: true; target: Target; label: string } | { ok: false; reason: string };

export interface RecipientRule {
  channel: Channel;
  recipient_type: RecipientType;
  recipient: string | null;
  recipient_user_id: number | null;
}

const label = (t: Target) => (t.kind === 'phone' ? t.phone : t.kind === 'email' ? t.email : t.kind === 'user' ? `user:${t.userId}` : 'staff');
const ok = (target: Target): Resolved => ({ ok: true, target, label: label(target) });

function customerPhone(order: OrderRow): string | null {
  const candidates = [order.customer?.phone, order.shipping_address?.phone, order.billing_address?.phone];
  const phone = candidates.find((p) => typeof p === 'string' && p.trim() !== '');
  return typeof phone === 'string' ? phone.trim() : null;
}

/** The rule's recipient for an order (null order: only fixed recipients resolve). */
export function resolveRecipient(rule: RecipientRule, order: OrderRow | null): Resolved {
  const wantsPhone = rule.channel === 'sms' || rule.channel === 'whatsapp';
  switch (rule.recipient_type) {
    case 'user':
      return rule.recipient_user_id ? ok({ kind: 'user', userId: rule.recipient_user_id }) : { ok: false, reason: 'the rule names no recipient_user_id' };
    case 'staff':
      return ok({ kind: 'staff' });
    case 'custom':
      if (!rule.recipient) return { ok: false, reason: 'the rule names no recipient' };
      return ok(wantsPhone ? { kind: 'phone', phone: rule.recipient } : { kind: 'email', email: rule.recipient });
    case 'customer': {
      if (!order) return { ok: false, reason: 'there is no order to take the customer from' };
      if (wantsPhone) {
        const phone = customerPhone(order);
        return phone ? ok({ kind: 'phone', phone }) : { ok: false, reason: "the order's customer has no phone number" };
      }
      const email = typeof order.customer?.email === 'string' ? order.customer.email.trim() : '';
      return email ? ok({ kind: 'email', email }) : { ok: false, reason: "the order's customer has no email address" };
    }
  }
}

/** An explicit destination given to POST …/test (a phone, an email address or a user id). */
export function overrideRecipient(channel: Channel, to: string | undefined, userId: number | undefined): Resolved | null {
  if (channel === 'in_app') return userId ? ok({ kind: 'user', userId }) : null;
  if (!to) return null;
  return ok(channel === 'email' ? { kind: 'email', email: to } : { kind: 'phone', phone: to });
}

/** `transient`: the failure may pass (network, 5xx, timeout, 429), so the send may be retried. */
export type Outcome = { status: 'sent'; provider_message_id: string | null } | { status: 'failed'; error: string; transient: boolean };

export interface Message {
  subject: string;
  text: string;
  order: OrderRow | null;
  ruleId: string;
  event: string | null;
}

/** Sends one message on a channel; every failure is an outcome, never an exception. */
export async function deliver(ctx: HandlerContext, channel: Channel, target: Target, m: Message): Promise<Outcome> {
  try {
    const answer = await ctx.host.call<{ id?: unknown }>(...callFor(channel, target, m));
    return { status: 'sent', provider_message_id: answer?.id === undefined || answer?.id === null ? null : String(answer.id) };
  } catch (err) {
    const code = codeOf(err);
    const provider = PROVIDER_OF[channel];
    if (provider && code === 'OPERATION_NOT_FOUND') {
      return { status: 'failed', error: `PROVIDER_NOT_INSTALLED: the ${channel} channel sends through the module ${provider}, which is not installed for this tenant`, transient: false };
    }
    const message = err instanceof Error ? err.message : String(err);
    return { status: 'failed', error: code ? `${String(code)}: ${message}` : message, transient: isTransient(err) };
  }
}

/** The bus call for a target; the rule's validation keeps channel and target kind consistent. */
function callFor(channel: Channel, target: Target, m: Message): [string, unknown] {
  switch (target.kind) {
    case 'user':
    case 'staff':
      return ['notifications.send', {
        ...(target.kind === 'user' ? { user_id: target.userId } : { all_members: true }),
        type: 'orders.notification_rule', title: m.subject.slice(0, 255), body: m.text, module: 'orders', icon: 'shopping-cart',
        ...(m.order ? { action_url: `/orders/${m.order.id}` } : {}),
        data: { rule_id: m.ruleId, event: m.event, order_id: m.order?.id ?? null, order_number: m.order?.order_number ?? null },
      }];
    case 'email':
      return ['mail.send', { to: target.email, subject: m.subject.replace(/[\r\n]+/g, ' ').slice(0, 255), text: m.text }];
    case 'phone':
      return [`${PROVIDER_OF[channel]}.send`, { to: target.phone, text: m.text }];
  }
}

/** Whether the provider module of a channel is installed for the tenant (and callable by orders). */
export async function providerInstalled(ctx: HandlerContext, channel: Channel): Promise<boolean> {
  const alias = PROVIDER_OF[channel];
  if (!alias) return true;
  try {
    await ctx.host.call(`${alias}.status`, {});
    return true;
  } catch (err) {
    if (codeOf(err) === 'OPERATION_NOT_FOUND') return false;
    throw err;
  }
}
