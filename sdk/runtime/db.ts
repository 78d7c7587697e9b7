/**
 * Types of host.db: the module's only way to its data, scoped by the host to the module's own schema
 * in the current tenant's database. Queries are plain JSON (operators are "$" keys, never Symbols)
 * because they are copied across the sandbox boundary.
 */

import type { Column } from '../manifest/manifest.types';

/** A row as stored: column name → JSON value (decimal and bigint columns come back as strings). */
export type Row = object;

/** A column's value as host.db returns it: decimals, bigints, dates, datetimes and uuids as strings. */
type ColumnValue<C extends Column> = C['type'] extends 'integer' ? number : C['type'] extends 'boolean' ? boolean : C['type'] extends 'json' ? unknown : string;

/** null unless the column is a primary key or `nullable: false` (unknown, a json column's value, holds null already). */
type NullOf<C extends Column> = C extends { primaryKey: true } ? never : C extends { nullable: false } ? never : null;

/**
 * The type of a row of a model, from its declaration (SDK guide, section 4), so a column is written
 * once: `type WidgetRow = RowOf<typeof data.models.Widget, { handler_type: HandlerType }>`. `Shapes`
 * narrow columns the declaration cannot (a json column's structure, a string column's values);
 * nullability still comes from the column, as rowSchema does for outputs (./row-schema.ts).
 * The model must keep its literal types: declare `data` with `satisfies Data`, not `: Data`.
 */
export type RowOf<M extends { columns: Record<string, Column> }, Shapes extends { [K in keyof M['columns']]?: unknown } = Record<never, never>> = {
  -readonly [K in keyof M['columns']]: (K extends keyof Shapes ? Shapes[K] : ColumnValue<M['columns'][K]>) | NullOf<M['columns'][K]>;
};

/** Comparison operators for one column, Sequelize's Op.* spelled as JSON keys. */
export interface FieldOperators<T> {
  $eq?: T | null;
  $ne?: T | null;
  $gt?: T;
  $gte?: T;
  $lt?: T;
  $lte?: T;
  $in?: readonly T[];
  $notIn?: readonly T[];
  /** SQL LIKE pattern: % any run, _ one character. */
  $like?: string;
  /** Case-insensitive LIKE. */
  $iLike?: string;
  /** Inclusive range [from, to]. */
  $between?: readonly [T, T];
  /** IS NULL / IS TRUE / IS FALSE. */
  $is?: null | boolean;
  /** IS NOT: null, true or false. */
  $not?: null | boolean;
  /** json columns only: the stored JSON contains this object or array (PostgreSQL `@>`). */
  $contains?: T extends object ? object : never;
}

/** A column condition: a value (equality; null means IS NULL) or operators. */
export type FieldCondition<T> = T | null | FieldOperators<T>;

/** Conditions on columns, all of which must hold, plus $or / $and / $not groups. */
export type Where<R extends Row = Row> = { [K in keyof R]?: FieldCondition<R[K]> } & {
  $or?: readonly Where<R>[];
  $and?: readonly Where<R>[];
};

export type ColumnName<R extends Row> = Extract<keyof R, string>;

export interface FindQuery<R extends Row = Row> {
  where?: Where<R>;
  order?: readonly (readonly [ColumnName<R>, 'ASC' | 'DESC'])[];
  limit?: number;
  offset?: number;
  /** Columns to return; all when absent. */
  attributes?: readonly ColumnName<R>[];
}

/** Queries that only select rows (update, destroy, count). */
export interface WhereQuery<R extends Row = Row> {
  where?: Where<R>;
}

export interface BulkOptions<R extends Row = Row> {
  upsert?: { conflictFields: ColumnName<R>[]; updateFields?: ColumnName<R>[] };
}

/**
 * Data access of the current tenant, within the module's schema. `model` is a name from the
 * manifest's data.models. Every call is async and its result a copy.
 */
export interface Db {
  find<R extends Row = Row>(model: string, query?: FindQuery<R>): Promise<R[]>;
  findOne<R extends Row = Row>(model: string, query?: FindQuery<R>): Promise<R | null>;
  count<R extends Row = Row>(model: string, query?: WhereQuery<R>): Promise<number>;
  /** Inserts one row and returns it as stored (generated keys and defaults filled in). */
  create<R extends Row = Row>(model: string, values: Partial<R>): Promise<R>;
  /**
   * Inserts up to 1000 rows in one statement and returns them as stored, in order. With `upsert`, a
   * row whose conflictFields (the primary key or a unique column set) match an existing row updates
   * that row's updateFields instead (default: every given column but the conflict fields).
   * `returning: [columns]` returns only those columns; `returning: false` only the row count.
   */
  bulkCreate<R extends Row = Row>(model: string, rows: readonly Partial<R>[], options?: BulkOptions<R> & { returning?: true | ColumnName<R>[] }): Promise<R[]>;
  bulkCreate<R extends Row = Row>(model: string, rows: readonly Partial<R>[], options: BulkOptions<R> & { returning: false }): Promise<number>;
  /** Updates the rows matching `query.where`; resolves to the number of rows changed. */
  update<R extends Row = Row>(model: string, values: Partial<R>, query: WhereQuery<R>): Promise<number>;
  /**
   * Inserts, or updates the row that conflicts on `conflictFields` (default: the primary key);
   * resolves to the row as stored.
   */
  upsert<R extends Row = Row>(model: string, values: Partial<R>, options?: { conflictFields?: ColumnName<R>[] }): Promise<R>;
  /** Deletes the rows matching `query.where`; resolves to the number of rows deleted. */
  destroy<R extends Row = Row>(model: string, query: WhereQuery<R>): Promise<number>;
  /**
   * Runs `work` in one database transaction: committed when it resolves, rolled back when it throws.
   * Use the `tx` it receives for every call that belongs to the transaction.
   */
  transaction<T>(work: (tx: DbTransaction) => Promise<T>): Promise<T>;
  /** Next value of a named, gap-free counter of this module and tenant (e.g. invoice numbers). */
  sequence(name: string): Promise<number>;
}

/** host.db inside a transaction; transactions do not nest. */
export type DbTransaction = Omit<Db, 'transaction'>;
