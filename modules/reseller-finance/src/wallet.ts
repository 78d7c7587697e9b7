/**
 * The wallet and its double-entry ledger (spec 3, Wallet, transaction). Every movement is one
 * Transaction and two Entry rows, the wallet's and the other account's, of opposite amounts, so the
 * entries of every tenant sum to zero. The other accounts are `cod_clearing` and `payment_clearing`
 * (a customer's money, collected by the carrier or the payment gateway, enters there), `tenant:<id>`
 * (what moves to or from a related tenant) and `wallet_held` (money set aside by a hold: still in the
 * balance, no longer available). So the `wallet` account is the available balance and `wallet` plus
 * `wallet_held` the balance.
 *
 * Concurrency: host.db has no row locks, so the wallet changes by compare-and-set on `version`; a
 * transaction that lost the race is run again on fresh values (inTransaction).
 */
import type { Db, DbTransaction } from '../../../sdk';
import { busy, codeOf, contended, CONTENDED } from './errors';
import { D, money } from './money';

export type WalletRow = {
  id: string;
  balance: string;
  pending_credits: string;
  pending_debits: string;
  total_earned: string;
  total_paid_out: string;
  credit_limit: string;
  /** Held for remittances being processed: part of balance, not of available_balance. */
  held: string;
  currency: string;
  last_settlement_at: string | null;
  version: number;
  singleton?: boolean;
  updated_at?: string;
};

export type TransactionRow = {
  id: string;
  type: 'credit' | 'debit' | 'hold' | 'release';
  amount: string;
  balance_after: string;
  reference_type: string;
  reference_id: string;
  counterparty_tenant_id: string | null;
  description: string;
  created_at: string;
};

export const WALLET_ACCOUNT = 'wallet';
/** The other side of a hold and of its release (spec 3, Transaction types hold, release). */
export const HELD_ACCOUNT = 'wallet_held';
/** Where a customer's money enters: collected by the carrier (COD) or by the seller's payment gateway (prepaid). */
export const CLEARING_ACCOUNTS = { cod: 'cod_clearing', prepaid: 'payment_clearing' } as const;
export const tenantAccount = (tenantId: string) => `tenant:${tenantId}`;

const ATTEMPTS = 20;
const TRANSIENT = new Set([CONTENDED, 'DB_CONFLICT', 'DB_RETRY']);

export async function inTransaction<T>(db: Db, work: (tx: DbTransaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (err) {
      if (!TRANSIENT.has(codeOf(err) as string)) throw err;
      if (attempt >= ATTEMPTS) throw busy();
    }
  }
}

/** The tenant's wallet, made on first use (the unique `singleton` column keeps it one row). */
export async function walletOf(db: Db | DbTransaction): Promise<WalletRow> {
  const row = await db.findOne<WalletRow>('Wallet', { where: { singleton: true } });
  if (row) return row;
  return db.upsert<WalletRow>('Wallet', { singleton: true } as Partial<WalletRow>, { conflictFields: ['singleton'] });
}

/** Changes of a wallet's running totals, as decimal deltas (strings). */
export interface WalletDelta {
  balance?: string;
  pending_credits?: string;
  pending_debits?: string;
  total_earned?: string;
  total_paid_out?: string;
  held?: string;
  last_settlement_at?: string;
}

/** Applies `delta` to the wallet read in this transaction, or fails CONTENDED for a retry. */
export async function changeWallet(tx: DbTransaction, wallet: WalletRow, delta: WalletDelta, at: string): Promise<WalletRow> {
  const next: WalletRow = { ...wallet, version: wallet.version + 1 };
  for (const key of ['balance', 'pending_credits', 'pending_debits', 'total_earned', 'total_paid_out', 'held'] as const) {
    if (delta[key] !== undefined) next[key] = money(new D(wallet[key]).plus(delta[key]!));
  }
  if (delta.last_settlement_at) next.last_settlement_at = delta.last_settlement_at;
  const { id: _id, ...values } = next;
  const changed = await tx.update<WalletRow>('Wallet', { ...values, updated_at: at } as Partial<WalletRow>, { where: { id: wallet.id, version: wallet.version } });
  if (changed !== 1) throw contended();
  return next;
}

export interface Movement {
  /** credit and release add to the `wallet` account, debit and hold take from it. */
  type: TransactionRow['type'];
  amount: string;
  /** The account on the other side of the wallet. */
  account: string;
  reference_type: 'chain_order' | 'chain_refund' | 'remittance' | 'top_up' | 'payout';
  reference_id: string;
  counterparty_tenant_id: string | null;
  description: string;
}

/**
 * Writes one movement: the transaction and its two entries (the wallet's signed amount and the
 * other account's opposite), with the balance after it. The wallet row itself is changed by the
 * caller through changeWallet, in the same transaction.
 */
export async function post(tx: DbTransaction, movement: Movement, balanceAfter: string, at: string): Promise<TransactionRow> {
  return (await postAll(tx, [{ movement, balanceAfter }], at))[0];
}

/**
 * Writes movements as `post` does, in two statements whatever their number (a bulk-process writes
 * a hundred at a time): the transactions, then every entry pair. bulkCreate answers its rows in
 * input order, which pairs each entry with its transaction.
 */
export async function postAll(tx: DbTransaction, movements: Array<{ movement: Movement; balanceAfter: string }>, at: string): Promise<TransactionRow[]> {
  if (!movements.length) return [];
  const rows = await tx.bulkCreate<TransactionRow>(
    'Transaction',
    movements.map(({ movement: { account: _account, ...fields }, balanceAfter }) => ({ ...fields, balance_after: balanceAfter, created_at: at })),
  );
  await tx.bulkCreate(
    'Entry',
    movements.flatMap(({ movement }, i) => {
      const signed = movement.type === 'credit' || movement.type === 'release' ? new D(movement.amount) : new D(movement.amount).neg();
      return [
        { transaction_id: rows[i].id, account: WALLET_ACCOUNT, amount: money(signed), created_at: at },
        { transaction_id: rows[i].id, account: movement.account, amount: money(signed.neg()), created_at: at },
      ];
    }),
    { returning: false },
  );
  return rows;
}

/** What the wallet can pay now: the balance less what is held. */
export const availableOf = (w: WalletRow) => new D(w.balance).minus(w.held);

/** The wallet as spec 3 shows it (and `held`). effective = the balance once everything pending settles. */
export function walletView(w: WalletRow) {
  return {
    id: w.id,
    balance: w.balance,
    available_balance: money(availableOf(w)),
    held: w.held,
    effective_balance: money(new D(w.balance).plus(w.pending_credits).minus(w.pending_debits)),
    pending_credits: w.pending_credits,
    pending_debits: w.pending_debits,
    total_earned: w.total_earned,
    total_paid_out: w.total_paid_out,
    credit_limit: w.credit_limit,
    currency: w.currency,
    last_settlement_at: w.last_settlement_at,
  };
}
