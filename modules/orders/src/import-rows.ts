/**
 * CSV import rows → orders (spec 3 Bulk operations, POST /orders/bulk/import). Pure: no host calls.
 *
 * Columns (spec): order_number, customer_phone, customer_email (phone or email required),
 * customer_first_name, customer_last_name, item_name, item_quantity, item_price (required),
 * item_sku, total, payment_status, status, notes. Names are matched case-insensitively; other
 * columns are ignored.
 *
 * - Consecutive rows with the same order_number are one order with one item per row; the
 *   order-level columns are read from its first row. The host keeps such rows in one chunk.
 *   A later, non-consecutive row of an order already seen is an error (rows of an order belong
 *   together).
 * - A row without order_number is an order of its own, numbered `IMP-<hash of the row's values>`,
 *   so importing the same row again finds the same order (idempotent) whatever its line.
 * - Each order has a content hash; re-importing identical content changes nothing.
 * - Imported orders are records of sales made elsewhere: item_price × item_quantity is each line's
 *   amount and GST is not recomputed. `total`, when given, is the amount the source charged: a
 *   lower total than the lines is kept as discount, a higher one as tax_total (tax and charges of
 *   the source). payment_status paid means total_paid = total; partial and pending record nothing
 *   paid (no payment record exists to prove an amount).
 */
import { fromPaise, toPaise } from './paise';
import { ORDER_STATUSES } from './store';

export const REQUIRED_COLUMNS = ['item_name', 'item_quantity', 'item_price'];
export const IMPORT_COLUMNS = [
  'order_number', 'customer_phone', 'customer_email', 'customer_first_name', 'customer_last_name',
  'item_name', 'item_quantity', 'item_price', 'item_sku', 'total', 'payment_status', 'status', 'notes',
];
const PAYMENT_STATUSES = ['pending', 'partial', 'paid'];
const ORDER_NUMBER = /^[A-Za-z0-9_./-]{1,50}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;
const QUANTITY = /^\d{1,9}$/;

/** A row as the host's CSV job sends it: [line, fields in header order, shape error?] (core/services/bulk/csv-chunks.ts). */
export type CsvRow = [line: number, cells: string[], error?: string];

/** A chunk's header as lookups: column → index (of its last occurrence, should a name repeat). */
type Columns = Map<string, number>;

const columnsOf = (header: string[]): Columns => new Map(header.map((name, i) => [name, i]));

/**
 * The row's values by column name in header order. Only numbers an order-number-less row: the text
 * hashed into its `IMP-` number must stay what it was when rows came as such objects, or importing
 * an old file again would create its orders a second time.
 */
function valuesOf(header: string[], cells: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  header.forEach((name, i) => {
    if (name && cells[i] !== undefined) values[name] = cells[i]!;
  });
  return values;
}

export interface RowError {
  line: number;
  field?: string;
  message: string;
}

export interface ImportItem {
  position: number;
  name: string;
  sku: string | null;
  quantity: number;
  unit_price: string;
  taxable_amount: string;
}

export interface ImportGroup {
  order_number: string;
  lines: number[];
  hash: string;
  order: {
    customer: Record<string, string>;
    customer_id: string;
    status: string;
    payment_status: string;
    subtotal: string;
    discount: string;
    tax_total: string;
    total: string;
    total_paid: string;
    balance_due: string;
    notes: string | null;
  };
  items: ImportItem[];
}

/** Which required columns a header lacks (empty when it is usable). */
export function missingColumns(header: string[]): string[] {
  const missing = REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (!header.includes('customer_phone') && !header.includes('customer_email')) missing.push('customer_phone or customer_email');
  return missing;
}

/**
 * 64-bit FNV-1a (two 32-bit lanes with different offsets) as 16 hex digits. Change detection and
 * stable numbering only: the sandbox has no crypto, and nothing here needs to resist an attacker
 * (a collision would at worst skip one changed order).
 */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

interface Parsed {
  line: number;
  number: string | null;
  item: Omit<ImportItem, 'position'>;
  /** The item's amount in paise, for the order's sums. */
  amount: bigint;
  order: { phone: string; email: string; first: string; last: string; total: string; payment_status: string; status: string; notes: string };
}

/** One row's values checked; every problem of the row is reported with its field. */
function parseRow([line, cells, shapeError]: CsvRow, columns: Columns): { parsed?: Parsed; errors: RowError[] } {
  const v = (k: string) => {
    const i = columns.get(k);
    return i === undefined ? '' : (cells[i] ?? '').trim();
  };
  const errors: RowError[] = [];
  const bad = (field: string, message: string) => errors.push({ line, field, message });
  if (shapeError) errors.push({ line, message: shapeError });
  const number = v('order_number');
  if (number && !ORDER_NUMBER.test(number)) bad('order_number', 'must be 1 to 50 letters, digits or _ . / -');
  const email = v('customer_email');
  const phone = v('customer_phone');
  if (!email && !phone) bad('customer_phone', 'customer_phone or customer_email is required');
  if (email && (email.length > 255 || !EMAIL.test(email))) bad('customer_email', 'is not a valid email address');
  if (phone.length > 30) bad('customer_phone', 'is longer than 30 characters');
  for (const k of ['customer_first_name', 'customer_last_name']) if (v(k).length > 100) bad(k, 'is longer than 100 characters');
  const name = v('item_name');
  if (!name) bad('item_name', 'is required');
  else if (name.length > 255) bad('item_name', 'is longer than 255 characters');
  const quantity = v('item_quantity');
  if (!QUANTITY.test(quantity) || Number(quantity) < 1) bad('item_quantity', 'must be a whole number of at least 1');
  const price = v('item_price');
  if (!AMOUNT.test(price)) bad('item_price', 'must be a non-negative amount with at most 2 decimals, e.g. 199.50');
  if (v('item_sku').length > 100) bad('item_sku', 'is longer than 100 characters');
  const total = v('total');
  if (total && !AMOUNT.test(total)) bad('total', 'must be a non-negative amount with at most 2 decimals');
  const payment = v('payment_status').toLowerCase();
  if (payment && !PAYMENT_STATUSES.includes(payment)) bad('payment_status', `must be one of ${PAYMENT_STATUSES.join(', ')}`);
  const status = v('status').toLowerCase();
  if (status && !(ORDER_STATUSES as readonly string[]).includes(status)) bad('status', `must be one of ${ORDER_STATUSES.join(', ')}`);
  const notes = v('notes');
  if (notes.length > 5000) bad('notes', 'is longer than 5000 characters');
  if (errors.length) return { errors };
  const unit = toPaise(price);
  const amount = unit * BigInt(quantity);
  return {
    errors,
    parsed: {
      line,
      number: number || null,
      item: { name, sku: v('item_sku') || null, quantity: Number(quantity), unit_price: fromPaise(unit), taxable_amount: fromPaise(amount) },
      amount,
      order: { phone, email, first: v('customer_first_name'), last: v('customer_last_name'), total, payment_status: payment, status, notes },
    },
  };
}

function buildGroup(number: string, rows: Parsed[]): ImportGroup {
  const head = rows[0]!.order;
  const items = rows.map((r, i) => ({ position: i + 1, ...r.item }));
  const subtotal = rows.reduce((acc, r) => acc + r.amount, 0n);
  const total = head.total ? toPaise(head.total) : subtotal;
  const paid = head.payment_status === 'paid' ? total : 0n;
  const customer: Record<string, string> = {};
  const name = [head.first, head.last].filter(Boolean).join(' ');
  if (name) customer.name = name;
  if (head.first) customer.first_name = head.first;
  if (head.last) customer.last_name = head.last;
  if (head.email) customer.email = head.email;
  if (head.phone) customer.phone = head.phone;
  const order = {
    customer,
    customer_id: head.email || head.phone,
    status: head.status || 'pending',
    payment_status: head.payment_status || 'pending',
    subtotal: fromPaise(subtotal),
    discount: fromPaise(subtotal > total ? subtotal - total : 0n),
    tax_total: fromPaise(total > subtotal ? total - subtotal : 0n),
    total: fromPaise(total),
    total_paid: fromPaise(paid),
    balance_due: fromPaise(total - paid),
    notes: head.notes || null,
  };
  return { order_number: number, lines: rows.map((r) => r.line), hash: contentHash(JSON.stringify([number, order, items])), order, items };
}

/**
 * Checks a chunk's rows and groups the valid ones into orders. An order with any invalid row is
 * skipped whole (never half an order); its other rows are reported as skipped because of it.
 */
export function groupRows(header: string[], rows: CsvRow[]): { groups: ImportGroup[]; errors: RowError[]; failedRows: number } {
  const columns = columnsOf(header);
  const numberAt = columns.get('order_number');
  const errors: RowError[] = [];
  const byNumber = new Map<string, { rows: Parsed[]; broken: number | null }>();
  let failedRows = 0;
  let last: string | null = null;
  for (const row of rows) {
    const { parsed, errors: rowErrors } = parseRow(row, columns);
    const number = numberAt === undefined ? '' : (row[1][numberAt] ?? '').trim();
    if (!parsed) {
      errors.push(...rowErrors);
      failedRows++;
      const group = number ? byNumber.get(number) : undefined;
      if (number && !group) byNumber.set(number, { rows: [], broken: row[0] });
      else if (group && group.broken === null) group.broken = row[0];
      last = number || null;
      continue;
    }
    const key = parsed.number ?? `IMP-${contentHash(JSON.stringify(valuesOf(header, row[1])))}`;
    const group = byNumber.get(key);
    if (group && (parsed.number === null || last !== key)) {
      const first = group.rows[0]?.line ?? group.broken;
      errors.push({ line: row[0], field: 'order_number', message: parsed.number ? `rows of order ${key} must be consecutive (it started at line ${first})` : `duplicate of line ${first}` });
      failedRows++;
      continue;
    }
    if (group) group.rows.push(parsed);
    else byNumber.set(key, { rows: [parsed], broken: null });
    last = key;
  }
  const groups: ImportGroup[] = [];
  for (const [number, g] of byNumber) {
    if (g.broken !== null) {
      for (const r of g.rows) errors.push({ line: r.line, message: `order ${number} skipped: its row at line ${g.broken} is invalid` });
      failedRows += g.rows.length;
      continue;
    }
    groups.push(buildGroup(number, g.rows));
  }
  errors.sort((a, b) => a.line - b.line);
  return { groups, errors, failedRows };
}
