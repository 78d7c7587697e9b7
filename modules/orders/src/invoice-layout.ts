/**
 * The layout of a GST tax invoice, credit note or proforma (sdk DocumentLayout, drawn by the host's
 * documents.render_pdf), with the particulars Rule 46 of the CGST Rules asks of a tax invoice (and
 * Rule 53 of a credit note): supplier name, address and GSTIN; serial number and date of issue;
 * recipient name, address and GSTIN (or "Unregistered"); per line the HSN/SAC, description,
 * quantity and unit, value, taxable value, rate and CGST/SGST or IGST; place of supply with state
 * name and code; whether tax is payable on reverse charge; the total in figures and in words; the
 * authorised signatory. A credit note names the invoice it adjusts. A particular the module could
 * not give is printed as missing, never silently left out. Helvetica has no rupee sign, so amounts
 * are printed under an "INR" heading.
 */
import type { DocumentLayout, LayoutBlock, LayoutColumn, LayoutLeaf } from '../../../sdk';
import type { DocumentParty, InvoiceDocument, InvoiceDocumentLine } from './invoice-document';
import { amountInWords, groupIndian, indianDate } from '../../../sdk';

const MISSING = '#b91c1c';

const TITLES: Record<InvoiceDocument['kind'], string> = { tax_invoice: 'TAX INVOICE', credit_note: 'CREDIT NOTE', proforma: 'PROFORMA INVOICE' };
const NUMBER_LABEL: Record<InvoiceDocument['kind'], string> = { tax_invoice: 'Invoice No.', credit_note: 'Credit Note No.', proforma: 'Proforma No.' };

type Column = LayoutColumn & { cell: (l: InvoiceDocumentLine, i: number) => string };

const money = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '' : groupIndian(v));
const rate = (v: string | null) => (v === null ? 'mixed' : `${v.replace(/\.00$/, '')}%`);

function columns(sameState: boolean): Column[] {
  const head: Column[] = [
    { title: '#', width: 16, cell: (_l, i) => String(i + 1) },
    { title: 'Description', width: sameState ? 120 : 150, cell: (l) => l.description },
    { title: 'HSN/SAC', width: 48, cell: (l) => l.hsn_code ?? 'Not given' },
    { title: 'Qty', width: 30, align: 'right', cell: (l) => (l.quantity === null ? '' : String(l.quantity)) },
    { title: 'Unit', width: 30, cell: (l) => l.unit ?? '' },
    { title: 'Rate', width: sameState ? 50 : 55, align: 'right', cell: (l) => money(l.unit_price) },
    { title: 'Taxable value', width: sameState ? 58 : 62, align: 'right', cell: (l) => money(l.taxable_value) },
    { title: 'GST', width: 30, align: 'right', cell: (l) => rate(l.tax_rate) },
  ];
  const tax: Column[] = sameState
    ? [{ title: 'CGST', width: 44, align: 'right', cell: (l) => money(l.cgst) }, { title: 'SGST', width: 44, align: 'right', cell: (l) => money(l.sgst) }]
    : [{ title: 'IGST', width: 46, align: 'right', cell: (l) => money(l.igst) }];
  return [...head, ...tax, { title: 'Total', width: sameState ? 45 : 48, align: 'right', cell: (l) => money(l.total) }];
}

const text = (t: string): LayoutLeaf => ({ type: 'paragraph', text: t });
const caption = (t: string): LayoutLeaf => ({ type: 'paragraph', text: t.toUpperCase(), size: 8, bold: true, color: '#555555' });

/** A party's block: trade name, address, state with code, GSTIN (none for a delivery address: `gstinWhenNone` null), contact. */
function party(title: string, p: DocumentParty | null, gstinWhenNone: string | null): LayoutLeaf[] {
  if (!p) return [caption(title), { type: 'paragraph', text: 'Supplier details not set: fill the business profile (PUT /order-settings/business-profile).', color: MISSING }];
  const state = p.state ? `State: ${p.state}${p.state_code ? `, Code: ${p.state_code}` : ''}` : '';
  const contact = [p.phone, p.email].filter(Boolean).join('  ');
  const lines = [p.trade_name && p.trade_name !== p.name ? `(${p.trade_name})` : '', ...(p.address_lines ?? []), state, p.gstin || gstinWhenNone ? `GSTIN: ${p.gstin || gstinWhenNone}` : '', contact].filter(Boolean);
  return [
    caption(title),
    p.name ? { type: 'paragraph', text: p.name, bold: true } : { type: 'paragraph', text: 'Name not given', color: MISSING },
    ...lines.map(text),
  ];
}

function details(d: InvoiceDocument): LayoutLeaf {
  const place = d.place_of_supply ? `${d.place_of_supply.state}${d.place_of_supply.code ? ` (${d.place_of_supply.code})` : ''}` : null;
  const rows: Array<[string, string | null]> = [[NUMBER_LABEL[d.kind], d.number], ['Date of issue', indianDate(d.issued_at)]];
  if (d.kind === 'credit_note') {
    rows.push(['Against invoice', d.original_invoice ? `${d.original_invoice.number} dated ${indianDate(d.original_invoice.issued_at)}` : null]);
    if (d.reason) rows.push(['Reason', d.reason]);
  } else if (d.due_at) rows.push(['Due date', indianDate(d.due_at)]);
  if (d.order_number) rows.push(['Order', d.order_number]);
  rows.push(['Place of supply', place], ['Supply', d.same_state ? 'Intra-state (CGST + SGST)' : 'Inter-state (IGST)'], ['Tax payable on reverse charge', d.reverse_charge ? 'Yes' : 'No']);
  return { type: 'fields', rows: rows.map(([label, value]) => (value === null ? { label, value: 'not given', color: MISSING } : { label, value })) };
}

function totals(d: InvoiceDocument): LayoutBlock {
  const t = d.totals;
  const rows: Array<[string, string]> = [[`Taxable value (${d.currency})`, t.taxable_value]];
  if (t.discount !== '0.00') rows.push(['Discount', t.discount]);
  if (t.shipping !== '0.00') rows.push(['Shipping charges', t.shipping]);
  if (d.same_state) rows.push(['CGST', t.cgst], ['SGST', t.sgst]);
  else rows.push(['IGST', t.igst]);
  rows.push(['Total tax', t.total_tax]);
  return {
    type: 'totals',
    rows: [...rows.map(([label, value]) => ({ label, value: groupIndian(value) })), { label: `${d.kind === 'credit_note' ? 'Total credit' : 'Grand total'} (${d.currency})`, value: groupIndian(t.total), bold: true }],
  };
}

export function invoiceLayout(d: InvoiceDocument): DocumentLayout {
  const cols = columns(d.same_state);
  const blocks: LayoutBlock[] = [
    { type: 'heading', text: TITLES[d.kind], align: 'center' },
    ...(d.kind === 'proforma' ? [{ type: 'paragraph', text: 'Not a tax invoice', size: 8, align: 'center' } as const] : []),
    { type: 'space', lines: 0.8 },
    { type: 'columns', columns: [party('Supplier', d.seller, 'not given'), [details(d)]] },
    { type: 'columns', columns: [party('Bill to (recipient)', d.buyer, 'Unregistered'), ...(d.ship_to ? [party('Ship to', d.ship_to, null)] : [])] },
    {
      type: 'table',
      columns: cols.map(({ title, width, align }) => ({ title, width, ...(align ? { align } : {}) })),
      rows: d.lines.map((l, i) => cols.map((c) => (c.title === 'HSN/SAC' && l.hsn_code === null ? { text: 'Not given', color: MISSING } : c.cell(l, i)))),
    },
    { type: 'space', lines: 0.5 },
    totals(d),
    { type: 'space', lines: 0.5 },
    { type: 'fields', rows: [{ label: 'Amount in words', value: amountInWords(d.totals.total, d.currency) }] },
  ];
  if (d.lines.some((l) => l.hsn_code === null)) {
    blocks.push({ type: 'space', lines: 0.5 }, { type: 'paragraph', text: 'HSN/SAC "Not given": the order holds no HSN or SAC code for that line; add it to the product before issuing the next invoice.', size: 8, color: MISSING });
  }
  blocks.push(
    { type: 'page_break', unless_space: 60 },
    { type: 'space', lines: 2 },
    { type: 'paragraph', text: `For ${d.seller?.name ?? '(supplier not set)'}`, align: 'right' },
    { type: 'space', lines: 2.5 },
    ...(d.signatory ? [{ type: 'paragraph', text: d.signatory, align: 'right' } as const] : []),
    { type: 'paragraph', text: 'Authorised Signatory', bold: true, align: 'right' },
  );
  return { blocks };
}
