/**
 * A seeded pseudo-random generator for the property tests (no property-testing library is a
 * dependency): mulberry32, and the few draws the generators need. The same seed gives the same
 * draws, so a failing case replays from the seed its message prints.
 */
import Decimal from 'decimal.js';

export interface Rng {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
  chance(p: number): boolean;
  pick<T>(xs: readonly T[]): T;
  /** A money string (2 places) in [lo, hi]. */
  money(lo: Decimal.Value, hi: Decimal.Value): string;
  /** A copy of xs in a random order. */
  shuffle<T>(xs: readonly T[]): T[];
}

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return {
    seed: seed >>> 0,
    next,
    int,
    chance: (p) => next() < p,
    pick: (xs) => xs[int(0, xs.length - 1)],
    money: (lo, hi) => {
      const [l, h] = [new Decimal(lo).times(100).toNumber(), new Decimal(hi).times(100).toNumber()];
      return new Decimal(int(l, h)).div(100).toFixed(2);
    },
    shuffle: (xs) => {
      const out = [...xs];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j], out[i]];
      }
      return out;
    },
  };
}
