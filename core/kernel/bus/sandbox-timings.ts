/**
 * Always-on timings of sandboxed handlers, per handler (`orders.create`, events as
 * `orders:event:orders.created`), kept in process for benchmarks and diagnostics. Each call records
 * two figures: the whole sandbox call as the host sees it (crossing into the isolate, guest code,
 * the host work the guest awaited, crossing back) and the part of it spent in host work the guest
 * awaited through the bridge (host.db, host.call, host.fetch, host.emit). Their difference is what
 * the sandbox itself costs: crossings and guest code. The cost is a few additions per call.
 */

export interface HandlerTiming {
  calls: number;
  /** Sum of whole sandbox calls, ms. */
  sandboxMs: number;
  /** Sum of host work awaited through the bridge (overlapping bridge calls counted once), ms. */
  bridgeMs: number;
  /** Bridge calls made (host.db statements, host.call, host.emit, host.fetch). */
  bridgeCalls: number;
  /** Calls by own time (sandbox − bridge): bucket i holds [2^(i-1), 2^i) µs, bucket 0 below 1 µs. */
  ownHistogram: number[];
}

const BUCKETS = 32;

export class SandboxTimings {
  private readonly byHandler = new Map<string, HandlerTiming>();

  record(handler: string, sandboxMs: number, bridgeMs: number, bridgeCalls: number): void {
    let t = this.byHandler.get(handler);
    if (!t) this.byHandler.set(handler, (t = { calls: 0, sandboxMs: 0, bridgeMs: 0, bridgeCalls: 0, ownHistogram: new Array<number>(BUCKETS).fill(0) }));
    t.calls++;
    t.sandboxMs += sandboxMs;
    t.bridgeMs += bridgeMs;
    t.bridgeCalls += bridgeCalls;
    const ownMicros = Math.max(0, (sandboxMs - bridgeMs) * 1000);
    t.ownHistogram[Math.min(BUCKETS - 1, ownMicros < 1 ? 0 : Math.floor(Math.log2(ownMicros)) + 1)]++;
  }

  /** A copy of every handler's figures so far. */
  snapshot(): Record<string, HandlerTiming> {
    return Object.fromEntries([...this.byHandler].map(([k, t]) => [k, { ...t, ownHistogram: [...t.ownHistogram] }]));
  }

  reset(): void {
    this.byHandler.clear();
  }
}

/** Upper bound (µs) of the histogram bucket holding the p-th percentile of own time. */
export function ownPercentileMicros(t: HandlerTiming, p: number): number {
  const rank = Math.ceil((p / 100) * t.calls);
  let seen = 0;
  for (let i = 0; i < t.ownHistogram.length; i++) {
    seen += t.ownHistogram[i];
    if (seen >= rank) return 2 ** i;
  }
  return Infinity;
}
