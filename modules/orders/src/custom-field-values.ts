/**
 * Values of tenant-defined custom fields in an order's `custom_fields` JSON (spec 3, custom field):
 * checked against the definitions on create and on PATCH /orders/{id}/custom-fields, and turned
 * into a SQL filter (JSONB containment through host.db `$contains`) for the order list.
 *
 * Values are stored in their JSON type (number, boolean, string; dates as "YYYY-MM-DD"), so that a
 * filter `custom_fields[priority]=3` from a query string and a stored 3 meet in one `@>` test.
 */
import type { HandlerContext, RowOf } from '../../../sdk';
import { ordersErrors } from './errors';
import { inTransaction, itemsOf, loadOrder, nowIso, orderView, saveOrder, type AnyDb } from './store';
import { cachedDefinition } from './definition-cache';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export const FIELD_TYPES = ['text', 'number', 'select', 'boolean', 'date'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export type CustomFieldRow = RowOf<Models['CustomField'], { field_type: FieldType; options: string[] }>;

export type Scalar = string | number | boolean;
type FieldErrors = Record<string, string[]>;

const TEXT_MAX = 5000;
const DECIMAL = /^-?\d{1,15}(\.\d{1,10})?$/;

export const definitions = (db: AnyDb) =>
  db.find<CustomFieldRow>('CustomField', { order: [['sort_order', 'ASC'], ['field_key', 'ASC']], limit: 1000 });

function isCalendarDate(v: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/**
 * The value in its stored JSON type, or the reason it does not fit. Numbers and booleans are also
 * accepted as strings ("12.5", "true"): query strings and CSV cells carry nothing else.
 */
export function coerceValue(field: CustomFieldRow, raw: unknown): { value: Scalar } | { error: string } {
  const label = field.field_label;
  switch (field.field_type) {
    case 'text':
      if (typeof raw !== 'string') return { error: `${label} must be text.` };
      return raw.length > TEXT_MAX ? { error: `${label} may hold at most ${TEXT_MAX} characters.` } : { value: raw };
    case 'number':
      if (typeof raw === 'number' && Number.isFinite(raw)) return { value: raw };
      if (typeof raw === 'string' && DECIMAL.test(raw.trim())) return { value: Number(raw.trim()) };
      return { error: `${label} must be a number.` };
    case 'boolean':
      if (typeof raw === 'boolean') return { value: raw };
      if (raw === 'true' || raw === 'false') return { value: raw === 'true' };
      return { error: `${label} must be true or false.` };
    case 'select':
      return typeof raw === 'string' && field.options.includes(raw) ? { value: raw } : { error: `${label} must be one of: ${field.options.join(', ')}.` };
    case 'date':
      return typeof raw === 'string' && isCalendarDate(raw) ? { value: raw } : { error: `${label} must be a date as YYYY-MM-DD.` };
  }
}

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

function fail(errors: FieldErrors): never {
  const messages = Object.values(errors).flat();
  const message = messages.length === 1 ? messages[0] : `${messages.length} custom field values are invalid.`;
  throw ordersErrors.invalidFields(message, errors);
}

const unknownKey = (key: string) => `"${key}" is not a custom field of this tenant's orders.`;

/**
 * Checks `given` against the definitions and returns the values to store on an order.
 * create: every required field must be present; null or absent optional fields are left out.
 * patch: `given` is merged into `current`; null removes a value, except of a required field.
 */
export function checkValues(defs: CustomFieldRow[], given: Record<string, unknown>, mode: 'create' | 'patch', current: Record<string, unknown> = {}) {
  const byKey = new Map(defs.map((d) => [d.field_key, d]));
  const errors: FieldErrors = {};
  const out: Record<string, unknown> = { ...current };
  for (const [key, raw] of Object.entries(given)) {
    const field = byKey.get(key);
    // A value left behind by a deleted field may still be removed.
    if (!field && raw === null && mode === 'patch' && Object.hasOwn(current, key)) delete out[key];
    else if (!field) errors[`custom_fields.${key}`] = [unknownKey(key)];
    else if (raw === null) delete out[key];
    else {
      const r = coerceValue(field, raw);
      if ('error' in r) errors[`custom_fields.${key}`] = [r.error];
      else out[key] = r.value;
    }
  }
  // Required: on create every such field; on patch those the patch touches (older orders keep theirs).
  for (const field of defs) {
    const at = `custom_fields.${field.field_key}`;
    const touched = mode === 'create' || Object.hasOwn(given, field.field_key);
    if (field.is_required && touched && isEmpty(out[field.field_key]) && !errors[at]) {
      errors[at] = [mode === 'create' ? `${field.field_label} is required.` : `${field.field_label} is required and cannot be removed.`];
    }
  }
  if (Object.keys(errors).length) fail(errors);
  return out;
}

/**
 * The values of a new order, checked (spec 3: validated on create, required fields enforced) against
 * the definitions as cached for a create (./definition-cache.ts).
 */
export async function valuesForNewOrder(ctx: HandlerContext, given: Record<string, unknown> | undefined) {
  return checkValues(await cachedDefinition(ctx, 'custom_fields', () => definitions(ctx.host.db)), given ?? {}, 'create');
}

/**
 * The order list's `custom_fields` filter ({key: value}, from `?custom_fields[key]=value`) as one
 * JSONB containment condition; only is_filterable fields, each with one value of its type.
 */
export async function customFieldFilter(db: AnyDb, filter: unknown): Promise<Record<string, unknown> | null> {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) fail({ custom_fields: ['custom_fields must be an object of field keys and values.'] });
  const entries = Object.entries(filter);
  if (!entries.length) return null;
  const byKey = new Map((await definitions(db)).map((d) => [d.field_key, d]));
  const errors: FieldErrors = {};
  const wanted: Record<string, Scalar> = {};
  for (const [key, raw] of entries) {
    const field = byKey.get(key);
    const at = `custom_fields.${key}`;
    if (!field) errors[at] = [unknownKey(key)];
    else if (!field.is_filterable) errors[at] = [`${field.field_label} is not filterable.`];
    else {
      const r = coerceValue(field, raw);
      if ('error' in r) errors[at] = [r.error];
      else wanted[key] = r.value;
    }
  }
  if (Object.keys(errors).length) fail(errors);
  return { custom_fields: { $contains: wanted } };
}

/** PATCH /orders/{id}/custom-fields: merges values into the order (null removes one), checked. */
export async function updateOrderCustomFields(input: { id: string; custom_fields: Record<string, unknown> }, ctx: HandlerContext) {
  const db = ctx.host.db;
  const defs = await definitions(db);
  const at = nowIso(ctx);
  const order = await inTransaction(db, async (tx) => {
    const current = await loadOrder(tx, input.id);
    const values = checkValues(defs, input.custom_fields, 'patch', current.custom_fields ?? {});
    return saveOrder(tx, current, { custom_fields: values }, at);
  });
  return orderView(order, await itemsOf(db, order.id));
}
