/**
 * Reversal of a delivered chain order's money at this level, when the order is returned or
 * refunded (spec 3 is silent; README: returns and refunds). Run in each tenant of the chain by its
 * own reseller_orders, in one transaction, once per chain order (the collection turning `reversed`
 * is the lock):
 * - the customer's money this level took (COD at the origin, prepaid at the top) goes back out,
 *   less what partial refunds already gave back: a debit against the same clearing account;
 * - every remittance not yet paid (the delivery's and the partial refunds' adjustments) is
 *   cancelled (nothing moved; its pending total falls);
 * - what was paid with each neighbour, net of both ways, is owed back: one pending remittance the
 *   other way (`adjustment_ref` `reversal`), which the former recipient processes as any other (the
 *   levels nearest the customer first, as each pays back what it was paid).
 * So each level gives back its margin and every ledger still sums to zero, after partial refunds too.
 */
import type { HandlerContext } from '../../../sdk';
import { contended, reversalWaits } from './errors';
import { D, money } from './money';
import { DUE_DAYS, envelope, remittanceData, type CollectionRow, type RemittanceRow } from './settlement';
import type { RefundShareRow } from './refund-share';
import { CLEARING_ACCOUNTS, changeWallet, inTransaction, post, walletOf, type TransactionRow } from './wallet';

export interface ReversalInput {
  chain_ref: string;
  /** What happened, for the ledger: `returned` (goods back) or `refunded` (money back). */
  cause: 'returned' | 'refunded';
}

const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();
/** The cause of what a reversal leaves owed back (Remittance.adjustment_ref). */
export const REVERSAL_REF = 'reversal';
/** Remittances of one order at one level: the delivery's two, two per partial refund, the reversal's two. */
const MAX_REMITTANCES = 200;

export async function reverseDelivery(ctx: HandlerContext, input: ReversalInput): Promise<{ reversed: boolean; remittance_ids: string[] }> {
  const at = isoNow(ctx);
  const due = new Date(ctx.host.now() + DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const result = await inTransaction(ctx.host.db, async (tx) => {
    const none = { reversed: false, created: [] as RemittanceRow[] };
    const collection = await tx.findOne<CollectionRow>('Collection', { where: { chain_ref: input.chain_ref } });
    // Nothing recorded here (never delivered), or reversed already: a repeated reversal changes nothing.
    if (!collection || collection.status === 'reversed') return none;
    // The collection row is the lock, taken before the remittances are read: a partial refund's share
    // applied meanwhile (refund-share.ts takes it too) is committed first and read here, or waits and is recorded cancelled.
    if ((await tx.update<CollectionRow>('Collection', { status: 'reversed', settled_at: at }, { where: { id: collection.id, status: collection.status } })) !== 1) throw contended();
    const rems = await tx.find<RemittanceRow>('Remittance', { where: { chain_ref: input.chain_ref }, limit: MAX_REMITTANCES });
    if (rems.some((r) => r.status === 'processing')) throw reversalWaits(input.chain_ref);
    let wallet = await walletOf(tx);
    const taken = await tx.findOne<TransactionRow>('Transaction', { where: { reference_type: 'chain_order', reference_id: collection.chain_order_id, type: 'credit' } });
    const refunded = (await tx.find<RefundShareRow>('RefundShare', { where: { chain_ref: input.chain_ref }, attributes: ['given_back'], limit: MAX_REMITTANCES })).reduce((a, r) => a.plus(r.given_back), new D(0));
    const left = taken ? new D(taken.amount).minus(refunded) : new D(0);
    if (left.gt(0)) {
      wallet = await changeWallet(tx, wallet, { balance: money(left.neg()), last_settlement_at: at }, at);
      const account = new D(collection.cod_amount).gt(0) ? CLEARING_ACCOUNTS.cod : CLEARING_ACCOUNTS.prepaid;
      await post(tx, { type: 'debit', amount: money(left), account, reference_type: 'chain_order', reference_id: collection.chain_order_id, counterparty_tenant_id: null, description: `Customer's payment given back (order ${input.cause}) for order ${collection.origin_order_number}` }, wallet.balance, at);
    }
    // Per neighbour: what this level has paid it, less what it has paid this level (both ways, every cause).
    const paidTo = new Map<string, InstanceType<typeof D>>();
    const template = new Map<string, RemittanceRow>();
    for (const rem of rems) {
      const outgoing = rem.direction === 'outgoing';
      const other = outgoing ? rem.recipient_tenant_id : rem.payer_tenant_id;
      template.set(other, template.get(other) ?? rem);
      if (rem.status === 'pending') {
        if ((await tx.update<RemittanceRow>('Remittance', { status: 'cancelled' }, { where: { id: rem.id, status: 'pending' } })) !== 1) throw contended();
        wallet = await changeWallet(tx, wallet, { [outgoing ? 'pending_debits' : 'pending_credits']: money(new D(rem.amount).neg()) }, at);
      } else if (rem.status === 'completed') {
        paidTo.set(other, (paidTo.get(other) ?? new D(0)).plus(outgoing ? rem.amount : new D(rem.amount).neg()));
      }
    }
    const created: RemittanceRow[] = [];
    for (const [other, net] of paidTo) {
      if (net.isZero()) continue;
      // Paid already: owed back the other way (the unique chain_ref, payer, recipient, `reversal` keeps it one).
      const owedBack = net.gt(0); // this level paid the neighbour more than it got: the neighbour owes it back
      const t = template.get(other)!;
      created.push(
        await tx.create<RemittanceRow>('Remittance', {
          chain_ref: t.chain_ref,
          chain_order_id: t.chain_order_id,
          origin_order_number: t.origin_order_number,
          counterparty_name: t.counterparty_name,
          flow_type: t.flow_type,
          direction: owedBack ? 'incoming' : 'outgoing',
          payer_tenant_id: owedBack ? other : ctx.tenantId,
          recipient_tenant_id: owedBack ? ctx.tenantId : other,
          amount: money(net.abs()),
          adjustment_ref: REVERSAL_REF,
          status: 'pending',
          due_date: due,
          is_overdue: false,
          due_notified_at: null,
          overdue_notified_at: null,
          completed_at: null,
          created_at: at,
        } as Partial<RemittanceRow>),
      );
      wallet = await changeWallet(tx, wallet, { [owedBack ? 'pending_credits' : 'pending_debits']: money(net.abs()) }, at);
    }
    return { reversed: true, created };
  });
  for (const r of result.created) await ctx.host.emit('remittance.created', envelope(ctx, 'remittance.created', remittanceData(r)));
  return { reversed: result.reversed, remittance_ids: result.created.map((r) => r.id) };
}
