/**
 * Money and percentages with decimal.js (bundled into the module), never JavaScript floats.
 *
 * Rounding rule: every cost of the cascade is rounded to 2 decimal places (paise) with
 * ROUND_HALF_UP (0.005 → 0.01) at the level that computes it, from its parent's already-rounded
 * cost: cost(n+1) = round2(cost(n) × (1 + margin(n)/100)). A margin amount is the difference of two
 * rounded costs, so the breakdown always adds up to the paisa. Money leaves the module as a string
 * with 2 places ("1388.88"); percentages as numbers (spec 3 decisions).
 */
import Decimal from 'decimal.js';
import { invalid } from './errors';

export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const PERCENT = /^\d{1,3}(\.\d{1,2})?$/;

export const round2 = (d: Decimal.Value): Dec => new D(d).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
/** A money string with 2 places. */
export const str = (d: Decimal.Value): string => round2(d).toFixed(2);
/** A percentage as a JSON number ("15.00" from the database → 15). */
export const pct = (d: Decimal.Value): number => Number(new D(d).toFixed(2));

/** The next level's cost: this level's cost plus its margin, rounded to paise. */
export const marked = (cost: Decimal.Value, marginPercent: Decimal.Value): Dec => round2(new D(cost).times(new D(marginPercent).div(100).plus(1)));

/**
 * A money input: a decimal string, or a JSON number written with at most 2 decimals. Negative,
 * non-numeric and over-precise values (3 decimals) are a 422 naming the field.
 */
export function parseAmount(value: unknown, field: string): Dec {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !AMOUNT.test(text.trim())) {
    throw invalid(field, `The ${field} must be a non-negative amount with at most 2 decimal places, e.g. "199.50".`);
  }
  return new D(text.trim());
}

/** A percentage input from 0 to 999.99 with at most 2 decimals; a negative one is a 422. */
export function parsePercent(value: unknown, field: string): Dec {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !PERCENT.test(text.trim())) {
    throw invalid(field, `The ${field} must be a percentage from 0 to 999.99 with at most 2 decimal places.`);
  }
  return new D(text.trim());
}
