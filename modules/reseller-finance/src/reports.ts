/**
 * Read side of reseller-finance: listings with their filters, period summaries, pending totals,
 * the super admin's stats and the CSV export pages. host.db has no aggregates, so sums are taken
 * in code over the rows of the period, read a page of 1000 at a time.
 */
import type { Db, FindQuery, Row } from '../../../sdk';
import { D, money } from './money';
import type { CollectionRow, RemittanceRow } from './settlement';
import type { TransactionRow } from './wallet';

export const PERIODS = ['week', 'month', 'quarter', 'year'] as const;
export type Period = (typeof PERIODS)[number];
const PERIOD_DAYS: Record<Period, number> = { week: 7, month: 30, quarter: 91, year: 365 };

/** Start of a period ending now: the last 7, 30, 91 or 365 days (README: decisions). */
export const periodStart = (now: number, period: Period) => new Date(now - PERIOD_DAYS[period] * 86_400_000).toISOString();

/** Every row a query matches, in pages of 1000. */
export async function allRows<R extends Row>(db: Db, model: string, query: FindQuery<R>): Promise<R[]> {
  const out: R[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await db.find<R>(model, { ...query, limit: 1000, offset });
    out.push(...page);
    if (page.length < 1000) return out;
  }
}

export const total = (rows: Array<{ amount: string }>) => money(rows.reduce((a, r) => a.plus(r.amount), new D(0)));

/** from_date / to_date (YYYY-MM-DD, whole days, UTC) as a where clause on `column`. */
export function dateRange(column: string, from?: string, to?: string): Record<string, unknown> {
  const range: Record<string, string> = {};
  if (from) range.$gte = `${from}T00:00:00.000Z`;
  if (to) range.$lte = `${to}T23:59:59.999Z`;
  return Object.keys(range).length ? { [column]: range } : {};
}

export async function page<R extends Row>(db: Db, model: string, where: Record<string, unknown>, order: FindQuery<R>['order'], perPage: number, pageNo: number) {
  const [rows, count] = await Promise.all([db.find<R>(model, { where: where as FindQuery<R>['where'], order, limit: perPage, offset: (pageNo - 1) * perPage }), db.count(model, { where })]);
  return { rows, pagination: { current_page: pageNo, last_page: Math.max(1, Math.ceil(count / perPage)), per_page: perPage, total: count } };
}

/** A list route's where clause: equality on each of `fields` the input sets, and its from_date / to_date on `dateColumn`. */
export function filterWhere<I extends { from_date?: string; to_date?: string }>(input: I, fields: Array<keyof I & string>, dateColumn: string): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  for (const f of fields) if (input[f]) where[f] = input[f];
  return { ...where, ...dateRange(dateColumn, input.from_date, input.to_date) };
}

/** One page of a list route (per_page 20 and page 1 unless given), newest first by `dateColumn`, then id. */
export function listPage<R extends Row>(db: Db, model: string, where: Record<string, unknown>, dateColumn: Extract<keyof R, string>, input: { per_page?: number; page?: number }) {
  const order: FindQuery<R>['order'] = [[dateColumn, 'DESC'], ['id' as Extract<keyof R, string>, 'DESC']];
  return page<R>(db, model, where, order, input.per_page ?? 20, input.page ?? 1);
}

export async function settlementSummary(db: Db, since: string, tenantId: string) {
  const [collections, remittances] = await Promise.all([
    allRows<CollectionRow>(db, 'Collection', { where: { collected_at: { $gte: since } } }),
    allRows<RemittanceRow>(db, 'Remittance', { where: { status: 'completed', completed_at: { $gte: since } } }),
  ]);
  const paid = total(remittances.filter((r) => r.direction === 'outgoing'));
  const received = total(remittances.filter((r) => r.direction === 'incoming'));
  // The customer's money this tenant took itself (COD or prepaid), as the origin of an order.
  const ownIn = total(collections.filter((c) => c.collector_tenant_id === tenantId));
  // GST in this tenant's money once it is in (collected itself, or settled to it), never earned: what
  // its invoices charged (to the customer as the origin, to its child on the invoice between levels)
  // and what its parent's invoice charged it (within the remittance it paid; its input tax credit).
  const counted = collections.filter((c) => c.status !== 'reversed' && (c.collector_tenant_id === tenantId || c.status === 'settled'));
  const tax = total(counted.map((c) => ({ amount: money(new D(c.tax_amount).plus(c.gst_charged ?? 0)) })));
  const taxPaid = total(counted.map((c) => ({ amount: c.gst_paid ?? '0.00' })));
  return {
    collections_count: collections.length,
    collections_total: money(collections.reduce((a, c) => a.plus(c.amount), new D(0))),
    remittances_paid: paid,
    remittances_received: received,
    tax_collected: tax,
    tax_paid: taxPaid,
    // What stayed with this tenant: the customers' money it collected plus remittances in, less remittances out and its net GST (charged less paid).
    net_earnings: money(new D(ownIn).plus(received).minus(paid).minus(tax).plus(taxPaid)),
  };
}

/** Movements of a period. A hold and its release change what is available, not the balance: they count as transactions, not in the totals. */
export async function walletSummary(db: Db, since: string) {
  const txs = await allRows<TransactionRow>(db, 'Transaction', { where: { created_at: { $gte: since } } });
  const credits = total(txs.filter((t) => t.type === 'credit'));
  const debits = total(txs.filter((t) => t.type === 'debit'));
  return { transactions_count: txs.length, credits_total: credits, debits_total: debits, net_change: money(new D(credits).minus(debits)) };
}

export const TRANSACTION_COLUMNS = ['id', 'created_at', 'type', 'amount', 'balance_after', 'reference_type', 'reference_id', 'counterparty_tenant_id', 'description'] as const;
const EXPORT_PAGE = 500;

/** One page of the CSV export, keyset-paged on (created_at, id): cursor is "<created_at>|<id>". */
export async function exportPage(db: Db, where: Record<string, unknown>, cursor: string | null) {
  let after: Record<string, unknown> = {};
  if (cursor) {
    const [at, id] = cursor.split('|');
    after = { $or: [{ created_at: { $gt: at } }, { created_at: at, id: { $gt: id } }] };
  }
  const rows = await db.find<TransactionRow>('Transaction', { where: { ...where, ...after }, order: [['created_at', 'ASC'], ['id', 'ASC']], limit: EXPORT_PAGE });
  const last = rows[rows.length - 1];
  return {
    columns: [...TRANSACTION_COLUMNS],
    rows: rows.map((r) => TRANSACTION_COLUMNS.map((c) => r[c] ?? '')),
    next_cursor: rows.length === EXPORT_PAGE && last ? `${last.created_at}|${last.id}` : null,
    filename: 'transactions.csv',
  };
}
