/**
 * Lays out a wallet statement with pdfkit (reseller_finance: spec 3, Wallet, transaction): the
 * account holder and period, opening balance, one row per movement (date, type, reference, order,
 * description, signed amount, running balance), the period's credits and debits and the closing
 * balance. The table's header is repeated on each page. Dates are the UTC day, the calendar the
 * statement's period is counted in; amounts are grouped the Indian way under a currency heading
 * (Helvetica has no rupee sign).
 */
import type { StatementDocument, StatementDocumentLine } from '../../sdk';
import { groupIndian } from './indian-numbers';

const LEFT = 40;
const WIDTH = 515;
const BOTTOM = 780;

type Column = { title: string; width: number; align?: 'right'; cell: (l: StatementDocumentLine) => string };

/** A signed decimal string grouped the Indian way: "-12345.60" → "-12,345.60". */
const signedMoney = (v: string) => (v.startsWith('-') ? `-${groupIndian(v.slice(1))}` : groupIndian(v));
/** "2026-12-01T10:00:00.000Z" → "01-12-2026" (the UTC day). */
const utcDay = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;

const COLUMNS: Column[] = [
  { title: 'Date', width: 52, cell: (l) => utcDay(l.date) },
  { title: 'Type', width: 36, cell: (l) => l.type },
  { title: 'Reference', width: 92, cell: (l) => l.reference },
  { title: 'Order', width: 92, cell: (l) => l.order_number ?? '' },
  { title: 'Description', width: 95, cell: (l) => l.description },
  { title: 'Amount', width: 70, align: 'right', cell: (l) => signedMoney(l.amount) },
  { title: 'Balance', width: 78, align: 'right', cell: (l) => signedMoney(l.balance) },
];

/** One table row from the current y; each cell on one line, cut with an ellipsis where too long. */
function row(doc: PDFKit.PDFDocument, cells: string[], bold = false) {
  const y = doc.y;
  let x = LEFT;
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8);
  COLUMNS.forEach((c, i) => {
    // One line high: a longer cell is cut with an ellipsis rather than wrapped over the next row.
    doc.text(cells[i], x, y, { width: c.width - 4, height: 10, align: c.align ?? 'left', ellipsis: true });
    x += c.width;
  });
  doc.x = LEFT;
  doc.y = y + 13;
}

function header(doc: PDFKit.PDFDocument) {
  row(doc, COLUMNS.map((c) => c.title), true);
  doc.moveTo(LEFT, doc.y - 2).lineTo(LEFT + WIDTH, doc.y - 2).stroke();
}

/** A labelled balance line under or over the table: the label left, the amount in the Balance column. */
function balanceLine(doc: PDFKit.PDFDocument, label: string, amount: string) {
  const balanceX = LEFT + COLUMNS.slice(0, -1).reduce((a, c) => a + c.width, 0);
  const y = doc.y;
  doc.font('Helvetica-Bold').fontSize(9).text(label, LEFT, y, { lineBreak: false });
  doc.text(signedMoney(amount), balanceX, y, { width: COLUMNS[COLUMNS.length - 1].width - 4, align: 'right', lineBreak: false });
  doc.x = LEFT;
  doc.y = y + 15;
}

export function layoutStatement(doc: PDFKit.PDFDocument, d: StatementDocument) {
  doc.font('Helvetica-Bold').fontSize(16).text('WALLET STATEMENT', LEFT, 40);
  doc.moveDown(0.3).font('Helvetica').fontSize(10);
  doc.text(`Account holder: ${d.account_holder}`);
  doc.text(`Account: ${d.account_id}`);
  doc.text(`Period: ${utcDay(d.from)} to ${utcDay(d.to)} (UTC)`);
  doc.text(`Generated: ${d.generated_at}`);
  doc.text(`Amounts in ${d.currency}`);
  doc.moveDown();
  balanceLine(doc, 'Opening balance', d.opening_balance);
  header(doc);
  for (const line of d.lines) {
    if (doc.y > BOTTOM) {
      doc.addPage();
      header(doc);
    }
    row(doc, COLUMNS.map((c) => c.cell(line)));
  }
  if (!d.lines.length) doc.font('Helvetica-Oblique').fontSize(9).text('No movements in this period.', LEFT, doc.y).moveDown(0.5);
  if (doc.y > BOTTOM - 60) doc.addPage();
  doc.moveTo(LEFT, doc.y).lineTo(LEFT + WIDTH, doc.y).stroke();
  doc.y += 4;
  balanceLine(doc, 'Total credits', d.credits_total);
  balanceLine(doc, 'Total debits', d.debits_total);
  balanceLine(doc, 'Closing balance', d.closing_balance);
}
