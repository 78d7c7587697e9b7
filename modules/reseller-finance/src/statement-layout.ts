/**
 * The layout of a wallet statement (sdk DocumentLayout, drawn by the host's documents.render_pdf):
 * the account holder and period, opening balance, one row per movement (date, type, reference,
 * order, description, signed amount, running balance), the period's credits and debits and the
 * closing balance. The table's header is repeated on each page. Dates are the UTC day, the calendar
 * the statement's period is counted in; amounts are grouped the Indian way under a currency heading
 * (Helvetica has no rupee sign).
 */
import type { DocumentLayout, LayoutBlock, LayoutColumn } from '../../../sdk';

/** One movement line of a wallet statement: `amount` is signed (credit +, debit −), `balance` the running balance after it. */
export interface StatementDocumentLine {
  /** ISO 8601 UTC instant; printed as its UTC day, the calendar the statement's period is in. */
  date: string;
  type: string;
  reference: string;
  order_number: string | null;
  description: string;
  amount: string;
  balance: string;
}

/**
 * What the statement PDF prints: a wallet statement of one tenant over
 * a period of whole UTC days, opening balance, every movement with its running balance, closing balance.
 */
export interface StatementDocument {
  account_holder: string;
  account_id: string;
  currency: string;
  from: string;
  to: string;
  generated_at: string;
  opening_balance: string;
  credits_total: string;
  debits_total: string;
  closing_balance: string;
  lines: StatementDocumentLine[];
}

type Column = LayoutColumn & { cell: (l: StatementDocumentLine) => string };

/** "-12345.6" → "-12,345.60": the last three digits, then pairs (amounts are decimal strings, never floats). */
function signedMoney(v: string): string {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(v.trim());
  if (!m) return v;
  const [, sign, whole, cents = ''] = m;
  const head = whole!.slice(0, -3);
  return `${sign}${head ? `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${whole!.slice(-3)}` : whole}.${cents.padEnd(2, '0')}`;
}
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

const balance = (label: string, amount: string): LayoutBlock => ({ type: 'totals', rows: [{ label, value: signedMoney(amount), bold: true }] });

export function statementLayout(d: StatementDocument): DocumentLayout {
  const line = (text: string): LayoutBlock => ({ type: 'paragraph', text, size: 10 });
  return {
    blocks: [
      { type: 'heading', text: 'WALLET STATEMENT' },
      { type: 'space', lines: 0.3 },
      line(`Account holder: ${d.account_holder}`),
      line(`Account: ${d.account_id}`),
      line(`Period: ${utcDay(d.from)} to ${utcDay(d.to)} (UTC)`),
      line(`Generated: ${d.generated_at}`),
      line(`Amounts in ${d.currency}`),
      { type: 'space', lines: 1 },
      balance('Opening balance', d.opening_balance),
      { type: 'space', lines: 0.5 },
      { type: 'table', style: 'plain', columns: COLUMNS.map(({ title, width, align }) => ({ title, width, ...(align ? { align } : {}) })), rows: d.lines.map((l) => COLUMNS.map((c) => c.cell(l))) },
      ...(d.lines.length ? [] : [{ type: 'paragraph', text: 'No movements in this period.', italic: true } as const, { type: 'space', lines: 0.5 } as const]),
      { type: 'page_break', unless_space: 60 },
      { type: 'rule' },
      { type: 'totals', rows: [{ label: 'Total credits', value: signedMoney(d.credits_total), bold: true }, { label: 'Total debits', value: signedMoney(d.debits_total), bold: true }, { label: 'Closing balance', value: signedMoney(d.closing_balance), bold: true }] },
    ],
  };
}
