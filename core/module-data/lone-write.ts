/**
 * host.db inserts outside an explicit transaction (create, and bulkCreate whose rows name the same
 * columns) in one round trip, as ./lone-read.ts does for reads: the scope switch (SET LOCAL ROLE,
 * search_path, statement_timeout) and the INSERT travel as one simple-protocol query string, which
 * PostgreSQL runs as one implicit transaction: the SET LOCALs hold for the INSERT and end with it,
 * an error anywhere rolls the whole string back, and the pooled connection keeps nothing. Through a
 * transaction of its own the same insert took three round trips (the begin with the switch, the
 * INSERT, COMMIT).
 *
 * The INSERT is the one the transactional path sends (jsonInsertSql); a multi-statement string
 * takes no parameters, so its one JSON value goes as a literal escaped by the connection itself.
 */
import type { Sequelize } from 'sequelize';
import { bulkPlan, createInsert, insertedRows, jsonInsertSql, type JsonInsert, type OperationContext } from './data-operations';
import { runScoped } from './lone-read';

export interface LoneWrite {
  insert: JsonInsert;
  /** create answers its one row, bulkCreate its rows or their number. */
  single: boolean;
}

/** The insert a host.db call asks for, checked as the operation checks it; undefined where the ORM path serves it. */
export function prepareLoneWrite(ctx: OperationContext, method: string, args: unknown[]): LoneWrite | undefined {
  if (method === 'create') {
    const insert = createInsert(ctx, args);
    return insert && { insert, single: true };
  }
  if (method !== 'bulkCreate') return undefined;
  const plan = bulkPlan(ctx, args);
  return plan.kind === 'json' ? { insert: plan.insert, single: false } : undefined;
}

export async function runLoneWrite(db: Sequelize, ctx: OperationContext, scopeSql: string, write: LoneWrite, alias: string): Promise<unknown> {
  const json = JSON.stringify(write.insert.rows);
  const stored = await runScoped(db, scopeSql, (client) => jsonInsertSql(ctx, write.insert, client.escapeLiteral(json)), alias);
  const rows = insertedRows(write.insert, stored);
  return write.single ? (rows as unknown[])[0] : rows;
}
