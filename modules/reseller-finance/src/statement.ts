/**
 * Wallet statements (spec 3 is silent; README, Statements): the balance of a tenant's wallet over
 * a period of whole UTC days — the opening balance, every movement of the balance in order (date,
 * type, reference, chain order, signed amount, running balance) and the closing balance, so that
 * opening + movements = closing to the paisa. Credits and debits move the balance; holds and
 * releases only set money aside within it (spec 3, Transaction types; README, Money and the
 * ledger), so they are not statement lines. The same lines serve the JSON, the CSV pages and the PDF.
 */
import type { Db } from '../../../sdk';
import { invalidPeriod } from './errors';
import { D, money, type Dec } from './money';
import { allRows } from './reports';
import type { StatementDocument } from './statement-layout';
import type { CollectionRow, RemittanceRow } from './settlement';
import type { TransactionRow } from './wallet';

const BALANCE_TYPES: ReadonlyArray<TransactionRow['type']> = ['credit', 'debit'];
/** A year and a day: a calendar year's statement, whatever its leap day. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

export interface Period {
  from: string;
  to: string;
  /** First and last instant of the period (UTC). */
  start: string;
  end: string;
}

export interface StatementLine {
  id: string;
  date: string;
  type: 'credit' | 'debit';
  reference_type: string;
  reference_id: string;
  chain_order_id: string | null;
  order_number: string | null;
  description: string;
  /** Signed: a credit adds to the balance, a debit takes from it. */
  amount: string;
  /** The running balance after this line. */
  balance: string;
}

/** from and to (YYYY-MM-DD, inclusive); to is today by default, from the first day of to's month. */
export function statementPeriod(input: { from?: string; to?: string }, now: number): Period {
  const today = new Date(now).toISOString().slice(0, 10);
  const to = input.to ?? today;
  const from = input.from ?? `${(input.to ?? today).slice(0, 7)}-01`;
  const start = Date.parse(`${from}T00:00:00.000Z`);
  const end = Date.parse(`${to}T23:59:59.999Z`);
  // Date.parse takes 2026-02-31 as 3 March: a day is valid only if it reads back the same.
  const real = (ms: number, d: string) => !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === d;
  if (!real(start, from) || !real(end, to)) throw invalidPeriod('from and to are calendar days (YYYY-MM-DD)', from, to);
  if (start > end) throw invalidPeriod('from is after to', from, to);
  if (Math.ceil((end - start) / DAY_MS) > MAX_DAYS) throw invalidPeriod(`a statement covers at most ${MAX_DAYS} days`, from, to);
  return { from, to, start: new Date(start).toISOString(), end: new Date(end).toISOString() };
}

const signed = (t: Pick<TransactionRow, 'type' | 'amount'>): Dec => (t.type === 'credit' ? new D(t.amount) : new D(t.amount).neg());

/** The balance before the period: every credit less every debit before its first instant. */
export async function openingBalance(db: Db, period: Period): Promise<string> {
  const before = await allRows<TransactionRow>(db, 'Transaction', { where: { type: { $in: BALANCE_TYPES }, created_at: { $lt: period.start } }, attributes: ['id', 'type', 'amount'], order: [['id', 'ASC']] });
  return money(before.reduce((a, t) => a.plus(signed(t)), new D(0)));
}

/** Where the last page ended: the last line's (date, id) and the running balance after it. */
export interface LineCursor {
  at: string;
  id: string;
  balance: string;
}

/** The chain order of each movement that has one (a chain order's credit, a remittance's credit or debit). */
async function chainOrders(db: Db, txs: TransactionRow[]) {
  const ids = (type: string) => [...new Set(txs.filter((t) => t.reference_type === type).map((t) => t.reference_id))];
  const [remittances, collections] = await Promise.all([
    ids('remittance').length ? db.find<RemittanceRow>('Remittance', { where: { id: { $in: ids('remittance') } }, attributes: ['id', 'chain_order_id', 'origin_order_number'] }) : [],
    ids('chain_order').length ? db.find<CollectionRow>('Collection', { where: { chain_order_id: { $in: ids('chain_order') } }, attributes: ['chain_order_id', 'origin_order_number'] }) : [],
  ]);
  const byRef = new Map<string, { chain_order_id: string; order_number: string }>();
  for (const r of remittances) byRef.set(`remittance:${r.id}`, { chain_order_id: r.chain_order_id, order_number: r.origin_order_number });
  for (const c of collections) byRef.set(`chain_order:${c.chain_order_id}`, { chain_order_id: c.chain_order_id, order_number: c.origin_order_number });
  return byRef;
}

/** Up to `limit` lines of the period after `cursor` (or from its start, at `opening`), oldest first, with running balances. */
export async function linePage(db: Db, period: Period, from: LineCursor | { balance: string }, limit: number): Promise<StatementLine[]> {
  const after = 'id' in from ? { $or: [{ created_at: { $gt: from.at } }, { created_at: from.at, id: { $gt: from.id } }] } : {};
  const txs = await db.find<TransactionRow>('Transaction', {
    where: { type: { $in: BALANCE_TYPES }, created_at: { $gte: period.start, $lte: period.end }, ...after },
    order: [['created_at', 'ASC'], ['id', 'ASC']],
    limit,
  });
  const orders = await chainOrders(db, txs);
  let balance = new D(from.balance);
  return txs.map((t) => {
    balance = balance.plus(signed(t));
    const order = orders.get(`${t.reference_type}:${t.reference_id}`);
    return {
      id: t.id,
      date: new Date(t.created_at).toISOString(),
      type: t.type as StatementLine['type'],
      reference_type: t.reference_type,
      reference_id: t.reference_id,
      chain_order_id: order?.chain_order_id ?? null,
      order_number: order?.order_number ?? null,
      description: t.description,
      amount: money(signed(t)),
      balance: money(balance),
    };
  });
}

const cursorAfter = (line: StatementLine): LineCursor => ({ at: line.date, id: line.id, balance: line.balance });

/** The whole statement of a period, read 1000 lines at a time. */
export async function statement(db: Db, period: Period) {
  const opening = await openingBalance(db, period);
  const lines: StatementLine[] = [];
  for (let from: LineCursor | { balance: string } = { balance: opening }; ; ) {
    const page = await linePage(db, period, from, 1000);
    lines.push(...page);
    if (page.length < 1000) break;
    from = cursorAfter(page[page.length - 1]);
  }
  const credits = lines.filter((l) => l.type === 'credit').reduce((a, l) => a.plus(l.amount), new D(0));
  const debits = lines.filter((l) => l.type === 'debit').reduce((a, l) => a.minus(l.amount), new D(0));
  return {
    from: period.from,
    to: period.to,
    opening_balance: opening,
    credits_total: money(credits),
    debits_total: money(debits),
    closing_balance: lines.length ? lines[lines.length - 1].balance : opening,
    movements_count: lines.length,
    movements: lines,
  };
}

export const STATEMENT_COLUMNS = ['date', 'type', 'reference_type', 'reference_id', 'chain_order_id', 'order_number', 'description', 'amount', 'balance'] as const;
const CSV_PAGE = 500;

/**
 * One page of the statement as CSV rows: the first starts with an opening_balance row, the last
 * ends with a closing_balance row. The cursor is "<date>|<id>|<running balance>" of the last line.
 */
export async function statementCsvPage(db: Db, period: Period, cursor: string | null) {
  let from: LineCursor | { balance: string };
  const rows: unknown[][] = [];
  if (cursor) {
    const [at, id, balance] = cursor.split('|');
    from = { at, id, balance: money(balance) };
  } else {
    from = { balance: await openingBalance(db, period) };
    rows.push([period.start, 'opening_balance', '', '', '', '', 'Opening balance', '', from.balance]);
  }
  const lines = await linePage(db, period, from, CSV_PAGE);
  rows.push(...lines.map((l) => STATEMENT_COLUMNS.map((c) => l[c] ?? '')));
  const last = lines[lines.length - 1];
  const more = lines.length === CSV_PAGE;
  if (!more) rows.push([period.end, 'closing_balance', '', '', '', '', 'Closing balance', '', last?.balance ?? from.balance]);
  return {
    columns: [...STATEMENT_COLUMNS],
    rows,
    next_cursor: more ? `${last.date}|${last.id}|${last.balance}` : null,
    filename: `statement-${period.from}-${period.to}.csv`,
  };
}

/** The PDF's data: the reference printed is the bank's for a top-up or payout, else the kind of movement. */
export function statementDocument(s: Awaited<ReturnType<typeof statement>>, holder: { id: string; name: string }, currency: string, generatedAt: string): StatementDocument {
  return {
    account_holder: holder.name,
    account_id: holder.id,
    currency,
    from: `${s.from}T00:00:00.000Z`,
    to: `${s.to}T00:00:00.000Z`,
    generated_at: generatedAt,
    opening_balance: s.opening_balance,
    credits_total: s.credits_total,
    debits_total: s.debits_total,
    closing_balance: s.closing_balance,
    lines: s.movements.map((l) => ({
      date: l.date,
      type: l.type,
      reference: l.reference_type === 'top_up' || l.reference_type === 'payout' ? l.reference_id : l.reference_type,
      order_number: l.order_number,
      description: l.description,
      amount: l.amount,
      balance: l.balance,
    })),
  };
}
