/**
 * host.db reads outside an explicit transaction (find, findOne, count) in one round trip.
 *
 * The scope switch (SET LOCAL ROLE, search_path, statement_timeout) and the SELECT travel as one
 * simple-protocol query string. PostgreSQL runs such a string as one implicit transaction: the
 * SET LOCALs hold for the SELECT after them and end with it, an error anywhere rolls the whole
 * string back, and the pooled connection keeps nothing. Through a Sequelize transaction the same
 * read took four round trips (BEGIN, the switch, the SELECT, COMMIT).
 *
 * The SELECT is the one Sequelize's finders would send (its query generator, the same options, the
 * values escaped inline as Sequelize does for finders), and the rows come back through the pool's
 * own connection with its type parsers, so results equal the transactional path's.
 */
import type { QueryResult } from 'pg';
import type { Model, ModelStatic, Sequelize } from 'sequelize';
import { withPooledClient } from '../data/pooled-client';
import { dataErrors } from './db-errors';
import { modelOf, type OperationContext } from './data-operations';
import { translateQuery, type TranslatedQuery } from './query-translator';
import { sequelizeModels } from './sequelize-models';
import type { CompiledModel } from './types';
import { rowToJson } from './values';

export interface LoneRead {
  kind: 'find' | 'findOne' | 'count';
  model: CompiledModel;
  query: TranslatedQuery;
}

interface QueryGenerator {
  selectQuery(table: unknown, options: Record<string, unknown>, model: ModelStatic<Model>): string;
}

/** The read a host.db call asks for, checked as the finders check it; undefined for other methods. */
export function prepareLoneRead(ctx: OperationContext, method: string, args: unknown[]): LoneRead | undefined {
  if (method !== 'find' && method !== 'findOne' && method !== 'count') return undefined;
  const model = modelOf(ctx, args[0]);
  return { kind: method, model, query: translateQuery(model, args[1], method, ctx.limits) };
}

function selectSql(db: Sequelize, ctx: OperationContext, read: LoneRead): string {
  const model = sequelizeModels(db, ctx.compiled).get(read.model.name)!;
  const generator = db.getQueryInterface().queryGenerator as QueryGenerator;
  const { where, order, limit, offset, attributes } = read.query;
  const options: Record<string, unknown> =
    read.kind === 'count'
      ? { where, attributes: [[db.fn('count', db.col('*')), 'count']] }
      : { where, order, offset, limit: read.kind === 'findOne' ? 1 : limit, attributes: attributes ?? Object.keys(model.getAttributes()) };
  return generator.selectQuery(model.getTableName(), { ...options, raw: true, model }, model);
}

/**
 * Runs `sql` (one statement) under `scopeSql` (the SET LOCAL statements, `;`-separated) on one
 * pooled connection of `db`, as one query string; the statement's result.
 */
export async function queryScoped(db: Sequelize, scopeSql: string, sql: string, alias: string): Promise<QueryResult> {
  // A multi-statement string answers one result per statement.
  const results: QueryResult | QueryResult[] = await withPooledClient(db, (client) => client.query(`${scopeSql}; ${sql}`)).catch((err: unknown) => {
    // The role is made by install: a module whose data was never installed has none yet.
    if ((err as { code?: string }).code === '22023' && /^role .* does not exist/.test((err as Error).message)) {
      throw dataErrors.notInstalled(alias);
    }
    throw err;
  });
  return Array.isArray(results) ? results[results.length - 1] : results;
}

/** Runs `read` under `scopeSql` in one round trip. */
export async function runLoneRead(db: Sequelize, ctx: OperationContext, scopeSql: string, read: LoneRead, alias: string): Promise<unknown> {
  const rows = (await queryScoped(db, scopeSql, selectSql(db, ctx, read), alias)).rows as Record<string, unknown>[];
  if (read.kind === 'count') return parseInt(String(rows[0].count), 10);
  if (read.kind === 'findOne') return rows.length ? rowToJson(read.model, rows[0], read.query.attributes) : null;
  return rows.map((r) => rowToJson(read.model, r, read.query.attributes));
}
