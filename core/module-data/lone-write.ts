/**
 * host.db inserts and deletes outside an explicit transaction (create, bulkCreate whose rows name
 * the same columns, destroy) in one round trip, as ./lone-read.ts does for reads: the scope switch
 * (SET LOCAL ROLE, search_path, statement_timeout) and the statement travel as one simple-protocol
 * query string, which PostgreSQL runs as one implicit transaction: the SET LOCALs hold for the
 * statement and end with it, an error anywhere rolls the whole string back, and the pooled
 * connection keeps nothing. Through a transaction of its own the same write took three round trips
 * (the begin with the switch, the statement, COMMIT).
 *
 * The INSERT is the one the transactional path sends (jsonInsertSql); a multi-statement string
 * takes no parameters, so its one JSON value goes as a literal escaped by the connection itself.
 * The DELETE is the one Sequelize's destroy would send (its query generator, values escaped inline
 * as for the lone reads' SELECT).
 */
import type { Model, ModelStatic, Sequelize, WhereOptions } from 'sequelize';
import { bulkPlan, createInsert, insertedRows, jsonInsertSql, modelOf, type JsonInsert, type OperationContext } from './data-operations';
import { runScoped } from './lone-read';
import { translateQuery } from './query-translator';
import { sequelizeModels } from './sequelize-models';
import type { CompiledModel } from './types';

export type LoneWrite =
  /** create answers its one row, bulkCreate its rows or their number. */
  | { kind: 'insert'; insert: JsonInsert; single: boolean }
  | { kind: 'destroy'; model: CompiledModel; where: WhereOptions | undefined };

interface QueryGenerator {
  deleteQuery(table: unknown, where: WhereOptions, options: Record<string, unknown>, model: ModelStatic<Model>): string;
}

/** The insert a host.db call asks for, checked as the operation checks it; undefined where the ORM path serves it. */
export function prepareLoneWrite(ctx: OperationContext, method: string, args: unknown[]): LoneWrite | undefined {
  if (method === 'create') {
    const insert = createInsert(ctx, args);
    return insert && { kind: 'insert', insert, single: true };
  }
  if (method === 'destroy') {
    const model = modelOf(ctx, args[0]);
    return { kind: 'destroy', model, where: translateQuery(model, args[1], 'destroy', ctx.limits).where };
  }
  if (method !== 'bulkCreate') return undefined;
  const plan = bulkPlan(ctx, args);
  return plan.kind === 'json' ? { kind: 'insert', insert: plan.insert, single: false } : undefined;
}

export async function runLoneWrite(db: Sequelize, ctx: OperationContext, scopeSql: string, write: LoneWrite, alias: string): Promise<unknown> {
  if (write.kind === 'destroy') {
    const model = sequelizeModels(db, ctx.compiled).get(write.model.name)!;
    const generator = db.getQueryInterface().queryGenerator as QueryGenerator;
    const result = await runScoped(db, scopeSql, generator.deleteQuery(model.getTableName(), write.where ?? {}, {}, model), alias);
    return result.rowCount ?? 0;
  }
  const json = JSON.stringify(write.insert.rows);
  const { rows: stored } = await runScoped(db, scopeSql, (client) => jsonInsertSql(ctx, write.insert, client.escapeLiteral(json)), alias);
  const rows = insertedRows(write.insert, stored);
  return write.single ? (rows as unknown[])[0] : rows;
}
