/**
 * Points earned by an order: one per whole currency unit of its total. Totals are decimal strings
 * ("123.45"); the integer part is read from the string itself, never through a JavaScript number,
 * so no float rounding can award a point too many or too few.
 */
import { invalidOrder } from './errors';

const DECIMAL = /^(-?)(\d+)(?:\.\d+)?$/;
/** Points of one order fit the ledger's integer column with room to spare. */
const MAX_DIGITS = 9;

export function pointsForTotal(total: unknown, orderId?: string): number {
  if (typeof total !== 'string') throw invalidOrder(`The order total must be a decimal string such as "12.50", got ${typeof total}.`, orderId);
  const m = DECIMAL.exec(total.trim());
  if (!m) throw invalidOrder(`The order total "${total}" is not a decimal number such as "12.50".`, orderId);
  const [, sign, whole] = m;
  const digits = whole.replace(/^0+/, '');
  if (sign === '-' || digits === '') return 0; // refunds and totals under one unit earn nothing
  if (digits.length > MAX_DIGITS) throw invalidOrder(`The order total "${total}" is too large to earn points.`, orderId);
  return parseInt(digits, 10); // at most 9 digits: exact
}
