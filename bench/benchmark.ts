/**
 * What a benchmark file gives the runner (bench/run.ts). A file `bench/<name>.bench.ts` default-exports
 * a `Benchmark`; the runner imports every such file in turn, in one process, and prints each report as
 * a table. Rows hold raw numbers (the JSON output keeps them); the runner only formats them for print.
 */

export interface BenchOptions {
  /** Seconds of measured load per target (HTTP benchmarks). */
  durationSeconds: number;
  /** Seconds of unmeasured load before each measurement. */
  warmupSeconds: number;
  /** Concurrent connections (HTTP benchmarks). */
  connections: number;
  /** Requests in flight per connection (1 = no pipelining). */
  pipelining: number;
  /**
   * Times each target is measured, round-robin (a, b, c, a, b, c, ...): on a shared machine the
   * background load drifts, and neighbouring windows see about the same drift.
   */
  rounds: number;
  /** Write CPU profiles of the code under test where the benchmark supports it. */
  profile: boolean;
}

export interface BenchContext {
  options: BenchOptions;
  /** Progress lines go to stderr, so stdout holds only the tables. */
  log(message: string): void;
}

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

export interface Check {
  /** What is checked, e.g. "(a) >= 60% of (b) requests/s". */
  name: string;
  ok: boolean;
  /** The measured value, e.g. "72.4%". */
  detail: string;
}

export interface BenchReport {
  title: string;
  rows: Row[];
  /** Targets: printed as PASS/MISS; a miss does not fail the run (shared machines are noisy). */
  checks?: Check[];
  notes?: string[];
  /** Anything else worth keeping in the JSON output. */
  data?: unknown;
}

export interface Benchmark {
  description: string;
  run(ctx: BenchContext): Promise<BenchReport>;
}
