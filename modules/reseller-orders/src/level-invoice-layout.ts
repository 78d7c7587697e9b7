/**
 * The layout of a tax invoice or credit note between two levels (sdk DocumentLayout, drawn by the
 * host's documents.render_pdf), with the particulars of Rule 46 of the CGST Rules (Rule 53 for a
 * credit note) as the customer invoice prints them (modules/orders/src/invoice-layout.ts): both
 * parties with addresses and GSTINs, number and date, place of supply, the lines with HSN, the
 * CGST/SGST or IGST split, the totals in figures and words, the authorised signatory. A level
 * invoice always has both parties (their business profiles), no ship-to, discount or shipping.
 */
import type { DocumentLayout, LayoutColumn, LayoutLeaf } from '../../../sdk';
import { amountInWords, groupIndian, indianDate } from '../../../sdk';
import type { GstLine, GstParty } from './level-gst';
import type { LevelInvoiceRow } from './level-invoices';

const MISSING = '#b91c1c';

type Document = Omit<LevelInvoiceRow, 'key' | 'pdf_path' | 'pdf_url' | 'chain_order_id' | 'buyer_tenant_id'>;
type Column = LayoutColumn & { cell: (l: GstLine, i: number) => string };

const rate = (v: string) => `${v.replace(/\.00$/, '')}%`;

function columns(sameState: boolean): Column[] {
  const head: Column[] = [
    { title: '#', width: 16, cell: (_l, i) => String(i + 1) },
    { title: 'Description', width: sameState ? 120 : 150, cell: (l) => l.description },
    { title: 'HSN/SAC', width: 48, cell: (l) => l.hsn_code ?? 'Not given' },
    { title: 'Qty', width: 30, align: 'right', cell: (l) => String(l.quantity) },
    { title: 'Unit', width: 30, cell: () => 'NOS' },
    { title: 'Rate', width: sameState ? 50 : 55, align: 'right', cell: (l) => groupIndian(l.unit_price) },
    { title: 'Taxable value', width: sameState ? 58 : 62, align: 'right', cell: (l) => groupIndian(l.taxable_value) },
    { title: 'GST', width: 30, align: 'right', cell: (l) => rate(l.tax_rate) },
  ];
  const tax: Column[] = sameState
    ? [{ title: 'CGST', width: 44, align: 'right', cell: (l) => groupIndian(l.cgst) }, { title: 'SGST', width: 44, align: 'right', cell: (l) => groupIndian(l.sgst) }]
    : [{ title: 'IGST', width: 46, align: 'right', cell: (l) => groupIndian(l.igst) }];
  return [...head, ...tax, { title: 'Total', width: sameState ? 45 : 48, align: 'right', cell: (l) => groupIndian(l.total) }];
}

function party(title: string, p: GstParty, gstinWhenNone: string): LayoutLeaf[] {
  const state = p.state ? `State: ${p.state}${p.state_code ? `, Code: ${p.state_code}` : ''}` : '';
  return [
    { type: 'paragraph', text: title.toUpperCase(), size: 8, bold: true, color: '#555555' },
    p.name ? { type: 'paragraph', text: p.name, bold: true } : { type: 'paragraph', text: 'Name not given', color: MISSING },
    ...[...p.address_lines, state, `GSTIN: ${p.gstin || gstinWhenNone}`].filter(Boolean).map((text): LayoutLeaf => ({ type: 'paragraph', text })),
  ];
}

export function levelInvoiceLayout(d: Document): DocumentLayout {
  const credit = d.type === 'credit_note';
  const cols = columns(d.same_state);
  const place = d.place_of_supply ? `${d.place_of_supply.state}${d.place_of_supply.code ? ` (${d.place_of_supply.code})` : ''}` : null;
  const rows: Array<[string, string | null]> = [[credit ? 'Credit Note No.' : 'Invoice No.', d.invoice_number], ['Date of issue', indianDate(d.issued_at)]];
  if (credit) {
    rows.push(['Against invoice', d.original_invoice ? `${d.original_invoice.invoice_number} dated ${indianDate(d.original_invoice.issued_at)}` : null]);
    if (d.reason) rows.push(['Reason', d.reason]);
  }
  rows.push(['Order', d.origin_order_number], ['Place of supply', place], ['Supply', d.same_state ? 'Intra-state (CGST + SGST)' : 'Inter-state (IGST)'], ['Tax payable on reverse charge', 'No']);
  const totals: Array<[string, string]> = [[`Taxable value (${d.currency})`, d.taxable_value], ...(d.same_state ? [['CGST', d.cgst], ['SGST', d.sgst]] as Array<[string, string]> : [['IGST', d.igst] as [string, string]]), ['Total tax', d.total_tax]];
  return {
    blocks: [
      { type: 'heading', text: credit ? 'CREDIT NOTE' : 'TAX INVOICE', align: 'center' },
      { type: 'space', lines: 0.8 },
      { type: 'columns', columns: [party('Supplier', d.seller, 'not given'), [{ type: 'fields', rows: rows.map(([label, value]) => (value === null ? { label, value: 'not given', color: MISSING } : { label, value })) }]] },
      { type: 'columns', columns: [party('Bill to (recipient)', d.buyer, 'Unregistered')] },
      {
        type: 'table',
        columns: cols.map(({ title, width, align }) => ({ title, width, ...(align ? { align } : {}) })),
        rows: d.lines.map((l, i) => cols.map((c) => (c.title === 'HSN/SAC' && l.hsn_code === null ? { text: 'Not given', color: MISSING } : c.cell(l, i)))),
      },
      { type: 'space', lines: 0.5 },
      { type: 'totals', rows: [...totals.map(([label, value]) => ({ label, value: groupIndian(value) })), { label: `${credit ? 'Total credit' : 'Grand total'} (${d.currency})`, value: groupIndian(d.total), bold: true }] },
      { type: 'space', lines: 0.5 },
      { type: 'fields', rows: [{ label: 'Amount in words', value: amountInWords(d.total, d.currency) }] },
      ...(d.lines.some((l) => l.hsn_code === null)
        ? [{ type: 'space', lines: 0.5 } as const, { type: 'paragraph', text: 'HSN/SAC "Not given": the order holds no HSN or SAC code for that line; add it to the product before issuing the next invoice.', size: 8, color: MISSING } as const]
        : []),
      { type: 'page_break', unless_space: 60 },
      { type: 'space', lines: 2 },
      { type: 'paragraph', text: `For ${d.seller.name ?? '(supplier not set)'}`, align: 'right' },
      { type: 'space', lines: 2.5 },
      { type: 'paragraph', text: 'Authorised Signatory', bold: true, align: 'right' },
    ],
  };
}
