/**
 * Checks a module's `data.models` beyond what the manifest schema can say (index fields exist,
 * defaults fit their column, options fit the type, names are free) and normalises them once per
 * models object. Every problem is reported at once, each under its JSON pointer.
 */
import { createHash } from 'node:crypto';
import { dataErrors } from './db-errors';
import type { Column, Model } from '../../../sdk/manifest/manifest.types';
import { checkAlias, RESERVED_TABLES } from './names';
import type { CompiledColumn, CompiledIndex, CompiledModel, CompiledModels, ManifestModels } from './types';
import { toDbValue, ValueError } from './values';

const MAX_IDENT = 63;
const cache = new WeakMap<object, Map<string, CompiledModels>>();
const EMPTY: ManifestModels = Object.freeze({}) as ManifestModels;

/** An index name within PostgreSQL's 63 bytes, stable for the same table and fields. */
export function indexName(table: string, fields: string[], unique: boolean): string {
  const name = `${table}_${fields.join('_')}_${unique ? 'key' : 'idx'}`;
  if (name.length <= MAX_IDENT) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENT - 9)}_${hash}`;
}

function isFn(value: unknown): value is { $fn: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, '$fn');
}

function compileColumn(name: string, c: Column, at: string, problems: string[]): CompiledColumn {
  const primaryKey = c.primaryKey === true;
  if (name === '__proto__') problems.push(`${at}: "__proto__" cannot name a column`);
  if (primaryKey && c.nullable === true) problems.push(`${at}/nullable: a primary key column cannot be nullable`);
  if (c.length !== undefined && c.type !== 'string') problems.push(`${at}/length: only string columns take a length`);
  if ((c.precision !== undefined || c.scale !== undefined) && c.type !== 'decimal') problems.push(`${at}: only decimal columns take precision and scale`);
  if (c.scale !== undefined && c.precision === undefined) problems.push(`${at}/scale: scale needs precision`);
  if (c.scale !== undefined && c.precision !== undefined && c.scale > c.precision) problems.push(`${at}/scale: scale ${c.scale} exceeds precision ${c.precision}`);
  if (c.autoIncrement && c.type !== 'integer' && c.type !== 'bigint') problems.push(`${at}/autoIncrement: only integer and bigint columns auto-increment`);
  if (c.autoIncrement && c.default !== undefined) problems.push(`${at}/default: an autoIncrement column cannot have a default`);
  const col: CompiledColumn = {
    name,
    type: c.type,
    nullable: c.nullable ?? !primaryKey,
    primaryKey,
    autoIncrement: c.autoIncrement === true,
    unique: c.unique === true,
    length: c.length,
    precision: c.precision,
    scale: c.scale,
    hasDefault: c.default !== undefined,
    default: c.default,
  };
  if (c.default === undefined) return col;
  if (isFn(c.default)) {
    const fn = c.default.$fn;
    const fits = (fn === 'now' && (c.type === 'date' || c.type === 'datetime')) || (fn === 'uuid' && c.type === 'uuid');
    if (!fits) problems.push(`${at}/default: {"$fn": ${JSON.stringify(fn)}} does not fit a ${c.type} column (use "now" for date/datetime, "uuid" for uuid)`);
    return col;
  }
  try {
    toDbValue({ ...col, nullable: true }, c.default);
  } catch (err) {
    if (!(err instanceof ValueError)) throw err;
    problems.push(`${at}/default: ${err.message}`);
  }
  return col;
}

function compileModel(name: string, m: Model, problems: string[]): CompiledModel {
  const at = `/data/models/${name}`;
  const table = m.table ?? name;
  if (RESERVED_TABLES.has(table)) problems.push(`${at}/table: "${table}" is reserved for the host`);
  const columns = new Map<string, CompiledColumn>();
  for (const [colName, c] of Object.entries(m.columns ?? {})) columns.set(colName, compileColumn(colName, c, `${at}/columns/${colName}`, problems));
  if (columns.size === 0) problems.push(`${at}/columns: a model needs at least one column`);
  const indexes: CompiledIndex[] = (m.indexes ?? []).map((ix, i) => {
    for (const f of ix.fields) if (!columns.has(f)) problems.push(`${at}/indexes/${i}/fields: "${f}" is not a column of ${name}`);
    const unique = ix.unique === true;
    return { name: ix.name ?? indexName(table, ix.fields, unique), fields: [...ix.fields], unique };
  });
  const primaryKey = [...columns.values()].filter((c) => c.primaryKey).map((c) => c.name);
  return { name, table, columns, primaryKey, indexes };
}

/** Throws DB_INVALID_MODEL listing every problem; the result is cached per models object. */
export function compileModels(alias: string, models: ManifestModels | undefined): CompiledModels {
  checkAlias(alias);
  const source = models ?? EMPTY;
  const byAlias = cache.get(source);
  const hit = byAlias?.get(alias);
  if (hit) return hit;

  const problems: string[] = [];
  const compiled = new Map<string, CompiledModel>();
  const relations = new Map<string, string>();
  for (const [name, m] of Object.entries(source)) {
    const model = compileModel(name, m, problems);
    compiled.set(name, model);
    // Tables and indexes share one namespace per schema in PostgreSQL.
    for (const [rel, what] of [[model.table, 'table'], ...model.indexes.map((ix) => [ix.name, 'index'])] as const) {
      const owner = relations.get(rel);
      if (owner) problems.push(`/data/models/${name}: ${what} name "${rel}" is already used by ${owner}`);
      else relations.set(rel, `${what} of model ${name}`);
    }
  }
  if (problems.length) {
    throw dataErrors.invalidModels(alias, problems);
  }
  const fingerprint = createHash('sha256').update(JSON.stringify(source)).digest('hex').slice(0, 16);
  const result: CompiledModels = { alias, fingerprint, models: compiled };
  (byAlias ?? cache.set(source, new Map()).get(source)!).set(alias, result);
  return result;
}
