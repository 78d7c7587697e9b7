/**
 * Money with decimal.js, never floats. Every stored amount has 2 places, rounded half up at the
 * point it is computed; sums are of already-rounded amounts.
 */
import Decimal from 'decimal.js';

export const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Dec = InstanceType<typeof D>;
export const money = (d: Decimal.Value): string => new D(d).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
export const ZERO = '0.00';
/** A decimal string with at most 2 places (spec 3: decimal(14,2)); the schema pattern of money inputs. */
export const AMOUNT_PATTERN = '^\\d{1,12}(\\.\\d{1,2})?$';
