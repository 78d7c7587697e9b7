/**
 * host.db writes outside an explicit transaction (create, bulkCreate, update, destroy) in one round trip, as lone reads
 * are (./lone-read.ts): the scope switch and the INSERT or UPDATE travel as one simple-protocol
 * string, which PostgreSQL runs as one implicit transaction, committed when it ends and rolled back
 * whole on an error. Through a Sequelize transaction of its own the same write took three round trips
 * (START TRANSACTION with the switch, the statement, COMMIT), and a chat message is several writes.
 *
 * The statement is the one Sequelize's create, update and destroy would send (its query generator, the same
 * checked values, escaped inline by the columns' types as its finders do), and created rows come back
 * through rowToJson as on the transactional path. Absent columns take their database defaults. A
 * bulkCreate is the transactional path's JSON insert with its rows as one escaped literal; rows that
 * name different columns keep the transactional path (the ORM fills each row's defaults).
 */
import type { Model, ModelStatic, Sequelize } from 'sequelize';
import { bulkInserted, jsonInsertSql, modelOf, prepareBulkInsert, rowIn, type BulkInsert, type OperationContext } from './data-operations';
import { queryScoped } from './lone-read';
import { translateQuery } from './query-translator';
import { sequelizeModels } from './sequelize-models';
import type { CompiledModel } from './types';
import { rowToJson } from './values';

export type LoneWrite =
  | { kind: 'create'; model: CompiledModel; row: Record<string, unknown> }
  | { kind: 'bulkCreate'; bulk: BulkInsert; keys: string[] }
  | { kind: 'update'; model: CompiledModel; row: Record<string, unknown>; where: unknown }
  | { kind: 'destroy'; model: CompiledModel; where: unknown };

interface QueryGenerator {
  insertQuery(table: unknown, values: Record<string, unknown>, attributes: unknown, options: Record<string, unknown>): { query: string };
  updateQuery(table: unknown, values: Record<string, unknown>, where: unknown, options: Record<string, unknown>, attributes: unknown): { query: string };
  deleteQuery(table: unknown, where: unknown, options: Record<string, unknown>, model: ModelStatic<Model>): string;
}

/** The write a host.db call asks for, checked as create, update and destroy check it; undefined for other methods. */
export function prepareLoneWrite(ctx: OperationContext, method: string, args: unknown[]): LoneWrite | undefined {
  if (method === 'create') {
    const model = modelOf(ctx, args[0]);
    return { kind: 'create', model, row: rowIn(model, args[1], 'create', true) };
  }
  if (method === 'bulkCreate') {
    const bulk = prepareBulkInsert(ctx, args);
    return bulk.keys ? { kind: 'bulkCreate', bulk, keys: bulk.keys } : undefined;
  }
  if (method === 'update') {
    const model = modelOf(ctx, args[0]);
    const row = rowIn(model, args[1], 'update', false);
    return { kind: 'update', model, row, where: translateQuery(model, args[2], 'update', ctx.limits).where ?? {} };
  }
  if (method === 'destroy') {
    const model = modelOf(ctx, args[0]);
    return { kind: 'destroy', model, where: translateQuery(model, args[1], 'destroy', ctx.limits).where ?? {} };
  }
  return undefined;
}

/** Runs `write` under `scopeSql` (the SET LOCAL statements) in one round trip: the created row, or the number of rows updated or deleted. */
export async function runLoneWrite(db: Sequelize, ctx: OperationContext, scopeSql: string, write: LoneWrite, alias: string): Promise<unknown> {
  if (write.kind === 'bulkCreate') {
    const sql = jsonInsertSql(ctx, write.bulk, write.keys, db.escape(JSON.stringify(write.bulk.rows)));
    return bulkInserted(write.bulk, (await queryScoped(db, scopeSql, sql, alias)).rows as Record<string, unknown>[]);
  }
  const model: ModelStatic<Model> = sequelizeModels(db, ctx.compiled).get(write.model.name)!;
  const generator = db.getQueryInterface().queryGenerator as QueryGenerator;
  const attributes = model.getAttributes();
  if (write.kind === 'create') {
    const { query } = generator.insertQuery(model.getTableName(), write.row, attributes, { returning: true, bindParam: false });
    return rowToJson(write.model, (await queryScoped(db, scopeSql, query, alias)).rows[0] as Record<string, unknown>);
  }
  if (write.kind === 'destroy') return (await queryScoped(db, scopeSql, generator.deleteQuery(model.getTableName(), write.where, {}, model), alias)).rowCount ?? 0;
  const { query } = generator.updateQuery(model.getTableName(), write.row, write.where, { bindParam: false, model }, attributes);
  return (await queryScoped(db, scopeSql, query, alias)).rowCount ?? 0;
}
