/**
 * Money arithmetic with decimal.js (bundled into the module): never JavaScript floats.
 *
 * Paise rounding rule: every amount that is stored is rounded to 2 decimal places (paise) with
 * ROUND_HALF_UP (0.005 → 0.01), at the point it is computed for one line or one tax component;
 * totals are sums of already-rounded amounts, so an invoice always adds up to the paise.
 */
import Decimal from 'decimal.js';
import { invalid } from './errors';

export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;
const QUANTITY = /^\d{1,9}$/;

/** Rounds to paise, half up. */
export const paise = (d: Decimal.Value): Dec => new D(d).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
/** A stored money string "123.40". */
export const str = (d: Decimal.Value): string => paise(d).toFixed(2);
export const sum = (values: Decimal.Value[]): Dec => values.reduce<Dec>((a, v) => a.plus(v), new D(0));

/**
 * Parses a money input (decimal string, or a JSON number written with at most 2 decimals); refuses
 * negative, non-numeric and over-precise values with a 422 naming the field.
 */
export function parseAmount(value: unknown, field: string, opts: { allowZero?: boolean } = {}): Dec {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !AMOUNT.test(text.trim())) {
    throw invalid(field, `The ${field} must be a non-negative decimal amount with at most 2 decimal places, e.g. "199.50".`);
  }
  const d = new D(text.trim());
  if (!opts.allowZero && d.isZero()) throw invalid(field, `The ${field} must be greater than zero.`);
  return d;
}

export function parseQuantity(value: unknown, field: string): number {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !QUANTITY.test(text) || Number(text) < 1) throw invalid(field, `The ${field} must be a whole number of at least 1.`);
  return Number(text);
}
