/**
 * GST tax invoices between the levels of the chain (README: GST invoices between levels; spec 3 is
 * silent). When a chain order is delivered each level that sold it to the level below (it has a
 * child on the order) issues that child a tax invoice for its bound price (level-gst.ts: lines,
 * split, parties) before its copy turns delivered, as its settlement is; a return or a full refund
 * reverses it by a credit note for the whole invoice, before the copy turns returned/refunded.
 *
 * Numbers: the seller's own reseller series, apart from its customer invoices (which its orders
 * module numbers): RINV-<YYYYMM>-<NNNN> and RCN-<YYYYMM>-<NNNN>, India's month at issue, the counter
 * host.db.sequence taken in the transaction that inserts the document (a rolled-back insert rolls it
 * back: no gap, no duplicate), at most 16 characters (Rule 46 of the CGST Rules) up to 9999 a month.
 *
 * Once per order and level: the key "<chain_ref>:invoice" (":credit_note" for the return or full
 * refund, ":credit_note:<refund id>" for a partial refund) is unique, so of two concurrent deliveries
 * (a re-sent push) one inserts and the other finds it.
 *
 * The invoice lives with its seller. Its buyer reads it from there through a related call that the
 * seller answers for the child on the order only (invoicesToChild), so a level sees the invoices it
 * issued and received and never those between two other levels.
 */
import Decimal from 'decimal.js';
import { related, type HandlerContext } from '../../../sdk';
import type { ChainOrderRow } from './chain';
import { chainErrors, notFound } from './errors';
import { levelInvoiceLayout } from './level-invoice-layout';
import { isSameState, ownParty, saleLines, totalsOf, type GstLine, type GstParty } from './level-gst';

export type LevelInvoiceRow = {
  id: string; key: string; chain_order_id: string; chain_ref: string; origin_order_number: string; type: 'invoice' | 'credit_note'; invoice_number: string;
  buyer_tenant_id: string; seller: GstParty; buyer: GstParty; place_of_supply: { state: string; code: string | null } | null; same_state: boolean; lines: GstLine[];
  taxable_value: string; cgst: string; sgst: string; igst: string; total_tax: string; total: string; currency: string;
  original_invoice: { id: string; invoice_number: string; issued_at: string } | null; reason: string | null; pdf_path: string | null; pdf_url: string | null; issued_at: string; created_at: string;
};

const PREFIX = { invoice: 'RINV', credit_note: 'RCN' } as const;
/** India has one time zone and no daylight saving: UTC+05:30 (the printed date's calendar). */
const INDIA_OFFSET_MS = 19_800_000;
const period = (ms: number) => {
  const d = new Date(ms + INDIA_OFFSET_MS);
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
};

const byKey = (ctx: HandlerContext, key: string) => ctx.host.db.findOne<LevelInvoiceRow>('LevelInvoice', { where: { key } });

/** Inserts a document under the next number of its series, once per key (a concurrent twin's row is returned instead). */
async function insertOnce(ctx: HandlerContext, key: string, type: LevelInvoiceRow['type'], values: Omit<LevelInvoiceRow, 'id' | 'key' | 'type' | 'invoice_number' | 'issued_at' | 'created_at' | 'pdf_path' | 'pdf_url'>): Promise<LevelInvoiceRow> {
  const existing = await byKey(ctx, key);
  if (existing) return existing;
  try {
    return await ctx.host.db.transaction(async (tx) => {
      const now = ctx.host.now();
      const series = `${PREFIX[type]}-${period(now)}`;
      const n = await tx.sequence(`level-invoice:${series}`);
      const at = new Date(now).toISOString();
      return tx.create<LevelInvoiceRow>('LevelInvoice', { ...values, key, type, invoice_number: `${series}-${String(n).padStart(4, '0')}`, issued_at: at, created_at: at });
    });
  } catch (err) {
    const again = await byKey(ctx, key);
    if (again) return again;
    throw err;
  }
}

/** What a remittance between seller and buyer carries of an invoice or credit note (README: the GST moves through the wallets). */
export type InvoiceAmounts = { total: string; total_tax: string };
const amountsOf = (t: InvoiceAmounts): InvoiceAmounts => ({ total: t.total, total_tax: t.total_tax });

/**
 * At delivery: this level's tax invoice to the level below for its bound price (nothing at a level
 * that sold to the customer only), issued once; the one issued before is answered as it is.
 */
export async function issueLevelInvoice(ctx: HandlerContext, row: ChainOrderRow): Promise<InvoiceAmounts | null> {
  if (!row.child_tenant_id) return null;
  const key = `${row.chain_ref}:invoice`;
  const issued = await byKey(ctx, key);
  if (issued) return amountsOf(issued);
  const name = row.chain_path.find((p) => p.tenant_id === ctx.tenantId)?.tenant_name ?? null;
  const seller = await ownParty(ctx, name);
  const childName = row.chain_path.find((p) => p.tenant_id === row.child_tenant_id)?.tenant_name ?? null;
  const buyer: GstParty = row.buyer_party ?? { tenant_id: row.child_tenant_id, name: childName, gstin: null, address_lines: [], state: null, state_code: null };
  const sameState = isSameState(seller, buyer);
  const lines = saleLines(row, sameState);
  // Goods delivered to a third party at the buyer's direction: supplied where the buyer is (section 10(1)(b) of the IGST Act).
  const placeOfSupply = buyer.state ? { state: buyer.state, code: buyer.state_code } : seller.state ? { state: seller.state, code: seller.state_code } : null;
  return amountsOf(await insertOnce(ctx, key, 'invoice', {
    chain_order_id: row.id, chain_ref: row.chain_ref, origin_order_number: row.origin_order_number, buyer_tenant_id: row.child_tenant_id,
    seller, buyer, place_of_supply: placeOfSupply, same_state: sameState, lines, ...totalsOf(lines), currency: 'INR', original_invoice: null, reason: null,
  }));
}

/**
 * reseller_orders.invoice_to_child, in the seller: its invoice to the calling child for one order,
 * which the child's settlement carries (so both copies of their remittance use the seller's own
 * figures, never a recomputation). The delivered state reaches every level at once, so the child
 * may ask before this level's own copy has it: the invoice is issued now, once (the copy's delivery
 * then finds it). Null for a copy delivered before invoices were issued (its money stays on the
 * bound price); a copy not yet shipped has nothing to invoice.
 */
export async function invoiceToChild(ctx: HandlerContext, child: string, chainRef: string): Promise<{ invoice: InvoiceAmounts | null }> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: chainRef } });
  if (!row || row.child_tenant_id !== child) throw notFound(chainRef);
  const issued = await byKey(ctx, `${chainRef}:invoice`);
  if (issued) return { invoice: amountsOf(issued) };
  if (row.chain_status === 'shipped') return { invoice: await issueLevelInvoice(ctx, row) };
  if (['delivered', 'returned', 'refunded'].includes(row.chain_status)) return { invoice: null };
  throw chainErrors.notDelivered(chainRef, row.chain_status);
}

/** The invoice's lines with each amount mapped (cgst, sgst, igst and taxable value each; the line total their sum). */
function linesBy(invoice: LevelInvoiceRow, amount: (line: number, key: 'taxable_value' | 'cgst' | 'sgst' | 'igst') => Decimal): GstLine[] {
  return invoice.lines.map((l, n) => {
    const [taxable, cgst, sgst, igst] = (['taxable_value', 'cgst', 'sgst', 'igst'] as const).map((k) => amount(n, k));
    return { ...l, taxable_value: taxable!.toFixed(2), cgst: cgst!.toFixed(2), sgst: sgst!.toFixed(2), igst: igst!.toFixed(2), total: taxable!.plus(cgst!).plus(sgst!).plus(igst!).toFixed(2) };
  });
}

/** Issues a credit note once; its amounts, also when zero (nothing to credit: no document). */
async function creditNote(ctx: HandlerContext, invoice: LevelInvoiceRow, key: string, lines: GstLine[], reason: string): Promise<InvoiceAmounts> {
  const totals = totalsOf(lines);
  if (new Decimal(totals.total).isZero()) return amountsOf(totals); // nothing left to credit
  await insertOnce(ctx, key, 'credit_note', {
    chain_order_id: invoice.chain_order_id, chain_ref: invoice.chain_ref, origin_order_number: invoice.origin_order_number, buyer_tenant_id: invoice.buyer_tenant_id,
    seller: invoice.seller, buyer: invoice.buyer, place_of_supply: invoice.place_of_supply, same_state: invoice.same_state, lines, ...totals, currency: invoice.currency,
    original_invoice: { id: invoice.id, invoice_number: invoice.invoice_number, issued_at: invoice.issued_at },
    reason,
  });
  return amountsOf(totals);
}

/**
 * A return or full refund: what is left of the invoice (all of it, less the partial refunds' credit
 * notes) reversed by a credit note (Rule 53), once; nothing where no invoice was issued (delivered before 1.2.0).
 */
export async function creditLevelInvoice(ctx: HandlerContext, row: ChainOrderRow, cause: 'returned' | 'refunded'): Promise<void> {
  const invoice = await byKey(ctx, `${row.chain_ref}:invoice`);
  if (!invoice) return;
  const credited = await ctx.host.db.find<LevelInvoiceRow>('LevelInvoice', { where: { chain_ref: row.chain_ref, type: 'credit_note' }, limit: MAX_ROWS });
  const left = linesBy(invoice, (n, k) => credited.reduce((s, cn) => s.minus(cn.lines[n]?.[k] ?? 0), new Decimal(invoice.lines[n]![k])));
  await creditNote(ctx, invoice, `${row.chain_ref}:credit_note`, left, cause === 'returned' ? 'order returned' : 'order refunded to the customer');
}

/**
 * A partial refund (README: the pro rata rule): the refund's part of every amount of the invoice,
 * line by line, by the rule that gives this level's share (`part`), so the credit notes of refunds
 * adding up to the customer total credit the invoice exactly. Once per refund id; its amounts are
 * what the refund share with the buyer moves (null: no invoice, delivered before 1.2.0).
 */
export async function creditRefundedShare(ctx: HandlerContext, row: ChainOrderRow, refund: { refund_id: string; amount: string; total_refunded: string }, part: (a: Decimal.Value) => Decimal): Promise<InvoiceAmounts | null> {
  const invoice = await byKey(ctx, `${row.chain_ref}:invoice`);
  if (!invoice) return null;
  const lines = linesBy(invoice, (n, k) => part(invoice.lines[n]![k]));
  return creditNote(ctx, invoice, `${row.chain_ref}:credit_note:${refund.refund_id}`, lines, `${refund.amount} of ${row.origin_total} refunded to the customer (refund ${refund.refund_id})`);
}

export type InvoiceView = Omit<LevelInvoiceRow, 'key' | 'pdf_path' | 'pdf_url' | 'chain_order_id' | 'buyer_tenant_id'> & { direction: 'issued' | 'received' };

const view = (r: LevelInvoiceRow, direction: InvoiceView['direction']): InvoiceView => {
  const { key: _k, pdf_path: _p, pdf_url: _u, chain_order_id: _c, buyer_tenant_id: _b, ...rest } = r;
  return { ...rest, direction };
};

const ORDER: Array<[keyof LevelInvoiceRow, 'ASC' | 'DESC']> = [['issued_at', 'ASC'], ['invoice_number', 'ASC']];

/** reseller_orders.invoices_to_child, in the seller: its documents to the calling child, for one order or a period. */
export async function invoicesToChild(ctx: HandlerContext, child: string, input: { chain_ref?: string; from_date?: string; to_date?: string }): Promise<{ invoices: InvoiceView[] }> {
  const where: Record<string, unknown> = { buyer_tenant_id: child };
  if (input.chain_ref) {
    const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { chain_ref: input.chain_ref }, attributes: ['child_tenant_id'] });
    if (!row || row.child_tenant_id !== child) throw notFound(input.chain_ref);
    where.chain_ref = input.chain_ref;
  }
  Object.assign(where, issuedRange(input));
  const rows = await ctx.host.db.find<LevelInvoiceRow>('LevelInvoice', { where: where as never, order: ORDER, limit: MAX_ROWS });
  return { invoices: rows.map((r) => view(r, 'received')) };
}

/** At most this many documents a list answers (a period's list for a GST return is asked for a month). */
export const MAX_ROWS = 1000;

const issuedRange = (input: { from_date?: string; to_date?: string }) => {
  const range: Record<string, string> = {};
  if (input.from_date) range.$gte = `${input.from_date}T00:00:00.000Z`;
  if (input.to_date) range.$lte = `${input.to_date}T23:59:59.999Z`;
  return Object.keys(range).length ? { issued_at: range } : {};
};

/** GET /chain-orders/{id}/invoices: what this level issued to the level below and received from the one above, for its own copy. */
export async function invoicesOfOrder(ctx: HandlerContext, id: string): Promise<{ invoices: InvoiceView[] }> {
  const row = await ctx.host.db.findOne<ChainOrderRow>('ChainOrder', { where: { id } });
  if (!row) throw notFound(id);
  const issued = (await ctx.host.db.find<LevelInvoiceRow>('LevelInvoice', { where: { chain_order_id: row.id }, order: ORDER, limit: 10 })).map((r) => view(r, 'issued'));
  const received = row.parent_tenant_id ? (await related(ctx.host).call<{ invoices: InvoiceView[] }>(row.parent_tenant_id, 'reseller_orders.invoices_to_child', { chain_ref: row.chain_ref })).invoices : [];
  return { invoices: [...received, ...issued] };
}

/** GET /chain-invoices: a period's documents issued by this tenant and received from its parent (for its GST returns). */
export async function invoicesOfPeriod(ctx: HandlerContext, input: { direction?: 'issued' | 'received'; from_date?: string; to_date?: string }): Promise<{ invoices: InvoiceView[] }> {
  const out: InvoiceView[] = [];
  if (input.direction !== 'received') {
    const rows = await ctx.host.db.find<LevelInvoiceRow>('LevelInvoice', { where: issuedRange(input) as never, order: ORDER, limit: MAX_ROWS });
    out.push(...rows.map((r) => view(r, 'issued')));
  }
  if (input.direction !== 'issued') {
    const { tenant: parent } = await related(ctx.host).parent();
    if (parent) out.push(...(await related(ctx.host).call<{ invoices: InvoiceView[] }>(parent.id, 'reseller_orders.invoices_to_child', { from_date: input.from_date, to_date: input.to_date })).invoices);
  }
  return { invoices: out };
}

export const CSV_COLUMNS = ['direction', 'type', 'invoice_number', 'issued_at', 'origin_order_number', 'seller_name', 'seller_gstin', 'buyer_name', 'buyer_gstin', 'place_of_supply', 'taxable_value', 'cgst', 'sgst', 'igst', 'total_tax', 'total', 'original_invoice_number'] as const;

/** The period's list as CSV rows, one per document (a credit note's amounts as issued: its type says it reverses). */
export function csvRows(invoices: InvoiceView[]): string[][] {
  return invoices.map((i) => [
    i.direction, i.type, i.invoice_number, i.issued_at, i.origin_order_number, i.seller.name ?? '', i.seller.gstin ?? '', i.buyer.name ?? '', i.buyer.gstin ?? '',
    i.place_of_supply ? `${i.place_of_supply.code ?? ''}-${i.place_of_supply.state}` : '', i.taxable_value, i.cgst, i.sgst, i.igst, i.total_tax, i.total, i.original_invoice?.invoice_number ?? '',
  ]);
}

/** The PDF as the host draws the module's layout (./level-invoice-layout.ts). */
const render = (ctx: HandlerContext, i: InvoiceView | LevelInvoiceRow) => ctx.host.call<{ path: string; url: string }>('documents.render_pdf', { template: 'layout', name: i.invoice_number, data: levelInvoiceLayout(i) });

const { invoiceNotFound } = chainErrors;

/**
 * GET /chain-orders/{id}/invoices/{invoice_id}/pdf: the document laid out by the host (rendered
 * once, in the caller's own files: the seller's copy, or the buyer's from the data its parent gives).
 */
export async function invoicePdf(ctx: HandlerContext, id: string, invoiceId: string): Promise<{ invoice_number: string; pdf_url: string }> {
  const own = await ctx.host.db.findOne<LevelInvoiceRow>('LevelInvoice', { where: { id: invoiceId, chain_order_id: id } });
  if (own) {
    if (own.pdf_url) return { invoice_number: own.invoice_number, pdf_url: own.pdf_url };
    const out = await render(ctx, own);
    await ctx.host.db.update<LevelInvoiceRow>('LevelInvoice', { pdf_path: out.path, pdf_url: out.url }, { where: { id: own.id } });
    return { invoice_number: own.invoice_number, pdf_url: out.url };
  }
  const received = (await invoicesOfOrder(ctx, id)).invoices.find((i) => i.id === invoiceId && i.direction === 'received');
  if (!received) throw invoiceNotFound(invoiceId);
  const kept = await ctx.host.db.findOne<{ invoice_id: string; pdf_url: string }>('ReceivedInvoicePdf', { where: { invoice_id: received.id } });
  if (kept) return { invoice_number: received.invoice_number, pdf_url: kept.pdf_url };
  const out = await render(ctx, received);
  try {
    await ctx.host.db.create('ReceivedInvoicePdf', { invoice_id: received.id, pdf_path: out.path, pdf_url: out.url });
  } catch {
    // Two first downloads at once: the other's file is kept; this one answers with its own.
  }
  return { invoice_number: received.invoice_number, pdf_url: out.url };
}
