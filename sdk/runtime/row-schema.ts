/**
 * The output schema of a row of a module's own table, as host.db returns it (SDK guide, docs/guides/04-data.md):
 * decimals and bigints come as strings, dates and datetimes as ISO strings, json columns as any JSON
 * value unless the module gives them a shape; a column is nullable unless the model says otherwise.
 * Operations that return rows describe them from their models with it, so a column added to a model
 * shows in every output that returns its row and no row is described twice.
 */
import type { TObject, TSchema } from '@sinclair/typebox/type';
import type { Column, Model } from '../manifest/manifest.types';
import * as Type from './schema';

const COLUMN_TYPES: Record<Column['type'], () => TSchema> = {
  uuid: () => Type.String(),
  string: () => Type.String(),
  text: () => Type.String(),
  decimal: () => Type.String({ description: 'decimal, as a string' }),
  bigint: () => Type.String({ description: 'bigint, as a string' }),
  integer: () => Type.Integer(),
  boolean: () => Type.Boolean(),
  date: () => Type.String({ description: 'ISO 8601 date' }),
  datetime: () => Type.String({ description: 'ISO 8601 timestamp' }),
  json: () => Type.Unknown(),
};

/** One column's schema; `shape` replaces the type's (a json column's structure), nullability still applies. */
export function columnSchema(column: Column, shape?: TSchema): TSchema {
  const schema = shape ?? COLUMN_TYPES[column.type]();
  // Any JSON value includes null already.
  if ((column.type === 'json' && !shape) || column.primaryKey || column.nullable === false) return schema;
  return Type.Nullable(schema);
}

/** A row of `model`, every column present and typed; `shapes` give json columns their structure, `extra` adds keys the operation joins in. Extra keys are allowed. */
export function rowSchema(model: Model, shapes: Record<string, TSchema> = {}, extra: Record<string, TSchema> = {}): TObject {
  const props = Object.fromEntries(Object.entries(model.columns).map(([name, column]) => [name, columnSchema(column, shapes[name])]));
  return Type.Object({ ...props, ...extra });
}
