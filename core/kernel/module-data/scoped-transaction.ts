/**
 * A Sequelize transaction opened in one round trip: `START TRANSACTION` and the scope switch
 * (SET LOCAL ROLE, search_path, statement_timeout) travel as one simple-protocol query string.
 * `sequelize.transaction()` would send START TRANSACTION alone and the switch after it: two round
 * trips before the first statement of every host.db transaction.
 *
 * The transaction is Sequelize's own (statements, commit and rollback go through it as usual); only
 * its begin step is replaced, on this one instance. If the string fails (e.g. the module's role does
 * not exist), Sequelize rolls back and releases the connection, and the error is the caller's.
 */
import { Transaction, type Sequelize } from 'sequelize';

/** The part of Transaction's runtime that its typings leave out. */
interface PreparableTransaction {
  begin(): Promise<void>;
  prepareEnvironment(useCls: boolean): Promise<void>;
}

export async function openScopedTransaction(db: Sequelize, scopeSql: string): Promise<Transaction> {
  const transaction = new Transaction(db, {});
  const preparable = transaction as unknown as PreparableTransaction;
  preparable.begin = async () => {
    await db.query(`START TRANSACTION; ${scopeSql}`, { transaction, raw: true });
  };
  await preparable.prepareEnvironment(false);
  return transaction;
}
