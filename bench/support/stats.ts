/** Order statistics of measured samples (the input is left unsorted). */

/** The p-th percentile (0–100), nearest rank rounded down: p50 of 4 samples is the third. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values: number[]): number => percentile(values, 50);
