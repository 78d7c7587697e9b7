/**
 * Invoices, credit notes and proformas (spec 3, Invoice).
 *
 * Numbers are <PREFIX>-<YYYYMM>-<NNNN> (INV, CN, PI), sequential within prefix and month: the
 * counter is host.db.sequence("<PREFIX>-<YYYYMM>") taken inside the same transaction that inserts
 * the invoice. The sequence row stays locked until that transaction ends, so concurrent requests
 * queue on it; a rolled-back insert rolls the counter back too: no gap and no duplicate. The month
 * is India's (UTC+05:30) at issue by the platform clock, as the printed date of issue is, so the
 * number never names the month before its date. Past 9999 the number simply grows a digit; up to
 * 99999 it stays within the 16 characters Rule 46 of the CGST Rules allows.
 *
 * Credit notes carry an amount (tax-inclusive, at most what is left un-credited of the order
 * total) and a reason; their tax is the order's tax share of that amount, rounded half-up to
 * paise, split like the order (CGST = half rounded half-up, SGST = the rest; or all IGST).
 *
 * GST particulars (Rule 46 of the CGST Rules; Rule 53 for credit notes): the supplier (the
 * business profile) and the place of supply are kept on the invoice as they were at issue, so a
 * later change of profile never alters an issued document; a credit note keeps the invoice it
 * adjusts (the order's latest invoice). The buyer's GSTIN is checked (./gstin.ts).
 *
 * PDF: module code cannot run pdfkit (no Node in the sandbox), so after the invoice is committed
 * ./invoice-document.ts gathers its particulars, ./invoice-layout.ts lays them out as blocks and
 * the public core operation documents.render_pdf (template "layout") draws and stores the PDF;
 * pdf_path and pdf_url (the download route) are then saved on the invoice.
 */
import type { DbTransaction, HandlerContext, RowOf } from '../../../sdk';
import { loadBusinessProfile, type BusinessProfile } from './business-profile';
import { invalid, invalidStatus, ordersErrors } from './errors';
import { parseGstin } from './gstin';
import { invoiceDocument, placeOfSupply, type PlaceOfSupply } from './invoice-document';
import { invoiceLayout } from './invoice-layout';
import { D, parseAmount, str } from './money';
import { inTransaction, itemsOf, loadOrder, saveOrder, UUID_RE, type ItemRow, type OrderRow } from './store';
import type { data } from './models';

/** Row types come from the models' columns (RowOf); the second argument narrows json shapes and enum strings. */
type Models = typeof data.models;

export type InvoiceRow = RowOf<Models['Invoice'], { tax_details: Record<string, unknown>; line_items: unknown[]; seller: BusinessProfile; place_of_supply: PlaceOfSupply; original_invoice: { id: string; invoice_number: string; issued_at: string } }>;

export const PREFIX: Record<string, string> = { invoice: 'INV', credit_note: 'CN', proforma: 'PI' };
const DAY = 86_400_000;
export const DUE_DAYS = 30;

/** India has one time zone and no daylight saving: UTC+05:30. */
const INDIA_OFFSET_MS = 19_800_000;

/** The YYYYMM of an invoice number: India's month, the calendar of its printed date of issue. */
function period(ms: number) {
  const d = new Date(ms + INDIA_OFFSET_MS);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

type InvoiceInput = { id: string; type?: string; amount?: unknown; reason?: string; refund_id?: string; billing_name?: string; billing_gstin?: string; pdf?: boolean };

const billingName = (o: OrderRow, given?: string) =>
  given ?? ((o.billing_address as { name?: string } | null)?.name ?? (o.customer as { name?: string })?.name ?? null);

export async function createInvoice(input: InvoiceInput, ctx: HandlerContext) {
  const type = input.type ?? 'invoice';
  if (!PREFIX[type]) throw invalid('type', 'The type must be invoice, credit_note or proforma.');
  if (type === 'credit_note') {
    if (input.amount === undefined) {
      const order = await loadOrder(ctx.host.db, input.id);
      input = { ...input, amount: str(new D(order.total).minus(order.total_credited)) };
    }
    return issueCreditNote({ id: input.id, amount: input.amount, reason: input.reason ?? 'credit note', refund_id: input.refund_id, pdf: input.pdf }, ctx);
  }
  const billingGstin = input.billing_gstin === undefined ? undefined : parseGstin(input.billing_gstin, 'billing_gstin');
  const [{ order, items }, seller] = await Promise.all([orderWithItems(ctx, input.id), loadBusinessProfile(ctx.host.db)]);
  if (order.status === 'cancelled' && type === 'invoice') throw invalidStatus(`Order ${order.order_number} is cancelled; it cannot be invoiced.`, order.status);
  const lineItems = items.map((i) => ({
    name: i.name, sku: i.sku, hsn_code: i.hsn_code, quantity: i.quantity, unit: i.unit ?? 'NOS', unit_price: i.unit_price, discount: i.discount, taxable_amount: i.taxable_amount,
    tax_rate: i.tax_rate, cgst: i.cgst, sgst: i.sgst, igst: i.igst, tax_total: i.tax_total, total: i.total,
  }));
  const byRate: Record<string, { taxable: string; tax: string }> = {};
  for (const i of items) {
    const k = new D(i.tax_rate).toString();
    const cur = byRate[k] ?? { taxable: '0.00', tax: '0.00' };
    byRate[k] = { taxable: str(new D(cur.taxable).plus(i.taxable_amount)), tax: str(new D(cur.tax).plus(i.tax_total)) };
  }
  const base = {
    order_id: order.id, status: type === 'invoice' && order.payment_status === 'paid' ? 'paid' : 'issued', subtotal: order.subtotal, discount: order.discount,
    total_tax: order.tax_total, total: order.total, currency: order.currency,
    tax_details: { ...order.tax_details, shipping: order.shipping_total, by_rate: byRate },
    billing_name: billingName(order, input.billing_name), billing_gstin: billingGstin === undefined ? order.billing_gstin : billingGstin, line_items: lineItems, reason: input.reason ?? null, refund_id: null,
    seller, place_of_supply: placeOfSupply(order, seller), original_invoice: null,
  };
  const invoice = await insertNumbered(ctx, type, async () => base);
  return input.pdf === false ? invoice : renderPdf(ctx, invoice, order);
}

/**
 * The order and its lines. Addressed by its id, both are read at once (two round trips in
 * parallel instead of one after the other); by its number, the lines wait for the id.
 */
async function orderWithItems(ctx: HandlerContext, ref: string): Promise<{ order: OrderRow; items: ItemRow[] }> {
  const db = ctx.host.db;
  const guess = UUID_RE.test(ref) ? ref.toLowerCase() : null;
  const [order, guessed] = await Promise.all([loadOrder(db, ref), guess ? itemsOf(db, guess) : null]);
  return { order, items: guessed && order.id === guess ? guessed : await itemsOf(db, order.id) };
}

/** Inserts an invoice under the next number of its prefix and month, in one transaction. */
async function insertNumbered(ctx: HandlerContext, type: string, build: (tx: DbTransaction) => Promise<Record<string, unknown>>): Promise<InvoiceRow> {
  return inTransaction(ctx.host.db, async (tx) => {
    const base = await build(tx);
    const now = ctx.host.now();
    const key = `${PREFIX[type]}-${period(now)}`;
    const n = await tx.sequence(`invoice:${key}`);
    const at = new Date(now).toISOString();
    return tx.create<InvoiceRow>('Invoice', {
      ...base, type, invoice_number: `${key}-${String(n).padStart(4, '0')}`, issued_at: at, due_at: new Date(now + DUE_DAYS * DAY).toISOString(), created_at: at,
    });
  });
}

export async function issueCreditNote(input: { id: string; amount: unknown; reason: string; refund_id?: string; pdf?: boolean }, ctx: HandlerContext) {
  const amount = parseAmount(input.amount, 'amount');
  let order: OrderRow | undefined;
  const seller = await loadBusinessProfile(ctx.host.db);
  const invoice = await insertNumbered(ctx, 'credit_note', async (tx) => {
    const current = await loadOrder(tx, input.id);
    const open = new D(current.total).minus(current.total_credited);
    if (amount.gt(open)) {
      throw ordersErrors.creditExceedsTotal(str(amount), str(open), current.order_number);
    }
    order = await saveOrder(tx, current, { total_credited: str(new D(current.total_credited).plus(amount)) }, new Date(ctx.host.now()).toISOString());
    const total = new D(current.total);
    // The credit's share of the order's tax; intra-state, CGST and SGST are each half of it, rounded each (spec 3, Tax).
    const share = total.isZero() ? new D(0) : amount.times(current.tax_total).div(total);
    const cgst = current.same_state ? new D(str(share.div(2))) : new D(0);
    const sgst = cgst;
    const igst = current.same_state ? new D(0) : new D(str(share));
    const tax = cgst.plus(sgst).plus(igst);
    const [items, original] = await Promise.all([
      itemsOf(tx, current.id),
      tx.findOne<InvoiceRow>('Invoice', { where: { order_id: current.id, type: 'invoice' }, order: [['created_at', 'DESC'], ['invoice_number', 'DESC']] }),
    ]);
    // A credit over lines of one rate (or one HSN code) says so; over mixed lines there is no single one.
    const one = (values: Array<string | null>) => (new Set(values).size === 1 && values[0] !== null ? values[0]! : null);
    return {
      order_id: current.id, status: 'issued', subtotal: str(amount.minus(tax)), discount: '0.00', total_tax: str(tax), total: str(amount), currency: current.currency,
      tax_details: { same_state: current.same_state, cgst: str(cgst), sgst: str(sgst), igst: str(igst), total_tax: str(tax) },
      billing_name: billingName(current), billing_gstin: current.billing_gstin, reason: input.reason, refund_id: input.refund_id ?? null,
      line_items: [{
        name: `Credit for order ${current.order_number}: ${input.reason}`, quantity: null, hsn_code: one(items.map((i) => i.hsn_code)), tax_rate: one(items.map((i) => new D(i.tax_rate).toFixed(2))),
        taxable_amount: str(amount.minus(tax)), cgst: str(cgst), sgst: str(sgst), igst: str(igst), total: str(amount),
      }],
      seller, place_of_supply: placeOfSupply(current, seller),
      original_invoice: original ? { id: original.id, invoice_number: original.invoice_number, issued_at: original.issued_at } : null,
    };
  });
  return input.pdf === false ? invoice : renderPdf(ctx, invoice, order!);
}

async function renderPdf(ctx: HandlerContext, invoice: InvoiceRow, order: OrderRow): Promise<InvoiceRow> {
  try {
    const out = await ctx.host.call<{ path: string; url: string }>('documents.render_pdf', { template: 'layout', name: invoice.invoice_number, data: invoiceLayout(invoiceDocument(invoice, order)) });
    await ctx.host.db.update<InvoiceRow>('Invoice', { pdf_path: out.path, pdf_url: out.url }, { where: { id: invoice.id } });
    return { ...invoice, pdf_path: out.path, pdf_url: out.url };
  } catch (err) {
    // The invoice stands without its PDF; it is rendered again on the next GET …/invoices.
    ctx.host.log.error('invoice PDF not rendered', { invoice: invoice.invoice_number, error: (err as Error).message });
    return invoice;
  }
}

export async function listInvoices(input: { id: string }, ctx: HandlerContext) {
  const order = await loadOrder(ctx.host.db, input.id);
  const rows = await ctx.host.db.find<InvoiceRow>('Invoice', { where: { order_id: order.id }, order: [['created_at', 'ASC'], ['invoice_number', 'ASC']], limit: 1000 });
  const out = [];
  for (const r of rows) out.push(r.pdf_path ? r : await renderPdf(ctx, r, order));
  return { invoices: out };
}
