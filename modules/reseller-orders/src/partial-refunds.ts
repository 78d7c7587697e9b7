/**
 * Partial refunds of delivered prepaid chain orders (spec 3 is silent; README: partial refunds).
 * The origin's orders module refunds part of the order (order.refund_processed, something still
 * paid); the origin reports it up one parent at a time (reseller_orders.report_partial_refund,
 * each level accepting it from its child only), and each level applies its share of it with its
 * own finance module (reseller_finance.refund_share, once per refund) after its parent has: the
 * levels above are done before a level below can pay its share to them.
 *
 * The pro rata rule, in paise. For a refund that brings the order's refunded total from Rp to Rc
 * (the orders module's `total_refunded` after it, less its amount; T the customer total), every
 * price along the chain (the taxable value at the origin, each level's bound cost) is refunded in
 * the same proportion as the customer's money, cumulatively:
 *   D(a, R) = a × R / T, rounded half up to paise;  this refund's part of a = D(a, Rc) − D(a, Rp).
 * Each level's share of the refund is then the part of its end share (spec 3, each level ends with
 * its margin: origin T − cost, a middle level price − cost, the top level 1's cost; with the GST of
 * the invoices between levels, each price's part is its seller's credit note for the refund), and
 * - the shares telescope to the refunded amount exactly (D(T, R) = R), whatever the rounding;
 * - both sides of a remittance compute the same amount (a child's cost is its parent's price);
 * - refunds that add up to the whole total refund every price exactly (D(a, T) = a);
 * - the GST refunded is the origin's: the refund's part of T less its part of the taxable value.
 * The top (which took the customer's payment) gives the refunded amount back; each neighbour's
 * share is a new remittance the other way from the delivery's (finance README).
 */
import Decimal from 'decimal.js';
import { related, typedCall, type HandlerContext } from '../../../sdk';
import { isoNow, levelTax, type ChainOrderRow } from './chain';
import { chainErrors, notFound } from './errors';
import { creditRefundedShare, type InvoiceAmounts } from './level-invoices';

/** The refund as the origin's orders module recorded it (order.refund_processed). */
export type PartialRefund = { refund_id: string; amount: string; total_refunded: string };

type Party = { tenant_id: string; amount: string };
type Ops = {
  'reseller_finance.refund_share': {
    input: { chain_ref: string; chain_order_id: string; origin_order_number: string; refund_id: string; given_back: string | null; tax?: string; gst_charged: string; gst_paid: string; pay: Party[]; receive: Party[] };
    output: { applied: boolean };
  };
};

const paise = (v: Decimal) => v.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/** A refund's amounts, checked against the order: positive, within what the total can refund. */
export function refundOf(row: ChainOrderRow, input: { refund_id?: unknown; amount?: unknown; total_refunded?: unknown }): PartialRefund | null {
  const ok = (v: unknown) => typeof v === 'string' && /^\d{1,12}(\.\d{1,2})?$/.test(v);
  if (typeof input.refund_id !== 'string' || !input.refund_id || input.refund_id.length > 100 || !ok(input.amount) || !ok(input.total_refunded)) return null;
  const amount = new Decimal(input.amount as string);
  const total = new Decimal(input.total_refunded as string);
  if (amount.lte(0) || amount.gt(total) || total.gt(row.origin_total)) return null;
  return { refund_id: input.refund_id, amount: amount.toFixed(2), total_refunded: total.toFixed(2) };
}

/** This refund's part of the price `a` (the rule above). */
export function refundedPart(a: Decimal.Value, refund: PartialRefund, customerTotal: Decimal.Value): Decimal {
  const T = new Decimal(customerTotal);
  const after = new Decimal(refund.total_refunded);
  const before = after.minus(refund.amount);
  const at = (r: Decimal) => paise(new Decimal(a).times(r).div(T));
  return at(after).minus(at(before));
}

/**
 * This level's share with its finance module. Prepaid settled downstream: the parent owed this
 * level T − its parent's invoice total and this level owed its child T − its own invoice's total
 * (finance README), so the refund's part of each goes back the other way: R − the parent's credit
 * note for this refund to the parent (`bought`, as the parent answered it), R − this level's own
 * credit note from the child (issued first, here); the top gives R back to the customer; the
 * origin's part of its customer GST is R − part(taxable value). A copy with no invoice (delivered
 * before 1.2.0) stays on the bound prices: part(cost), part(price to the child). So each share is
 * exactly the credit note its seller issues, and the credit notes of refunds adding up to T add up
 * to each invoice, which brings every wallet back.
 */
async function applyShare(ctx: HandlerContext, row: ChainOrderRow, refund: PartialRefund, bought: InvoiceAmounts | null): Promise<InvoiceAmounts | null> {
  const R = new Decimal(refund.amount);
  const part = (a: Decimal.Value) => refundedPart(a, refund, row.origin_total);
  // Its invoice to the level below is credited by the same part (README: GST invoices between levels).
  const sold = row.child_tenant_id ? await creditRefundedShare(ctx, row, refund, part) : null;
  const pay: Party[] = [];
  const receive: Party[] = [];
  const owes = (tenant: string | null, amount: Decimal) => {
    if (tenant && !amount.isZero()) (amount.gt(0) ? receive : pay).push({ tenant_id: tenant, amount: amount.abs().toFixed(2) });
  };
  owes(row.parent_tenant_id, R.minus(bought?.total ?? part(row.your_cost)).neg());
  owes(row.child_tenant_id, R.minus(sold?.total ?? part(row.sell_total)));
  const isOrigin = row.origin_tenant_id === ctx.tenantId;
  const { applied } = await typedCall<Ops>(ctx.host)('reseller_finance.refund_share', {
    chain_ref: row.chain_ref,
    chain_order_id: row.id,
    origin_order_number: row.origin_order_number,
    refund_id: refund.refund_id,
    given_back: row.parent_tenant_id ? null : refund.amount,
    ...(isOrigin ? { tax: R.minus(part(row.sell_total)).toFixed(2) } : {}),
    ...levelTax(sold, bought),
    pay,
    receive,
  });
  if (applied) await ctx.host.db.create('TimelineEntry', { chain_order_id: row.id, status: row.chain_status, note: `${refund.amount} of ${row.origin_total} refunded to the customer (refunded in all: ${refund.total_refunded})`, tenant_id: ctx.tenantId, created_at: isoNow(ctx) });
  return sold;
}

/**
 * Up to the parent first, then this level's share, unless a level above no longer has the order
 * delivered (returned or refunded in full since: its money is reversed whole there, and so it will
 * be here). A failure is thrown, so the origin's event is delivered again (each step applies once).
 */
export async function reportPartial(ctx: HandlerContext, row: ChainOrderRow, refund: PartialRefund): Promise<Reported> {
  let bought: InvoiceAmounts | null = null;
  if (row.parent_tenant_id) {
    const answer = await related(ctx.host).call<Reported>(row.parent_tenant_id, 'reseller_orders.report_partial_refund', { chain_ref: row.chain_ref, ...refund });
    if (!answer.reported) return { reported: false, credit_note: null };
    bought = answer.credit_note ?? null;
  }
  return { reported: true, credit_note: await applyShare(ctx, row, refund, bought) };
}

/** A parent's answer to its child's report: applied, and its credit note to the child for the refund (the child's share with it). */
export type Reported = { reported: boolean; credit_note?: InvoiceAmounts | null };

/** reseller_orders.report_partial_refund, in a parent: only the child the order came from reports it, for a copy delivered here. */
export async function reportPartialRefund(ctx: HandlerContext, from: string, input: { chain_ref: string } & PartialRefund): Promise<Reported> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: input.chain_ref } });
  if (!row) throw notFound(input.chain_ref);
  if (from !== row.child_tenant_id) throw chainErrors.forbidden('Only the sub-reseller the order came from reports its refund.');
  const refund = refundOf(row, input);
  if (!refund) throw chainErrors.invalidRefund();
  // Returned or refunded in full since: its money is reversed whole already.
  if (row.chain_status !== 'delivered' || row.payment_method !== 'prepaid') return { reported: false, credit_note: null };
  return reportPartial(ctx, row, refund);
}
