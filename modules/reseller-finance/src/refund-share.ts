/**
 * A partial refund of a delivered chain order at this level (README: partial refunds; spec 3 is
 * silent): run in each tenant of the chain by its own reseller_orders, which computes the amounts
 * from its bound prices (reseller-orders README: the pro rata rule), in one transaction, once per
 * refund (the RefundShare row, unique per chain order and refund, is the lock):
 * - the level that took the customer's money (the top for prepaid) gives back the refunded amount:
 *   a debit against the clearing account the payment came in through;
 * - each neighbour's share of the refund is a new pending remittance (`adjustment_ref` = the refund
 *   id), the other way from the delivery's, processed as any other: the delivery's own remittances
 *   are left as they are, paid or not, so nothing races their processing;
 * - the origin's collection carries less GST (the refund's GST was given back with it).
 * A chain order not delivered here changes nothing; one reversed here already (returned, refunded in
 * full) moves no money, and its remittances are recorded cancelled, as its neighbours' are.
 */
import type { HandlerContext } from '../../../sdk';
import { D, money } from './money';
import { DUE_DAYS, envelope, remittanceData, type CollectionRow, type Counterparty, type RemittanceRow } from './settlement';
import { CLEARING_ACCOUNTS, changeWallet, inTransaction, post, walletOf } from './wallet';

export interface RefundShareInput {
  chain_ref: string;
  chain_order_id: string;
  origin_order_number: string;
  refund_id: string;
  /** At the level that took the customer's money: the refunded amount it gives back. */
  given_back: string | null;
  /** At the origin: the GST within the refunded amount. */
  tax?: string;
  /** The GST of this level's credit note to its child, and of its parent's to it, for this refund (README: Tax). */
  gst_charged?: string;
  gst_paid?: string;
  /** This level's share owed to a neighbour (outgoing adjustment) or owed by one (incoming). */
  pay: Counterparty[];
  receive: Counterparty[];
}

export type RefundShareRow = { id: string; chain_ref: string; refund_id: string; chain_order_id: string; origin_order_number: string; given_back: string; tax_given_back: string; created_at: string };

const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

export async function applyRefundShare(ctx: HandlerContext, input: RefundShareInput): Promise<{ applied: boolean; remittance_ids: string[] }> {
  const at = isoNow(ctx);
  const due = new Date(ctx.host.now() + DUE_DAYS * 86_400_000).toISOString().slice(0, 10);
  const result = await inTransaction(ctx.host.db, async (tx) => {
    const none = { applied: false, created: [] as RemittanceRow[] };
    const collection = await tx.findOne<CollectionRow>('Collection', { where: { chain_ref: input.chain_ref } });
    if (!collection) return none;
    if (await tx.findOne<RefundShareRow>('RefundShare', { where: { chain_ref: input.chain_ref, refund_id: input.refund_id }, attributes: ['id'] })) return none;
    // The collection row is the lock against this level's reversal (reversal.ts takes it first too):
    // of the two, the second waits for the first and then sees what it wrote.
    const reversed = collection.status === 'reversed' || (await tx.update<CollectionRow>('Collection', { status: collection.status }, { where: { id: collection.id, status: collection.status } })) !== 1;
    // A share arriving after the reversal (the full refund overtook this one on its way down the
    // chain): the reversal gave back all of the customer's money and cancelled what was owed, so
    // nothing moves; the share is recorded with its remittances cancelled, the twins of those a
    // neighbour that applied it first has cancelled by its own reversal.
    const status = reversed ? ('cancelled' as const) : ('pending' as const);
    // Two of the same refund at once: the second insert waits on the unique key, fails, and its run again finds this row.
    const share = await tx.create<RefundShareRow>('RefundShare', {
      chain_ref: input.chain_ref,
      refund_id: input.refund_id,
      chain_order_id: input.chain_order_id,
      origin_order_number: input.origin_order_number,
      given_back: reversed ? '0.00' : (input.given_back ?? '0.00'),
      tax_given_back: reversed ? '0.00' : (input.tax ?? '0.00'),
      created_at: at,
    });
    let wallet = await walletOf(tx);
    if (!reversed && input.given_back && new D(input.given_back).gt(0)) {
      wallet = await changeWallet(tx, wallet, { balance: money(new D(input.given_back).neg()), last_settlement_at: at }, at);
      const account = new D(collection.cod_amount).gt(0) ? CLEARING_ACCOUNTS.cod : CLEARING_ACCOUNTS.prepaid;
      await post(tx, { type: 'debit', amount: input.given_back, account, reference_type: 'chain_refund', reference_id: share.id, counterparty_tenant_id: null, description: `Part of the customer's payment refunded for order ${collection.origin_order_number}` }, wallet.balance, at);
    }
    if (!reversed) {
      const less = (had: string, given?: string) => money(D.max(0, new D(had).minus(given ?? 0)));
      const gst = { tax_amount: less(collection.tax_amount, input.tax), gst_charged: less(collection.gst_charged, input.gst_charged), gst_paid: less(collection.gst_paid, input.gst_paid) };
      if (gst.tax_amount !== collection.tax_amount || gst.gst_charged !== collection.gst_charged || gst.gst_paid !== collection.gst_paid) await tx.update<CollectionRow>('Collection', gst, { where: { id: collection.id } });
    }
    const base = { chain_ref: input.chain_ref, chain_order_id: input.chain_order_id, origin_order_number: input.origin_order_number, flow_type: collection.flow_type, status, due_date: due, created_at: at, adjustment_ref: input.refund_id };
    const created: RemittanceRow[] = [];
    for (const p of input.pay.filter((x) => new D(x.amount).gt(0))) {
      created.push(await tx.create<RemittanceRow>('Remittance', { ...base, direction: 'outgoing', payer_tenant_id: ctx.tenantId, recipient_tenant_id: p.tenant_id, counterparty_name: p.name ?? null, amount: p.amount }));
      if (!reversed) wallet = await changeWallet(tx, wallet, { pending_debits: p.amount }, at);
    }
    for (const r of input.receive.filter((x) => new D(x.amount).gt(0))) {
      created.push(await tx.create<RemittanceRow>('Remittance', { ...base, direction: 'incoming', payer_tenant_id: r.tenant_id, recipient_tenant_id: ctx.tenantId, counterparty_name: r.name ?? null, amount: r.amount }));
      if (!reversed) wallet = await changeWallet(tx, wallet, { pending_credits: r.amount }, at);
    }
    return { applied: !reversed, created };
  });
  for (const r of result.created.filter((x) => x.status === 'pending')) await ctx.host.emit('remittance.created', envelope(ctx, 'remittance.created', remittanceData(r)));
  return { applied: result.applied, remittance_ids: result.created.map((r) => r.id) };
}
