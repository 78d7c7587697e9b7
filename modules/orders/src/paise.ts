/**
 * Exact money as integer paise (BigInt) for the CSV import, which handles 100,000 rows at a time:
 * its amounts are already-checked decimal strings with at most 2 places, and it only multiplies by
 * whole quantities, adds, subtracts and compares, so there is never a rounding step. BigInt is
 * exact like decimal.js (never floats) at a fraction of its cost per value; the results are the
 * same "123.40" strings money.ts writes.
 */

/** "199.5" → 19950n. Only for text that matched an amount pattern (digits, at most 2 decimals). */
export function toPaise(amount: string): bigint {
  const dot = amount.indexOf('.');
  return dot < 0 ? BigInt(amount) * 100n : BigInt(amount.slice(0, dot) + amount.slice(dot + 1).padEnd(2, '0'));
}

/** 19950n → "199.50" (amounts here are never negative). */
export function fromPaise(value: bigint): string {
  const digits = value.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
