/**
 * The particulars ./invoice-layout.ts prints for an invoice, credit note or proforma
 * (InvoiceDocument, below): the supplier and place of supply as kept on the
 * invoice at issue, the recipient from the invoice and the order's addresses, the lines as issued.
 *
 * Place of supply (goods: where the delivery ends, section 10 of the IGST Act): the state of the
 * shipping address, else the billing address, else the state of the buyer's GSTIN; an
 * intra-state order with none of these is supplied in the seller's own state.
 */
import type { BusinessProfile } from './business-profile';
import { gstState } from './gstin';
import type { InvoiceRow } from './invoices';
import type { OrderRow } from './store';

export type PlaceOfSupply = { state: string; code: string | null };
type Address = { name?: string; line1?: string; line2?: string; city?: string; state?: string; pincode?: string; country?: string; phone?: string };

export interface DocumentParty {
  name: string | null;
  trade_name?: string | null;
  gstin?: string | null;
  address_lines?: string[];
  state?: string | null;
  state_code?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface InvoiceDocumentLine {
  description: string;
  /** null: the order holds no HSN/SAC code for the line. */
  hsn_code: string | null;
  quantity: number | null;
  unit: string | null;
  unit_price: string | null;
  discount?: string | null;
  taxable_value: string;
  /** GST rate in percent; null when the line mixes rates (a credit note over such an order). */
  tax_rate: string | null;
  cgst: string;
  sgst: string;
  igst: string;
  total: string;
}

/** Amounts are decimal strings; dates ISO 8601. A particular Rule 46 asks for and the order does not have is null: the PDF says so in place. */
export interface InvoiceDocument {
  kind: 'tax_invoice' | 'credit_note' | 'proforma';
  number: string;
  issued_at: string;
  due_at?: string | null;
  order_number?: string | null;
  currency: string;
  /** The supplier (the tenant's business profile); null when the tenant has not set one. */
  seller: DocumentParty | null;
  signatory?: string | null;
  buyer: DocumentParty;
  /** Delivery address when it differs from the billing address. */
  ship_to?: DocumentParty | null;
  place_of_supply: { state: string; code: string | null } | null;
  same_state: boolean;
  reverse_charge: boolean;
  lines: InvoiceDocumentLine[];
  totals: { taxable_value: string; discount: string; shipping: string; cgst: string; sgst: string; igst: string; total_tax: string; total: string };
  /** Credit notes: the invoice they adjust (null when the order has none). */
  original_invoice?: { number: string; issued_at: string } | null;
  reason?: string | null;
}

const KIND: Record<string, InvoiceDocument['kind']> = { invoice: 'tax_invoice', credit_note: 'credit_note', proforma: 'proforma' };

export function placeOfSupply(order: OrderRow, seller: BusinessProfile | null): PlaceOfSupply | null {
  const raw = ((order.shipping_address ?? order.billing_address) as Address | null)?.state;
  const state = gstState(raw) ?? gstState(order.billing_gstin?.slice(0, 2));
  if (state) return { state: state.name, code: state.code };
  if (typeof raw === 'string' && raw.trim()) return { state: raw.trim(), code: null };
  if (order.same_state && seller) return { state: seller.address.state, code: seller.address.state_code };
  return null;
}

function addressParty(a: Address, name: string | null, gstin: string | null): DocumentParty {
  const state = gstState(a.state);
  const cityLine = [a.city, a.pincode].filter(Boolean).join(' - ');
  return {
    name, gstin, phone: a.phone ?? null,
    address_lines: [a.line1, a.line2, cityLine].filter((l): l is string => !!l),
    state: state?.name ?? a.state ?? null, state_code: state?.code ?? null,
  };
}

function sellerParty(p: BusinessProfile): DocumentParty {
  const a = p.address;
  return {
    name: p.legal_name, trade_name: p.trade_name ?? null, gstin: p.gstin, email: p.email ?? null, phone: p.phone ?? null,
    address_lines: [a.line1, a.line2, `${a.city} - ${a.pincode}`, a.country].filter((l): l is string => !!l), state: a.state, state_code: a.state_code,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function invoiceDocument(invoice: InvoiceRow, order: OrderRow): InvoiceDocument {
  const billing = (order.billing_address ?? order.shipping_address ?? {}) as Address;
  const shipping = order.shipping_address as Address | null;
  const td = invoice.tax_details as Record<string, string | undefined>;
  const lines = (invoice.line_items as Array<Record<string, unknown>>).map((l): InvoiceDocumentLine => ({
    description: String(l.name), hsn_code: (l.hsn_code as string | null) ?? null, quantity: (l.quantity as number | null) ?? null, unit: (l.unit as string | null) ?? null,
    unit_price: (l.unit_price as string | null) ?? null, discount: (l.discount as string | null) ?? null, taxable_value: String(l.taxable_amount),
    tax_rate: (l.tax_rate as string | null) ?? null, cgst: String(l.cgst ?? '0.00'), sgst: String(l.sgst ?? '0.00'), igst: String(l.igst ?? '0.00'), total: String(l.total),
  }));
  const credit = invoice.type === 'credit_note';
  return {
    kind: KIND[invoice.type]!, number: invoice.invoice_number, issued_at: invoice.issued_at ?? invoice.created_at, due_at: credit ? null : invoice.due_at,
    order_number: order.order_number, currency: invoice.currency,
    seller: invoice.seller ? sellerParty(invoice.seller) : null, signatory: invoice.seller?.signatory ?? null,
    buyer: addressParty(billing, invoice.billing_name, invoice.billing_gstin),
    ship_to: shipping && order.billing_address && !same(shipping, order.billing_address) ? addressParty(shipping, shipping.name ?? null, null) : null,
    // Orders are sales by the tenant, never supplies on which the buyer pays the tax (reverse charge).
    place_of_supply: invoice.place_of_supply, same_state: order.same_state, reverse_charge: false, lines,
    totals: {
      taxable_value: invoice.subtotal, // the sum of the lines' taxable values (pre-tax subtotal)
      discount: invoice.discount, shipping: credit ? '0.00' : String(td.shipping ?? '0.00'),
      cgst: td.cgst ?? '0.00', sgst: td.sgst ?? '0.00', igst: td.igst ?? '0.00', total_tax: invoice.total_tax, total: invoice.total,
    },
    original_invoice: invoice.original_invoice ? { number: invoice.original_invoice.invoice_number, issued_at: invoice.original_invoice.issued_at } : null,
    reason: invoice.reason,
  };
}
