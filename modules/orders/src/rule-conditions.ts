/**
 * Notification rule conditions (spec 3 names `conditions (object)` and leaves its form unshown).
 *
 * A condition object is a conjunction: every key must hold; `{}` always matches.
 *  - Field keys compare a fact with a value, or with any of a list:
 *      status, old_status, new_status, payment_status, fulfillment_status, currency, source,
 *      carrier_module (strings), is_cod (boolean).
 *  - Amount keys compare the order total as decimals: total_gte, total_gt, total_lte, total_lt
 *    (a decimal string such as "1000" or "999.50", or a number).
 * Facts come from the event payload and the order as it is when the rule runs: `status` is the
 * status the event reports (new_status, else status) and otherwise the order's; old_status and
 * new_status exist only for order.status_changed. Unknown keys and wrongly typed values are refused
 * when the rule is saved (422 naming the key).
 */
import { invalid } from './errors';
import { D } from './money';
import type { OrderRow } from './store';

const STRING_KEYS = ['status', 'old_status', 'new_status', 'payment_status', 'fulfillment_status', 'currency', 'source', 'carrier_module'] as const;
const BOOLEAN_KEYS = ['is_cod'] as const;
const AMOUNT_KEYS = { total_gte: (c: number) => c >= 0, total_gt: (c: number) => c > 0, total_lte: (c: number) => c <= 0, total_lt: (c: number) => c < 0 } as const;
const KNOWN = [...STRING_KEYS, ...BOOLEAN_KEYS, ...Object.keys(AMOUNT_KEYS)];

export type Conditions = Record<string, unknown>;
export type Facts = Record<string, string | boolean | null>;

const AMOUNT = /^-?\d{1,13}(\.\d{1,2})?$/;
const amountText = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);

/** Refuses unknown keys and values of the wrong type (422 under `conditions.<key>`). */
export function checkConditions(conditions: Conditions): Conditions {
  for (const [key, value] of Object.entries(conditions)) {
    const field = `conditions.${key}`;
    if (!KNOWN.includes(key)) throw invalid(field, `Unknown condition "${key}". Known: ${KNOWN.join(', ')}.`);
    if ((STRING_KEYS as readonly string[]).includes(key)) {
      const ok = typeof value === 'string' || (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string'));
      if (!ok) throw invalid(field, `The condition "${key}" must be a string or a non-empty list of strings.`);
    } else if ((BOOLEAN_KEYS as readonly string[]).includes(key)) {
      if (typeof value !== 'boolean') throw invalid(field, `The condition "${key}" must be true or false.`);
    } else {
      const text = amountText(value);
      if (typeof text !== 'string' || !AMOUNT.test(text)) throw invalid(field, `The condition "${key}" must be a decimal amount such as "1000" or "999.50".`);
    }
  }
  return conditions;
}

/** What conditions are evaluated against: the event payload over the order. */
export function factsOf(order: OrderRow, payload: Record<string, unknown>): Facts {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    status: text(payload.new_status) ?? text(payload.status) ?? order.status,
    old_status: text(payload.old_status),
    new_status: text(payload.new_status),
    payment_status: text(payload.payment_status) ?? order.payment_status,
    fulfillment_status: text(payload.fulfillment_status) ?? order.fulfillment_status,
    currency: order.currency,
    source: order.source,
    carrier_module: text(payload.carrier_module),
    is_cod: order.is_cod,
    total: order.total,
  };
}

export function matches(conditions: Conditions | null, facts: Facts): boolean {
  for (const [key, expected] of Object.entries(conditions ?? {})) {
    if (key in AMOUNT_KEYS) {
      if (facts.total === null || typeof facts.total !== 'string') return false;
      const cmp = new D(facts.total).comparedTo(new D(String(amountText(expected))));
      if (!AMOUNT_KEYS[key as keyof typeof AMOUNT_KEYS](cmp)) return false;
      continue;
    }
    const actual = facts[key];
    const ok = Array.isArray(expected) ? expected.includes(actual) : actual === expected;
    if (!ok) return false;
  }
  return true;
}
