/**
 * Reversal of a delivered chain order's money at this level, when the order is returned or
 * refunded (spec 3 is silent; README: returns and refunds). Run in each tenant of the chain by its
 * own reseller_orders, in one transaction, once per chain order (the collection turning `reversed`
 * is the lock):
 * - the customer's money this level took (COD at the origin, prepaid at the top) goes back out:
 *   a debit of the credit against the same clearing account;
 * - a remittance not yet paid is cancelled (nothing moved; its pending total falls);
 * - a remittance already paid is owed back: a pending remittance the other way, for the same amount,
 *   which the former recipient processes as any other (the levels nearest the customer first, as
 *   each pays back what it was paid).
 * So each level gives back its margin and every ledger still sums to zero.
 */
import type { HandlerContext } from '../../../sdk';
import { contended, reversalWaits } from './errors';
import { D, money } from './money';
import { DUE_DAYS, envelope, remittanceData, type CollectionRow, type RemittanceRow } from './settlement';
import { CLEARING_ACCOUNTS, changeWallet, inTransaction, post, walletOf, type TransactionRow, type WalletDelta } from './wallet';

export interface ReversalInput {
  chain_ref: string;
  /** What happened, for the ledger: `returned` (goods back) or `refunded` (money back). */
  cause: 'returned' | 'refunded';
}

const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

export async function reverseDelivery(ctx: HandlerContext, input: ReversalInput): Promise<{ reversed: boolean; remittance_ids: string[] }> {
  const at = isoNow(ctx);
  const due = new Date(ctx.host.now() + DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const result = await inTransaction(ctx.host.db, async (tx) => {
    const none = { reversed: false, created: [] as RemittanceRow[] };
    const collection = await tx.findOne<CollectionRow>('Collection', { where: { chain_ref: input.chain_ref } });
    // Nothing recorded here (never delivered), or reversed already: a repeated reversal changes nothing.
    if (!collection || collection.status === 'reversed') return none;
    const rems = await tx.find<RemittanceRow>('Remittance', { where: { chain_ref: input.chain_ref }, limit: 10 });
    if (rems.some((r) => r.status === 'processing')) throw reversalWaits(input.chain_ref);
    if ((await tx.update<CollectionRow>('Collection', { status: 'reversed', settled_at: at }, { where: { id: collection.id, status: collection.status } })) !== 1) throw contended();
    let wallet = await walletOf(tx);
    const taken = await tx.findOne<TransactionRow>('Transaction', { where: { reference_type: 'chain_order', reference_id: collection.chain_order_id, type: 'credit' } });
    if (taken) {
      wallet = await changeWallet(tx, wallet, { balance: money(new D(taken.amount).neg()), last_settlement_at: at }, at);
      const account = new D(collection.cod_amount).gt(0) ? CLEARING_ACCOUNTS.cod : CLEARING_ACCOUNTS.prepaid;
      await post(tx, { type: 'debit', amount: taken.amount, account, reference_type: 'chain_order', reference_id: collection.chain_order_id, counterparty_tenant_id: null, description: `Customer's payment given back (order ${input.cause}) for order ${collection.origin_order_number}` }, wallet.balance, at);
    }
    const created: RemittanceRow[] = [];
    for (const rem of rems) {
      if (rem.status === 'cancelled') continue;
      const outgoing = rem.direction === 'outgoing';
      const delta: WalletDelta = {};
      if (rem.status === 'pending') {
        if ((await tx.update<RemittanceRow>('Remittance', { status: 'cancelled' }, { where: { id: rem.id, status: 'pending' } })) !== 1) throw contended();
        delta[outgoing ? 'pending_debits' : 'pending_credits'] = money(new D(rem.amount).neg());
      } else {
        // Paid already: owed back the other way (the unique chain_ref, payer, recipient keeps it one).
        const back = { ...rem, payer_tenant_id: rem.recipient_tenant_id, recipient_tenant_id: rem.payer_tenant_id, direction: outgoing ? 'incoming' : 'outgoing' };
        const { id: _id, completed_at: _c, ...values } = back;
        created.push(await tx.create<RemittanceRow>('Remittance', { ...values, status: 'pending', due_date: due, is_overdue: false, due_notified_at: null, overdue_notified_at: null, completed_at: null, created_at: at } as Partial<RemittanceRow>));
        delta[outgoing ? 'pending_credits' : 'pending_debits'] = rem.amount;
      }
      wallet = await changeWallet(tx, wallet, delta, at);
    }
    return { reversed: true, created };
  });
  for (const r of result.created) await ctx.host.emit('remittance.created', envelope(ctx, 'remittance.created', remittanceData(r)));
  return { reversed: result.reversed, remittance_ids: result.created.map((r) => r.id) };
}
