/**
 * Turns a JSON query from a module into Sequelize options, refusing anything it does not know.
 * Shape: { where, order: [[field, 'ASC'|'DESC']], limit, offset, attributes }. `where` maps
 * columns to a value (equality; null means IS NULL; an array means $in) or to operators
 * $eq $ne $gt $gte $lt $lte $in $notIn $like $iLike $between $is $not $or $and ($contains on json
 * columns: JSONB containment, `@>`), and combines
 * with $or / $and (arrays of where) and $not (a where). Only the model's own columns are accepted,
 * so every name reaching SQL is one the manifest declared.
 */
import { Op, type Order, type WhereOptions } from 'sequelize';
import { invalidQuery } from './db-errors';
import type { CompiledColumn, CompiledModel } from './types';
import { toDbValue, ValueError } from './values';

export interface QueryLimits {
  maxLimit: number;
  defaultLimit: number;
  maxInList: number;
}

export interface TranslatedQuery {
  where?: WhereOptions;
  order?: Order;
  limit?: number;
  offset?: number;
  attributes?: string[];
}

export type QueryKind = 'find' | 'findOne' | 'count' | 'update' | 'destroy';

const ALLOWED_KEYS: Record<QueryKind, readonly string[]> = {
  find: ['where', 'order', 'limit', 'offset', 'attributes'],
  findOne: ['where', 'order', 'offset', 'attributes'],
  count: ['where'],
  update: ['where'],
  destroy: ['where'],
};

const MAX_DEPTH = 8;
const MAX_CONDITIONS = 200;
const MAX_ORDER = 8;
/** Longest $contains operand, as JSON text: a filter, not a document. */
const MAX_CONTAINS_CHARS = 10_000;

const COMPARE = { $eq: Op.eq, $ne: Op.ne, $gt: Op.gt, $gte: Op.gte, $lt: Op.lt, $lte: Op.lte } as const;
const OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$notIn', '$like', '$iLike', '$between', '$is', '$not', '$or', '$and', '$contains'];
const ORDERED_TYPES = new Set(['string', 'text', 'integer', 'bigint', 'decimal', 'date', 'datetime', 'uuid']);

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);

const show = (v: unknown) => JSON.stringify(v) ?? String(v);

export function columnOf(model: CompiledModel, name: string, where: string): CompiledColumn {
  const col = typeof name === 'string' ? model.columns.get(name) : undefined;
  if (!col) {
    throw invalidQuery(`Unknown column "${String(name)}" in ${where} of model ${model.name}; its columns are ${[...model.columns.keys()].join(', ')}.`, {
      model: model.name,
      column: name,
    });
  }
  return col;
}

class WhereTranslator {
  private conditions = 0;

  constructor(private readonly model: CompiledModel, private readonly limits: QueryLimits) {}

  where(input: unknown, depth: number): WhereOptions {
    if (!isPlainObject(input)) throw invalidQuery(`where must be an object of column conditions, got ${show(input)}.`, { model: this.model.name });
    if (depth > MAX_DEPTH) throw invalidQuery(`where is nested deeper than ${MAX_DEPTH} levels.`, { model: this.model.name });
    const out: Record<string | symbol, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      if (key === '$or' || key === '$and') out[key === '$or' ? Op.or : Op.and] = this.list(key, value, (w) => this.where(w, depth + 1));
      else if (key === '$not') out[Op.not] = this.where(value, depth + 1);
      else if (key.startsWith('$')) throw this.unknownOperator(key, 'where');
      else out[key] = this.condition(columnOf(this.model, key, 'where'), value, depth + 1);
    }
    return out as WhereOptions;
  }

  private list<T>(op: string, value: unknown, each: (v: unknown) => T): T[] {
    if (!Array.isArray(value) || value.length === 0) throw invalidQuery(`${op} needs a non-empty array.`, { model: this.model.name, operator: op });
    return value.map(each);
  }

  private unknownOperator(op: string, at: string) {
    return invalidQuery(`Unknown operator "${op}" in ${at}; use one of ${OPERATORS.join(' ')}.`, { model: this.model.name, operator: op });
  }

  private jsonOnlyNull(col: CompiledColumn) {
    return invalidQuery(`json column "${col.name}" can only be compared with null ($is / $not) or matched with $contains.`, { model: this.model.name, column: col.name });
  }

  /** `listed`: one value of an $in-style list, which counts once as a whole (bounded by maxInList). */
  private value(col: CompiledColumn, v: unknown, op: string, listed = false): unknown {
    if (!listed && ++this.conditions > MAX_CONDITIONS) throw invalidQuery(`where has more than ${MAX_CONDITIONS} conditions.`, { model: this.model.name });
    if (col.type === 'json') throw this.jsonOnlyNull(col);
    if (v === null) throw invalidQuery(`${op} on "${col.name}" cannot take null; use $is: null or $not: null.`, { model: this.model.name, column: col.name });
    try {
      return toDbValue({ ...col, nullable: true, length: Number.MAX_SAFE_INTEGER }, v); // a filter value may be any length
    } catch (err) {
      if (err instanceof ValueError) throw invalidQuery(`${op}: ${err.message}.`, { model: this.model.name, column: col.name });
      throw err;
    }
  }

  /** `column @> operand`: the stored JSON holds every key and value (or array element) given. */
  private containment(col: CompiledColumn, v: unknown): unknown {
    if (++this.conditions > MAX_CONDITIONS) throw invalidQuery(`where has more than ${MAX_CONDITIONS} conditions.`, { model: this.model.name });
    if (col.type !== 'json') throw invalidQuery(`$contains applies to json columns only, not "${col.name}" (${col.type}).`, { model: this.model.name, column: col.name });
    if (!isPlainObject(v) && !Array.isArray(v)) throw invalidQuery(`$contains on "${col.name}" needs a JSON object or array.`, { model: this.model.name, column: col.name });
    if (JSON.stringify(v).length > MAX_CONTAINS_CHARS) throw invalidQuery(`$contains on "${col.name}" is longer than ${MAX_CONTAINS_CHARS} characters of JSON.`, { model: this.model.name, column: col.name });
    return v;
  }

  private values(col: CompiledColumn, v: unknown, op: string): unknown[] {
    if (!Array.isArray(v)) throw invalidQuery(`${op} on "${col.name}" needs an array.`, { model: this.model.name, column: col.name });
    if (v.length > this.limits.maxInList) throw invalidQuery(`${op} on "${col.name}" lists more than ${this.limits.maxInList} values.`, { model: this.model.name, column: col.name });
    if (++this.conditions > MAX_CONDITIONS) throw invalidQuery(`where has more than ${MAX_CONDITIONS} conditions.`, { model: this.model.name });
    return v.map((x) => this.value(col, x, op, true));
  }

  private condition(col: CompiledColumn, cond: unknown, depth: number): unknown {
    if (cond === null) return { [Op.is]: null };
    if (Array.isArray(cond)) return { [Op.in]: this.values(col, cond, '$in') };
    if (!isPlainObject(cond)) return { [Op.eq]: this.value(col, cond, 'equality') };
    // Sequelize would read a plain object on a json column as a JSON path query.
    if (col.type === 'json' && Object.keys(cond).some((k) => !k.startsWith('$'))) throw this.jsonOnlyNull(col);
    if (depth > MAX_DEPTH) throw invalidQuery(`where is nested deeper than ${MAX_DEPTH} levels.`, { model: this.model.name });
    const keys = Object.keys(cond);
    if (!keys.length) throw invalidQuery(`The condition on "${col.name}" is an empty object.`, { model: this.model.name, column: col.name });
    const out: Record<symbol, unknown> = {};
    for (const op of keys) {
      const arg = cond[op];
      // Own keys only: `in` would take "constructor" or "toString" from Object.prototype as operators.
      if (Object.hasOwn(COMPARE, op)) {
        const key = op as keyof typeof COMPARE;
        if (arg === null && (key === '$eq' || key === '$ne')) out[key === '$eq' ? Op.is : Op.not] = null;
        else {
          if (key !== '$eq' && key !== '$ne' && !ORDERED_TYPES.has(col.type)) {
            throw invalidQuery(`${op} does not apply to ${col.type} column "${col.name}".`, { model: this.model.name, column: col.name });
          }
          out[COMPARE[key]] = this.value(col, arg, op);
        }
      } else if (op === '$in' || op === '$notIn') {
        out[op === '$in' ? Op.in : Op.notIn] = this.values(col, arg, op);
      } else if (op === '$like' || op === '$iLike') {
        if (col.type !== 'string' && col.type !== 'text') throw invalidQuery(`${op} applies to string and text columns, not "${col.name}" (${col.type}).`, { model: this.model.name, column: col.name });
        out[op === '$like' ? Op.like : Op.iLike] = this.value(col, arg, op);
      } else if (op === '$between') {
        if (!Array.isArray(arg) || arg.length !== 2) throw invalidQuery(`$between on "${col.name}" needs [low, high].`, { model: this.model.name, column: col.name });
        if (!ORDERED_TYPES.has(col.type)) throw invalidQuery(`$between does not apply to ${col.type} column "${col.name}".`, { model: this.model.name, column: col.name });
        out[Op.between] = this.values(col, arg, op);
      } else if (op === '$is' || op === '$not') {
        if (arg !== null && arg !== true && arg !== false) throw invalidQuery(`${op} on "${col.name}" takes null, true or false.`, { model: this.model.name, column: col.name });
        if (arg !== null && col.type !== 'boolean') throw invalidQuery(`${op} ${arg} applies to boolean columns only, not "${col.name}".`, { model: this.model.name, column: col.name });
        out[op === '$is' ? Op.is : Op.not] = arg;
      } else if (op === '$or' || op === '$and') {
        out[op === '$or' ? Op.or : Op.and] = this.list(op, arg, (c) => this.condition(col, c, depth + 1));
      } else if (op === '$contains') {
        out[Op.contains] = this.containment(col, arg);
      } else {
        throw this.unknownOperator(op, `the condition on "${col.name}"`);
      }
    }
    return out;
  }
}

export function translateWhere(model: CompiledModel, where: unknown, limits: QueryLimits): WhereOptions {
  return new WhereTranslator(model, limits).where(where, 0);
}

function nonNegativeInt(v: unknown, name: string, model: CompiledModel): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidQuery(`${name} must be a whole number of 0 or more, got ${show(v)}.`, { model: model.name });
  return v;
}

/** Checks and translates a query for the given method. */
export function translateQuery(model: CompiledModel, query: unknown, kind: QueryKind, limits: QueryLimits): TranslatedQuery {
  if (query === undefined || query === null) {
    if (kind === 'update' || kind === 'destroy') throw invalidQuery(`${kind} needs a query with a where clause; pass { where: {} } to affect every row.`, { model: model.name });
    query = {};
  }
  if (!isPlainObject(query)) throw invalidQuery(`The query must be an object, got ${show(query)}.`, { model: model.name });
  for (const key of Object.keys(query)) {
    if (!ALLOWED_KEYS[kind].includes(key)) throw invalidQuery(`Unknown query option "${key}" for ${kind}; allowed: ${ALLOWED_KEYS[kind].join(', ')}.`, { model: model.name, option: key });
  }
  const out: TranslatedQuery = {};
  if (query.where !== undefined) out.where = translateWhere(model, query.where, limits);
  else if (kind === 'update' || kind === 'destroy') throw invalidQuery(`${kind} needs a where clause; pass { where: {} } to affect every row.`, { model: model.name });

  if (query.attributes !== undefined) {
    if (!Array.isArray(query.attributes) || !query.attributes.length) throw invalidQuery('attributes must be a non-empty array of column names.', { model: model.name });
    out.attributes = [...new Set(query.attributes.map((a) => columnOf(model, a as string, 'attributes').name))];
  }
  if (query.order !== undefined) {
    if (!Array.isArray(query.order) || query.order.length > MAX_ORDER) throw invalidQuery(`order must be an array of at most ${MAX_ORDER} [column, "ASC" | "DESC"] pairs.`, { model: model.name });
    out.order = query.order.map((o) => {
      const [field, dir, ...rest] = Array.isArray(o) ? o : [];
      const direction = typeof dir === 'string' ? dir.toUpperCase() : dir;
      if (!Array.isArray(o) || rest.length || (direction !== 'ASC' && direction !== 'DESC')) {
        throw invalidQuery(`Each order entry must be [column, "ASC" | "DESC"], got ${show(o)}.`, { model: model.name });
      }
      const col = columnOf(model, field as string, 'order');
      if (col.type === 'json') throw invalidQuery(`Cannot order by json column "${col.name}".`, { model: model.name, column: col.name });
      return [col.name, direction];
    }) as Order;
  }
  if (query.offset !== undefined) out.offset = nonNegativeInt(query.offset, 'offset', model);
  if (query.limit !== undefined) {
    const limit = nonNegativeInt(query.limit, 'limit', model);
    if (limit < 1 || limit > limits.maxLimit) throw invalidQuery(`limit must be between 1 and ${limits.maxLimit}, got ${limit}.`, { model: model.name });
    out.limit = limit;
  } else if (kind === 'find') out.limit = limits.defaultLimit;
  // A stable default order keeps limit/offset pages from overlapping.
  if (!out.order && (kind === 'find' || kind === 'findOne') && model.primaryKey.length) out.order = model.primaryKey.map((k) => [k, 'ASC']) as Order;
  return out;
}
