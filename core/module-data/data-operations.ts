/**
 * The host.db methods. Each checks its arguments first (a refused query touches no connection and
 * leaves an open transaction usable) and returns the statement to run on a transaction handle.
 */
import { QueryTypes, type Model, type ModelStatic } from 'sequelize';
import { invalidQuery } from './db-errors';
import { qualified, SEQUENCES_TABLE } from './names';
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

function modelOf(ctx: OperationContext, name: unknown): CompiledModel {
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
function rowIn(model: CompiledModel, values: unknown, what: string, allowEmpty: boolean): Record<string, unknown> {
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

const bulkCreate: Operation = (ctx, [name, rows]) => {
  const model = modelOf(ctx, name);
  if (!Array.isArray(rows)) throw invalidQuery('bulkCreate needs an array of rows.', { model: model.name });
  if (rows.length > ctx.limits.maxBulkRows) throw invalidQuery(`bulkCreate takes at most ${ctx.limits.maxBulkRows} rows, got ${rows.length}.`, { model: model.name });
  const checked = rows.map((r, i) => rowIn(model, r, `bulkCreate row ${i}`, true));
  return async (h) => {
    if (!checked.length) return [];
    const made = await sequelizeModel(ctx, h, model).bulkCreate(checked, { ...OPTIONS, returning: true, transaction: h.transaction });
    return made.map((m) => rowToJson(model, plain(m)));
  };
};

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
  const missing = keys.filter((k) => !(k in row));
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
export const ARITY: Readonly<Record<string, number>> = { find: 2, findOne: 2, count: 2, create: 2, bulkCreate: 2, update: 3, upsert: 3, destroy: 2, sequence: 1 };
