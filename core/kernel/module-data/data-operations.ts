/**
 * The host.db methods. Each checks its arguments first (a refused query touches no connection and
 * leaves an open transaction usable) and returns the statement to run on a transaction handle.
 */
import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { invalidQuery } from './db-errors';
import { ident, qualified, SEQUENCES_TABLE } from './names';
import { columnOf, isPlainObject, translateQuery, type QueryLimits } from './query-translator';
import { sequelizeModels } from './sequelize-models';
import type { TxHandle } from './transactions';
import type { CompiledModel, CompiledModels } from './types';
import { rowToJson, toDbValue, ValueError } from './values';

export interface OperationContext {
  compiled: CompiledModels;
  limits: QueryLimits & { maxBulkRows: number };
}

export type Statement = (h: TxHandle) => Promise<unknown>;
type Operation = (ctx: OperationContext, args: unknown[]) => Statement;

const SEQUENCE_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;
const OPTIONS = { hooks: false, validate: false } as const;

export function modelOf(ctx: OperationContext, name: unknown): CompiledModel {
  const model = typeof name === 'string' ? ctx.compiled.models.get(name) : undefined;
  if (!model) {
    const declared = [...ctx.compiled.models.keys()];
    throw invalidQuery(
      `Unknown model ${JSON.stringify(name) ?? String(name)} for module "${ctx.compiled.alias}"; ${declared.length ? `its models are ${declared.join(', ')}` : 'it declares no models'}.`,
      { model: name },
    );
  }
  return model;
}

const sequelizeModel = (ctx: OperationContext, h: TxHandle, model: CompiledModel): ModelStatic<Model> => sequelizeModels(h.db, ctx.compiled).get(model.name)!;

/** Column values checked against the model; unknown columns and bad values are refused. */
export function rowIn(model: CompiledModel, values: unknown, what: string, allowEmpty: boolean): Record<string, unknown> {
  if (!isPlainObject(values)) throw invalidQuery(`${what} needs an object of column values.`, { model: model.name });
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const col = columnOf(model, key, what);
    try {
      out[key] = toDbValue(col, value);
    } catch (err) {
      if (err instanceof ValueError) throw invalidQuery(`${what}: ${err.message}.`, { model: model.name, column: key });
      throw err;
    }
  }
  if (!allowEmpty && !Object.keys(out).length) throw invalidQuery(`${what} needs at least one column value.`, { model: model.name });
  return out;
}

const plain = (instance: Model) => instance.get({ plain: true }) as Record<string, unknown>;

const find: Operation = (ctx, [name, query]) => {
  const model = modelOf(ctx, name);
  const q = translateQuery(model, query, 'find', ctx.limits);
  return async (h) => {
    const rows = await sequelizeModel(ctx, h, model).findAll({ ...q, raw: true, transaction: h.transaction });
    return rows.map((r) => rowToJson(model, r as unknown as Record<string, unknown>, q.attributes));
  };
};

const findOne: Operation = (ctx, [name, query]) => {
  const model = modelOf(ctx, name);
  const q = translateQuery(model, query, 'findOne', ctx.limits);
  return async (h) => {
    const row = await sequelizeModel(ctx, h, model).findOne({ ...q, raw: true, transaction: h.transaction });
    return row ? rowToJson(model, row as unknown as Record<string, unknown>, q.attributes) : null;
  };
};

const count: Operation = (ctx, [name, query]) => {
  const model = modelOf(ctx, name);
  const q = translateQuery(model, query, 'count', ctx.limits);
  return (h) => sequelizeModel(ctx, h, model).count({ where: q.where, transaction: h.transaction });
};

const create: Operation = (ctx, [name, values]) => {
  const model = modelOf(ctx, name);
  const row = rowIn(model, values, 'create', true);
  return async (h) => rowToJson(model, plain(await sequelizeModel(ctx, h, model).create(row, { ...OPTIONS, returning: true, transaction: h.transaction })));
};

/** A checked bulkCreate: its rows, options, and the column list when every row names the same columns. */
export interface BulkInsert {
  model: CompiledModel;
  rows: Record<string, unknown>[];
  upsert: Upsert | undefined;
  returning: Returning;
  /** The columns every row names, in order; undefined for mixed column sets (or no rows, or empty rows). */
  keys: string[] | undefined;
}

export function prepareBulkInsert(ctx: OperationContext, [name, rows, options]: unknown[]): BulkInsert {
  const model = modelOf(ctx, name);
  if (!Array.isArray(rows)) throw invalidQuery('bulkCreate needs an array of rows.', { model: model.name });
  if (rows.length > ctx.limits.maxBulkRows) throw invalidQuery(`bulkCreate takes at most ${ctx.limits.maxBulkRows} rows, got ${rows.length}.`, { model: model.name });
  const checked = rows.map((r, i) => rowIn(model, r, `bulkCreate row ${i}`, true));
  const { upsert, returning } = bulkOptions(model, options, checked);
  const first = checked.length ? Object.keys(checked[0]!) : [];
  const keys = first.length && checked.every((r) => sameKeys(r, first)) ? first : undefined;
  return { model, rows: checked, upsert, returning, keys };
}

const bulkCreate: Operation = (ctx, args) => {
  const bulk = prepareBulkInsert(ctx, args);
  const { model, rows, upsert, returning } = bulk;
  return async (h) => {
    if (!rows.length) return returning ? [] : 0;
    if (bulk.keys) {
      const sql = jsonInsertSql(ctx, bulk, bulk.keys, '$1');
      return bulkInserted(bulk, await h.db.query<Record<string, unknown>>(sql, { bind: [JSON.stringify(rows)], type: QueryTypes.SELECT, transaction: h.transaction }));
    }
    const made = await sequelizeModel(ctx, h, model).bulkCreate(rows, {
      ...OPTIONS,
      returning: true,
      transaction: h.transaction,
      ...(upsert ? { updateOnDuplicate: upsert.updateFields, conflictAttributes: upsert.conflictFields } : {}),
    });
    if (!returning) return made.length;
    return made.map((m) => (returning === true ? rowToJson(model, plain(m)) : rowToJson(model, plain(m), returning)));
  };
};

const sameKeys = (row: Record<string, unknown>, keys: string[]) => {
  const own = Object.keys(row);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(row, k));
};

/**
 * The fast path of bulkCreate when every row names the same columns (what bulk imports send): one
 * statement whose rows arrive as a single JSON value (`rowsJson`: a bind parameter, or an escaped
 * literal on the one-string path, ./lone-write.ts), typed by the table's own row type
 * (json_populate_recordset), instead of building an ORM instance and an escaped literal per value.
 * Rows come back in input order, as with the ORM path. Mixed column sets keep the ORM path, which
 * fills each row's missing columns with their defaults.
 */
export function jsonInsertSql(ctx: OperationContext, bulk: BulkInsert, keys: string[], rowsJson: string): string {
  const { upsert, returning } = bulk;
  const table = qualified(ctx.compiled.alias, bulk.model.table);
  const cols = keys.map(ident).join(', ');
  const conflict = upsert
    ? ` ON CONFLICT (${upsert.conflictFields.map(ident).join(', ')}) DO UPDATE SET ${upsert.updateFields.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`
    : '';
  const back = returning === true ? '*' : returning ? returning.map(ident).join(', ') : '1 AS one';
  return `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${table}, ${rowsJson}::json)${conflict} RETURNING ${back}`;
}

/** What bulkCreate answers for the rows jsonInsertSql returned. */
export function bulkInserted({ model, returning }: BulkInsert, stored: Record<string, unknown>[]): unknown {
  if (!returning) return stored.length;
  return stored.map((r) => (returning === true ? rowToJson(model, r) : rowToJson(model, r, returning)));
}

type Upsert = { conflictFields: string[]; updateFields: string[] };
/** true: whole rows; a column list: only those; false: just the number of rows. */
type Returning = boolean | string[];

/**
 * bulkCreate's third argument. `upsert: { conflictFields, updateFields? }` makes it one multi-row
 * INSERT … ON CONFLICT (conflictFields) DO UPDATE SET updateFields = EXCLUDED.… (default: every
 * given column outside the conflict set). `returning: false` answers the number of rows instead of
 * the rows, `returning: [columns]` only those columns: a bulk import should not carry every row it
 * wrote back into the sandbox.
 */
function bulkOptions(model: CompiledModel, options: unknown, rows: Record<string, unknown>[]): { upsert?: Upsert; returning: Returning } {
  if (options === undefined || options === null) return { returning: true };
  const shape = 'bulkCreate options must be { upsert?: { conflictFields: [...], updateFields?: [...] }, returning?: false | [columns] }.';
  if (!isPlainObject(options) || Object.keys(options).some((k) => k !== 'upsert' && k !== 'returning')) throw invalidQuery(shape, { model: model.name });
  let returning: Returning = true;
  if (options.returning === false) returning = false;
  else if (Array.isArray(options.returning) && options.returning.length) returning = options.returning.map((c) => columnOf(model, c as string, 'returning').name);
  else if (options.returning !== undefined && options.returning !== true) throw invalidQuery(shape, { model: model.name });
  if (options.upsert === undefined) return { returning };
  if (!isPlainObject(options.upsert)) throw invalidQuery(shape, { model: model.name });
  return { upsert: upsertOptions(model, options.upsert, rows), returning };
}

function upsertOptions(model: CompiledModel, spec: Record<string, unknown>, rows: Record<string, unknown>[]): Upsert {
  for (const key of Object.keys(spec)) if (key !== 'conflictFields' && key !== 'updateFields') throw invalidQuery(`Unknown upsert option "${key}"; allowed: conflictFields, updateFields.`, { model: model.name });
  if (!Array.isArray(spec.conflictFields) || !spec.conflictFields.length) throw invalidQuery('upsert.conflictFields must be a non-empty array of column names.', { model: model.name });
  // Two rows with the same key would make PostgreSQL refuse the statement ("cannot affect row a
  // second time"); they are refused below with a clearer message.
  const conflictFields = spec.conflictFields.map((f) => columnOf(model, f as string, 'conflictFields').name);
  const sameSet = (fields: readonly string[]) => fields.length === conflictFields.length && fields.every((f) => conflictFields.includes(f));
  const unique = sameSet(model.primaryKey) || model.indexes.some((i) => i.unique && sameSet(i.fields)) || (conflictFields.length === 1 && model.columns.get(conflictFields[0])!.unique);
  if (!unique) throw invalidQuery(`upsert.conflictFields (${conflictFields.join(', ')}) must be the primary key or a unique column set of ${model.name}.`, { model: model.name });
  let updateFields: string[];
  if (spec.updateFields === undefined) {
    updateFields = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((c) => !conflictFields.includes(c));
  } else {
    if (!Array.isArray(spec.updateFields) || !spec.updateFields.length) throw invalidQuery('upsert.updateFields must be a non-empty array of column names.', { model: model.name });
    updateFields = spec.updateFields.map((f) => columnOf(model, f as string, 'updateFields').name);
  }
  if (!updateFields.length) throw invalidQuery('upsert needs at least one column to update besides the conflict fields.', { model: model.name });
  const seen = new Map<string, number>();
  rows.forEach((r, i) => {
    const missing = conflictFields.filter((f) => r[f] === undefined || r[f] === null);
    if (missing.length) throw invalidQuery(`bulkCreate row ${i}: upsert rows must include ${missing.join(', ')}.`, { model: model.name, row: i });
    const key = JSON.stringify(conflictFields.map((f) => r[f]));
    const first = seen.get(key);
    if (first !== undefined) throw invalidQuery(`bulkCreate rows ${first} and ${i} have the same ${conflictFields.join(', ')}; one statement can upsert a row only once.`, { model: model.name, rows: [first, i] });
    seen.set(key, i);
  });
  return { conflictFields, updateFields };
}

const update: Operation = (ctx, [name, values, query]) => {
  const model = modelOf(ctx, name);
  const row = rowIn(model, values, 'update', false);
  const q = translateQuery(model, query, 'update', ctx.limits);
  return async (h) => {
    const [changed] = await sequelizeModel(ctx, h, model).update(row, { ...OPTIONS, where: q.where ?? {}, transaction: h.transaction });
    return changed;
  };
};

const upsert: Operation = (ctx, [name, values, options]) => {
  const model = modelOf(ctx, name);
  const row = rowIn(model, values, 'upsert', false);
  if (options !== undefined && options !== null && !isPlainObject(options)) throw invalidQuery('upsert options must be an object such as { conflictFields: ["code"] }.', { model: model.name });
  const opts = (options ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(opts)) if (key !== 'conflictFields') throw invalidQuery(`Unknown upsert option "${key}"; allowed: conflictFields.`, { model: model.name });
  let conflictFields: string[] | undefined;
  if (opts.conflictFields !== undefined) {
    if (!Array.isArray(opts.conflictFields) || !opts.conflictFields.length) throw invalidQuery('conflictFields must be a non-empty array of column names.', { model: model.name });
    conflictFields = opts.conflictFields.map((f) => columnOf(model, f as string, 'conflictFields').name);
  } else if (!model.primaryKey.length) {
    throw invalidQuery(`Model ${model.name} has no primary key: upsert needs conflictFields naming a unique column set.`, { model: model.name });
  }
  const keys = conflictFields ?? model.primaryKey;
  const missing = keys.filter((k) => !Object.hasOwn(row, k));
  if (missing.length) throw invalidQuery(`upsert values must include ${missing.join(', ')} to find the row to update.`, { model: model.name, missing });
  return async (h) => {
    const [instance] = await sequelizeModel(ctx, h, model).upsert(row, { ...OPTIONS, returning: true, conflictFields, transaction: h.transaction });
    return rowToJson(model, plain(instance));
  };
};

const destroy: Operation = (ctx, [name, query]) => {
  const model = modelOf(ctx, name);
  const q = translateQuery(model, query, 'destroy', ctx.limits);
  return (h) => sequelizeModel(ctx, h, model).destroy({ where: q.where ?? {}, hooks: false, transaction: h.transaction });
};

/**
 * Named counters for gap-free numbering (invoice numbers). The row lock taken by the increment is
 * held until the transaction ends, so concurrent callers queue instead of sharing a number, and a
 * rolled-back transaction gives its number back.
 */
const sequence: Operation = (ctx, [name]) => {
  if (typeof name !== 'string' || !SEQUENCE_NAME.test(name)) throw invalidQuery('sequence needs a name of 1 to 100 letters, digits or _ . : -', { name });
  const table = qualified(ctx.compiled.alias, SEQUENCES_TABLE);
  const sql = `INSERT INTO ${table} AS s (name, value) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET value = s.value + 1 RETURNING value`;
  return async (h) => {
    const [row] = await h.db.query<{ value: string }>(sql, { bind: [name], type: QueryTypes.SELECT, transaction: h.transaction });
    const value = Number(row.value);
    if (!Number.isSafeInteger(value)) throw invalidQuery(`Sequence "${name}" passed 2^53 - 1 and cannot count further.`, { name });
    return value;
  };
};

export const OPERATIONS: Readonly<Record<string, Operation>> = { find, findOne, count, create, bulkCreate, update, upsert, destroy, sequence };

/** Most positional arguments each method takes, to refuse calls that would silently drop some. */
export const ARITY: Readonly<Record<string, number>> = { find: 2, findOne: 2, count: 2, create: 2, bulkCreate: 3, update: 3, upsert: 3, destroy: 2, sequence: 1 };
