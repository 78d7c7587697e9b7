/**
 * Lays out a GST tax invoice, credit note or proforma with pdfkit, with the particulars Rule 46 of
 * the CGST Rules asks of a tax invoice (and Rule 53 of a credit note): supplier name, address and
 * GSTIN; serial number and date of issue; recipient name, address and GSTIN (or "Unregistered");
 * per line the HSN/SAC, description, quantity and unit, value, taxable value, rate and CGST/SGST or
 * IGST; place of supply with state name and code; whether tax is payable on reverse charge; the
 * total in figures and in words; the authorised signatory. A credit note names the invoice it
 * adjusts. A particular the module could not give is printed as missing, never silently left out.
 * Helvetica has no rupee sign, so amounts are printed under an "INR" heading.
 */
import type { DocumentParty, InvoiceDocument, InvoiceDocumentLine } from '../../sdk';
import { amountInWords, groupIndian, indianDate } from './indian-numbers';

const LEFT = 40;
const WIDTH = 515;
const BOTTOM = 790;
const MISSING = '#b91c1c';

const TITLES: Record<InvoiceDocument['kind'], string> = { tax_invoice: 'TAX INVOICE', credit_note: 'CREDIT NOTE', proforma: 'PROFORMA INVOICE' };
const NUMBER_LABEL: Record<InvoiceDocument['kind'], string> = { tax_invoice: 'Invoice No.', credit_note: 'Credit Note No.', proforma: 'Proforma No.' };

type Column = { title: string; width: number; align?: 'right'; cell: (l: InvoiceDocumentLine, i: number) => string };

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

/** Lines of text of a party: trade name, address, state with code, GSTIN (none for a delivery address: `gstinWhenNone` null), contact. */
function partyLines(p: DocumentParty, gstinWhenNone: string | null): string[] {
  const state = p.state ? `State: ${p.state}${p.state_code ? `, Code: ${p.state_code}` : ''}` : '';
  const contact = [p.phone, p.email].filter(Boolean).join('  ');
  return [p.trade_name && p.trade_name !== p.name ? `(${p.trade_name})` : '', ...(p.address_lines ?? []), state, p.gstin || gstinWhenNone ? `GSTIN: ${p.gstin || gstinWhenNone}` : '', contact].filter(Boolean);
}

/** Writes labelled blocks side by side from the same top; the page continues below the taller one. */
function sideBySide(doc: PDFKit.PDFDocument, blocks: Array<(x: number, width: number) => void>) {
  const top = doc.y;
  const width = WIDTH / blocks.length - 10;
  let bottom = top;
  blocks.forEach((draw, i) => {
    doc.x = LEFT + i * (width + 10);
    doc.y = top;
    draw(doc.x, width);
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = LEFT;
  doc.y = bottom + 8;
}

function heading(doc: PDFKit.PDFDocument, text: string, x: number, width: number) {
  doc.font('Helvetica-Bold').fontSize(8).fillColor('#555555').text(text.toUpperCase(), x, doc.y, { width }).fillColor('black').font('Helvetica').fontSize(9);
}

function party(doc: PDFKit.PDFDocument, title: string, p: DocumentParty | null, gstinWhenNone: string | null, x: number, width: number) {
  heading(doc, title, x, width);
  if (!p) {
    doc.fillColor(MISSING).text('Supplier details not set: fill the business profile (PUT /order-settings/business-profile).', x, doc.y, { width }).fillColor('black');
    return;
  }
  if (p.name) doc.font('Helvetica-Bold').text(p.name, x, doc.y, { width }).font('Helvetica');
  else doc.fillColor(MISSING).text('Name not given', x, doc.y, { width }).fillColor('black');
  for (const line of partyLines(p, gstinWhenNone)) doc.text(line, x, doc.y, { width });
}

function details(doc: PDFKit.PDFDocument, rows: Array<[string, string | null]>, x: number, width: number) {
  for (const [label, value] of rows) {
    doc.font('Helvetica-Bold').text(`${label}: `, x, doc.y, { width, continued: true }).font('Helvetica');
    if (value === null) doc.fillColor(MISSING).text('not given').fillColor('black');
    else doc.text(value);
  }
}

function table(doc: PDFKit.PDFDocument, d: InvoiceDocument) {
  const cols = columns(d.same_state);
  const row = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
    const height = Math.max(...cells.map((c, i) => doc.heightOfString(c || ' ', { width: cols[i]!.width - 4 }))) + 6;
    if (doc.y + height > BOTTOM) {
      doc.addPage();
      if (!bold) row(cols.map((c) => c.title), true);
    }
    const top = doc.y;
    let x = LEFT;
    cells.forEach((c, i) => {
      const col = cols[i]!;
      doc.fillColor(!bold && c === 'Not given' ? MISSING : 'black').text(c, x + 2, top + 3, { width: col.width - 4, align: col.align ?? 'left' });
      x += col.width;
    });
    doc.fillColor('black').moveTo(LEFT, top + height).lineTo(LEFT + WIDTH, top + height).lineWidth(0.5).strokeColor('#999999').stroke();
    doc.x = LEFT;
    doc.y = top + height;
  };
  doc.moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).lineWidth(0.5).strokeColor('#999999').stroke();
  row(cols.map((c) => c.title), true);
  d.lines.forEach((l, i) => row(cols.map((c) => c.cell(l, i)), false));
  doc.font('Helvetica').fontSize(9);
}

function totals(doc: PDFKit.PDFDocument, d: InvoiceDocument) {
  const t = d.totals;
  const rows: Array<[string, string]> = [[`Taxable value (${d.currency})`, t.taxable_value]];
  if (t.discount !== '0.00') rows.push(['Discount', t.discount]);
  if (t.shipping !== '0.00') rows.push(['Shipping charges', t.shipping]);
  if (d.same_state) rows.push(['CGST', t.cgst], ['SGST', t.sgst]);
  else rows.push(['IGST', t.igst]);
  rows.push(['Total tax', t.total_tax]);
  doc.moveDown(0.5);
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.text(label, LEFT + 280, y, { width: 135 }).text(groupIndian(value), LEFT + 415, y, { width: 100, align: 'right' });
  }
  const y = doc.y + 2;
  doc.font('Helvetica-Bold').text(`${d.kind === 'credit_note' ? 'Total credit' : 'Grand total'} (${d.currency})`, LEFT + 280, y, { width: 135 })
    .text(groupIndian(t.total), LEFT + 415, y, { width: 100, align: 'right' }).font('Helvetica');
  doc.x = LEFT;
  doc.moveDown(0.5).font('Helvetica-Bold').text('Amount in words: ', LEFT, doc.y, { width: WIDTH, continued: true }).font('Helvetica').text(amountInWords(t.total, d.currency));
}

export function layoutGstInvoice(doc: PDFKit.PDFDocument, d: InvoiceDocument) {
  doc.font('Helvetica-Bold').fontSize(16).text(TITLES[d.kind], LEFT, 40, { width: WIDTH, align: 'center' });
  if (d.kind === 'proforma') doc.font('Helvetica').fontSize(8).text('Not a tax invoice', { width: WIDTH, align: 'center' });
  doc.font('Helvetica').fontSize(9).moveDown(0.8);
  const place = d.place_of_supply ? `${d.place_of_supply.state}${d.place_of_supply.code ? ` (${d.place_of_supply.code})` : ''}` : null;
  const rows: Array<[string, string | null]> = [[NUMBER_LABEL[d.kind], d.number], ['Date of issue', indianDate(d.issued_at)]];
  if (d.kind === 'credit_note') {
    rows.push(['Against invoice', d.original_invoice ? `${d.original_invoice.number} dated ${indianDate(d.original_invoice.issued_at)}` : null]);
    if (d.reason) rows.push(['Reason', d.reason]);
  } else if (d.due_at) rows.push(['Due date', indianDate(d.due_at)]);
  if (d.order_number) rows.push(['Order', d.order_number]);
  rows.push(['Place of supply', place], ['Supply', d.same_state ? 'Intra-state (CGST + SGST)' : 'Inter-state (IGST)'], ['Tax payable on reverse charge', d.reverse_charge ? 'Yes' : 'No']);
  sideBySide(doc, [(x, w) => party(doc, 'Supplier', d.seller, 'not given', x, w), (x, w) => details(doc, rows, x, w)]);
  sideBySide(doc, [
    (x, w) => party(doc, 'Bill to (recipient)', d.buyer, 'Unregistered', x, w),
    ...(d.ship_to ? [(x: number, w: number) => party(doc, 'Ship to', d.ship_to!, null, x, w)] : []),
  ]);
  table(doc, d);
  totals(doc, d);
  if (d.lines.some((l) => l.hsn_code === null)) {
    doc.moveDown(0.5).fontSize(8).fillColor(MISSING).text('HSN/SAC "Not given": the order holds no HSN or SAC code for that line; add it to the product before issuing the next invoice.', LEFT, doc.y, { width: WIDTH }).fillColor('black').fontSize(9);
  }
  if (doc.y > BOTTOM - 60) doc.addPage();
  doc.moveDown(2).text(`For ${d.seller?.name ?? '(supplier not set)'}`, LEFT + 315, doc.y, { width: 200, align: 'right' });
  doc.moveDown(2.5);
  if (d.signatory) doc.text(d.signatory, LEFT + 315, doc.y, { width: 200, align: 'right' });
  doc.font('Helvetica-Bold').text('Authorised Signatory', LEFT + 315, doc.y, { width: 200, align: 'right' }).font('Helvetica');
}
