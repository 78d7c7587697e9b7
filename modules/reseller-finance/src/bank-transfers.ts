/**
 * Top-ups and payouts (spec 3 is silent; README, Top-ups and payouts): a tenant records a bank
 * transfer into its wallet (top_up) or out of it to its bank account (payout) with the transfer's
 * details (account name, bank reference or UTR, date). The platform moves no money: the record is
 * the ledger movement, credit wallet / debit `bank` for a top-up, the opposite for a payout, so the
 * tenant's entries still sum to zero (spec 3, Wallet, transaction: the double-entry ledger).
 *
 * Once per transfer: the bank reference is unique per kind (BankTransfer's unique index). Of two
 * identical requests at once one writes; the other loses on that index or on the wallet's version,
 * is run again by inTransaction and finds the transfer recorded, and answers it (`replayed: true`).
 */
import type { DbTransaction, HandlerContext } from '../../../sdk';
import { duplicateReference, notFound, payoutTooLarge } from './errors';
import { D, money } from './money';
import { availableOf, changeWallet, inTransaction, post, walletOf, walletView, type TransactionRow } from './wallet';

/** The other side of a top-up or payout: the tenant's bank account, outside the platform. */
export const BANK_ACCOUNT = 'bank';

export type TransferKind = 'top_up' | 'payout';

export type BankTransferRow = {
  id: string;
  kind: TransferKind;
  amount: string;
  bank_reference: string;
  account_name: string;
  account_number: string | null;
  bank_name: string | null;
  transfer_date: string;
  note: string | null;
  transaction_id: string;
  recorded_by: string | null;
  created_at: string;
};

export interface TransferInput {
  amount: string;
  bank_reference: string;
  account_name: string;
  account_number?: string | null;
  bank_name?: string | null;
  transfer_date: string;
  note?: string | null;
}

/** The details that make a transfer: sent again with the same reference, they must match. */
const sameTransfer = (row: BankTransferRow, input: TransferInput) =>
  new D(row.amount).eq(input.amount) && row.account_name === input.account_name && String(row.transfer_date).slice(0, 10) === input.transfer_date;

const LABEL: Record<TransferKind, string> = { top_up: 'Top-up', payout: 'Payout' };

async function recorded(tx: DbTransaction, kind: TransferKind, input: TransferInput) {
  const row = await tx.findOne<BankTransferRow>('BankTransfer', { where: { kind, bank_reference: input.bank_reference } });
  if (row && !sameTransfer(row, input)) throw duplicateReference(kind, input.bank_reference, row.id);
  return row;
}

/** Records a top-up or payout once; a payout above the available balance is refused and writes nothing. */
export async function recordTransfer(ctx: HandlerContext, kind: TransferKind, input: TransferInput) {
  const at = new Date(ctx.host.now()).toISOString();
  const amount = money(input.amount);
  return inTransaction(ctx.host.db, async (tx) => {
    let wallet = await walletOf(tx);
    const existing = await recorded(tx, kind, input);
    if (existing) {
      const transaction = await tx.findOne<TransactionRow>('Transaction', { where: { id: existing.transaction_id } });
      if (!transaction) throw notFound('Transaction', existing.transaction_id);
      return { transfer: existing, transaction, wallet: walletView(wallet), replayed: true };
    }
    // A payout spends what is available now: held money is promised to a remittance and the
    // credit limit is for paying the chain, not for taking cash out.
    if (kind === 'payout' && availableOf(wallet).lt(amount)) throw payoutTooLarge(amount, money(availableOf(wallet)));
    wallet = await changeWallet(tx, wallet, { balance: kind === 'top_up' ? amount : money(new D(amount).neg()) }, at);
    // The transaction's reference is the bank's: the ledger's own once-per-reference index
    // (migration 002) guards the movement as BankTransfer's index guards the record.
    const transaction = await post(
      tx,
      {
        type: kind === 'top_up' ? 'credit' : 'debit',
        amount,
        account: BANK_ACCOUNT,
        reference_type: kind,
        reference_id: input.bank_reference,
        counterparty_tenant_id: null,
        description: `${LABEL[kind]} by bank transfer ${input.bank_reference} (${input.account_name})`.slice(0, 255),
      },
      wallet.balance,
      at,
    );
    const transfer = await tx.create<BankTransferRow>('BankTransfer', {
      kind,
      amount,
      bank_reference: input.bank_reference,
      account_name: input.account_name,
      account_number: input.account_number ?? null,
      bank_name: input.bank_name ?? null,
      transfer_date: input.transfer_date,
      note: input.note ?? null,
      transaction_id: transaction.id,
      recorded_by: ctx.user ? String(ctx.user.id) : null,
      created_at: at,
    });
    return { transfer, transaction, wallet: walletView(wallet), replayed: false };
  });
}
