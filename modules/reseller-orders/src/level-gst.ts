/**
 * GST on the sale between two levels of the chain (spec 3, Chain order: pricing; Tax configuration;
 * README: GST invoices between levels). Each level sells the order to the level below at its bound
 * price (the child's cost): that price is the invoice's taxable value, line by line as the child was
 * priced, and GST is charged on it at each product's rate (the origin's order line: HSN code and
 * rate, carried up with the forward). Intra-state (the two tenants' business profiles in one state)
 * CGST and SGST are each taxable × rate / 200, rounded half up to paise; inter-state IGST is
 * taxable × rate / 100 (the orders module's rule, spec 3 Tax configuration).
 */
import Decimal from 'decimal.js';
import type { HandlerContext } from '../../../sdk';
import type { ChainOrderRow, Item } from './chain';

/** A party of an invoice between levels, as its business profile was when the invoice was made. */
export type GstParty = { tenant_id: string; name: string | null; gstin: string | null; address_lines: string[]; state: string | null; state_code: string | null };
export type GstLine = { sku: string; description: string; hsn_code: string | null; quantity: number; unit_price: string; taxable_value: string; tax_rate: string; cgst: string; sgst: string; igst: string; total: string };
export type GstTotals = { taxable_value: string; cgst: string; sgst: string; igst: string; total_tax: string; total: string };

/** The orders module's last resort when no configuration names a rate (spec 3, Tax configuration, step 4). */
export const FALLBACK_RATE = '18';

const paise = (v: Decimal.Value) => new Decimal(v).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const str = (v: Decimal.Value) => paise(v).toFixed(2);

type Profile = { legal_name: string; gstin: string | null; address: { line1: string; line2?: string; city: string; pincode: string; state: string; state_code: string } };

/** This tenant as a party of an invoice: its orders module's business profile (Rule 46: name, address, GSTIN), or just its name. */
export async function ownParty(ctx: HandlerContext, fallbackName: string | null): Promise<GstParty> {
  let profile: Profile | null = null;
  try {
    profile = (await ctx.host.call<{ business_profile: Profile | null }>('orders.get_business_profile', {})).business_profile;
  } catch (err) {
    ctx.host.log.warn('business profile not read for a chain invoice', { error: (err as Error).message });
  }
  if (!profile) return { tenant_id: ctx.tenantId, name: fallbackName, gstin: null, address_lines: [], state: null, state_code: null };
  const a = profile.address;
  return {
    tenant_id: ctx.tenantId,
    name: profile.legal_name,
    gstin: profile.gstin,
    address_lines: [a.line1, a.line2, `${a.city} - ${a.pincode}`].filter((l): l is string => !!l),
    state: a.state,
    state_code: a.state_code,
  };
}

/**
 * Intra-state when both states are known and equal, or when the buyer's is unknown (a buyer with no
 * business profile is supplied where the seller is, as an orders-module order with no address is).
 */
export const isSameState = (seller: GstParty, buyer: GstParty) => !buyer.state_code || !seller.state_code || buyer.state_code === seller.state_code;

/**
 * The lines the seller charges: each item at the price it bound the buyer to (sent with the forward).
 * A copy received before those prices travelled splits the bound total over the items in proportion
 * to the seller's own costs, the last line taking the rounding, so the lines still add up to it.
 */
export function saleLines(row: ChainOrderRow, sameState: boolean): GstLine[] {
  const bound = new Decimal(row.sell_total);
  const ownCost = row.items.reduce((s, i) => s.plus(i.cost), new Decimal(0));
  let left = bound;
  return row.items.map((item: Item, n) => {
    const taxable = item.sell_amount !== undefined
      ? new Decimal(item.sell_amount)
      : n === row.items.length - 1 ? left : ownCost.isZero() ? new Decimal(0) : paise(bound.times(item.cost).div(ownCost));
    left = left.minus(taxable);
    const rate = new Decimal(item.tax_rate ?? FALLBACK_RATE);
    const half = sameState ? paise(taxable.times(rate).div(200)) : new Decimal(0);
    const igst = sameState ? new Decimal(0) : paise(taxable.times(rate).div(100));
    return {
      sku: item.sku,
      description: item.name,
      hsn_code: item.hsn_code ?? null,
      quantity: item.quantity,
      unit_price: item.sell_unit_price ?? str(taxable.div(item.quantity)),
      taxable_value: str(taxable),
      tax_rate: rate.toFixed(2),
      cgst: str(half),
      sgst: str(half),
      igst: str(igst),
      total: str(taxable.plus(half).plus(half).plus(igst)),
    };
  });
}

export function totalsOf(lines: GstLine[]): GstTotals {
  const sum = (k: keyof GstLine) => lines.reduce((s, l) => s.plus(l[k] as string), new Decimal(0));
  const [taxable, cgst, sgst, igst] = [sum('taxable_value'), sum('cgst'), sum('sgst'), sum('igst')];
  const tax = cgst.plus(sgst).plus(igst);
  return { taxable_value: str(taxable), cgst: str(cgst), sgst: str(sgst), igst: str(igst), total_tax: str(tax), total: str(taxable.plus(tax)) };
}
