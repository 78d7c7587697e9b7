/**
 * Custom field definitions (spec 3, /order-custom-fields): create, list, get, update, delete.
 * A field is named in paths by its id or its field_key. field_key and field_type are fixed once
 * created: stored order values are keyed and typed by them, and are never rewritten.
 */
import type { HandlerContext } from '../../../sdk';
import { invalid, notFound, ordersErrors } from './errors';
import { definitions, type CustomFieldRow, type FieldType } from './custom-field-values';
import { inTransaction, nowIso, UUID_RE, type AnyDb } from './store';
import { changingDefinitions } from './definition-cache';

type FieldInput = {
  field?: string;
  field_key?: string;
  field_label?: string;
  field_type?: FieldType;
  options?: string[];
  is_required?: boolean;
  is_filterable?: boolean;
  sort_order?: number;
};

/** Definitions per tenant: each order write reads them all. */
const MAX_FIELDS = 100;

const duplicateKey = (key: string) =>
  ordersErrors.duplicateFieldKey(key);

/** Select fields need their options; other types take none. */
function optionsFor(type: FieldType, options: string[] | undefined): string[] {
  if (type === 'select') {
    if (!options?.length) throw invalid('options', 'A select field needs at least one option.');
    return options;
  }
  if (options?.length) throw invalid('options', `Options apply to select fields only, not ${type}.`);
  return [];
}

async function findField(db: AnyDb, ref: string): Promise<CustomFieldRow> {
  const where = UUID_RE.test(ref) ? { id: ref.toLowerCase() } : { field_key: ref };
  const row = await db.findOne<CustomFieldRow>('CustomField', { where });
  if (!row) throw notFound('Custom field', ref);
  return row;
}

export async function createCustomField(input: FieldInput, ctx: HandlerContext) {
  const type = input.field_type!;
  const key = input.field_key!;
  const options = optionsFor(type, input.options);
  const at = nowIso(ctx);
  // A concurrent create of the same key loses on the unique index; inTransaction re-runs it into duplicateKey.
  return changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    if (await tx.findOne('CustomField', { where: { field_key: key } })) throw duplicateKey(key);
    if ((await tx.count('CustomField')) >= MAX_FIELDS) throw invalid('field_key', `At most ${MAX_FIELDS} custom fields can be defined.`);
    return tx.create<CustomFieldRow>('CustomField', {
      field_key: key,
      field_label: input.field_label,
      field_type: type,
      options,
      is_required: input.is_required ?? false,
      is_filterable: input.is_filterable ?? false,
      sort_order: input.sort_order ?? 0,
      created_at: at,
      updated_at: at,
    });
  }));
}

export async function listCustomFields(_input: unknown, ctx: HandlerContext) {
  return { data: await definitions(ctx.host.db) };
}

export const getCustomField = (input: { field: string }, ctx: HandlerContext) => findField(ctx.host.db, input.field);

export async function updateCustomField(input: FieldInput & { field: string }, ctx: HandlerContext) {
  const at = nowIso(ctx);
  return changingDefinitions(() => inTransaction(ctx.host.db, async (tx) => {
    const current = await findField(tx, input.field);
    if (input.field_key !== undefined && input.field_key !== current.field_key) throw invalid('field_key', 'The field_key of a custom field cannot change: orders store their values under it.');
    if (input.field_type !== undefined && input.field_type !== current.field_type) throw invalid('field_type', 'The field_type of a custom field cannot change: delete the field and define a new one.');
    const changes: Partial<CustomFieldRow> = { updated_at: at };
    if (input.options !== undefined) changes.options = optionsFor(current.field_type, input.options);
    if (input.field_label !== undefined) changes.field_label = input.field_label;
    if (input.is_required !== undefined) changes.is_required = input.is_required;
    if (input.is_filterable !== undefined) changes.is_filterable = input.is_filterable;
    if (input.sort_order !== undefined) changes.sort_order = input.sort_order;
    await tx.update<CustomFieldRow>('CustomField', changes, { where: { id: current.id } });
    return { ...current, ...changes };
  }));
}

/** Orders keep the values they hold under the key; they are neither checked nor filterable any more. */
export async function deleteCustomField(input: { field: string }, ctx: HandlerContext) {
  const row = await findField(ctx.host.db, input.field);
  await changingDefinitions(() => ctx.host.db.destroy('CustomField', { where: { id: row.id } }));
  return { deleted: true as const, id: row.id, field_key: row.field_key };
}
