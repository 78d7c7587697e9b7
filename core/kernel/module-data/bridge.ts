/**
 * The function behind `host.db` for one (tenant, module, owner). Every statement runs inside a
 * transaction that first switches to the module's role and schema (SET LOCAL, so nothing leaks to
 * the pooled connection afterwards) and bounds statement time. Statements outside an explicit
 * transaction get a transaction of their own: reads, creates and updates an implicit one, in one round trip.
 */
import type { Sequelize, Transaction } from 'sequelize';
import type { TenantDatabases } from '../data/tenant-databases';
import { ARITY, OPERATIONS, type OperationContext, type Statement } from './data-operations';
import { dataErrors, invalidQuery, toDataError } from './db-errors';
import { ident, roleOf } from './names';
import { prepareLoneRead, runLoneRead } from './lone-read';
import { prepareLoneWrite, runLoneWrite } from './lone-write';
import { openScopedTransaction } from './scoped-transaction';
import type { TransactionRegistry, TxHandle, TxScope } from './transactions';
import type { DbBridge } from './types';

export interface BridgeDeps {
  dbs: TenantDatabases;
  txs: TransactionRegistry;
  /** Whether module roles are in force (decided once per process). */
  rolesEnabled: (db: Sequelize) => Promise<boolean>;
  statementTimeoutMs: number;
}

/**
 * One simple-protocol round trip switching the transaction to the module's role and schema. The
 * names are checked aliases, quoted; the timeout is a number.
 */
function scopeSql(alias: string, role: string | null, timeoutMs: number): string {
  const parts = [`SET LOCAL search_path TO ${ident(alias)}`, `SET LOCAL statement_timeout = ${Math.floor(timeoutMs)}`];
  if (role) parts.unshift(`SET LOCAL ROLE ${ident(role)}`);
  return parts.join('; ');
}

/** A transaction already switched to the module's scope, opened in one round trip (./scoped-transaction.ts). */
async function openScoped(deps: BridgeDeps, scope: TxScope, db: Sequelize): Promise<Transaction> {
  const role = (await deps.rolesEnabled(db)) ? roleOf(scope.alias) : null;
  try {
    return await openScopedTransaction(db, scopeSql(scope.alias, role, deps.statementTimeoutMs));
  } catch (err) {
    // The role is made by install: a module whose data was never installed has none yet.
    if ((err as { parent?: { code?: string } }).parent?.code === '22023') {
      throw dataErrors.notInstalled(scope.alias);
    }
    throw err;
  }
}

/** Runs one statement in a transaction of its own. */
function runAlone(deps: BridgeDeps, scope: TxScope, statement: Statement): Promise<unknown> {
  return deps.dbs.with(scope.tenantId, async (db) => {
    const transaction = await openScoped(deps, scope, db);
    let result: unknown;
    try {
      result = await statement({ db, transaction });
    } catch (err) {
      await transaction.rollback().catch(() => undefined);
      throw err;
    }
    await transaction.commit();
    return result;
  });
}

/**
 * Runs fn on the tenant pool with the module's scope switch as SQL, for a read or a create or update
 * outside a transaction: the switch and the statement then travel in one round trip
 * (./lone-read.ts, ./lone-write.ts).
 */
function aloneInScope(deps: BridgeDeps, scope: TxScope, fn: (db: Sequelize, scopeSql: string) => Promise<unknown>): Promise<unknown> {
  return deps.dbs.with(scope.tenantId, async (db) => {
    const role = (await deps.rolesEnabled(db)) ? roleOf(scope.alias) : null;
    return fn(db, scopeSql(scope.alias, role, deps.statementTimeoutMs));
  });
}

/** Opens an explicit transaction that keeps its connection (and the tenant pool) until it ends. */
function beginTransaction(deps: BridgeDeps, scope: TxScope): Promise<string> {
  return deps.txs.begin(
    scope,
    () =>
      new Promise<{ handle: TxHandle; release: () => void }>((resolve, reject) => {
        let release!: () => void;
        const ended = new Promise<void>((r) => (release = r));
        deps.dbs
          .with(scope.tenantId, async (db) => {
            const transaction = await openScoped(deps, scope, db);
            resolve({ handle: { db, transaction }, release });
            await ended;
          })
          .catch(reject);
      }),
  );
}

export function createBridge(deps: BridgeDeps, scope: TxScope, ctx: OperationContext): DbBridge {
  return async (method, args, txId) => {
    try {
      if (!Array.isArray(args)) throw invalidQuery('host.db arguments must be an array.');
      if (method === 'tx.begin') return await beginTransaction(deps, scope);
      if (method === 'tx.commit' || method === 'tx.rollback') {
        const id = txId ?? args[0];
        if (typeof id !== 'string') throw invalidQuery(`${method} needs the transaction id.`);
        if (method === 'tx.commit') await deps.txs.commit(id, scope);
        else await deps.txs.rollback(id, scope);
        return null;
      }
      const op = Object.hasOwn(OPERATIONS, method) ? OPERATIONS[method] : undefined;
      if (!op) throw invalidQuery(`host.db has no method "${String(method)}"; use ${[...Object.keys(OPERATIONS), 'tx.begin', 'tx.commit', 'tx.rollback'].join(', ')}.`);
      if (args.length > ARITY[method]) throw invalidQuery(`${method} takes at most ${ARITY[method]} arguments, got ${args.length}.`);
      const alone = txId === undefined || txId === null;
      const read = alone ? prepareLoneRead(ctx, method, args) : undefined;
      if (read) return await aloneInScope(deps, scope, (db, sql) => runLoneRead(db, ctx, sql, read, scope.alias));
      const write = alone ? prepareLoneWrite(ctx, method, args) : undefined;
      if (write) return await aloneInScope(deps, scope, (db, sql) => runLoneWrite(db, ctx, sql, write, scope.alias));
      const prepared = op(ctx, args);
      // Typed before the transaction registry sees it, so "rolled back because …" reads well.
      const statement: Statement = (h) => prepared(h).catch((err) => Promise.reject(toDataError(err, scope.alias)));
      if (txId === undefined || txId === null) return await runAlone(deps, scope, statement);
      if (typeof txId !== 'string') throw invalidQuery('The transaction id must be a string.');
      return await deps.txs.run(txId, scope, statement);
    } catch (err) {
      throw toDataError(err, scope.alias);
    }
  };
}
