/**
 * An invocation's bridge that also measures the host work its guest awaited (host.call, host.db,
 * host.emit, host.fetch), so SandboxTimings can tell the sandbox's own cost (crossings and guest
 * code) from the host's. Overlapping bridge calls count once: a guest awaiting two host.db calls at
 * once waits for the longer, not for the sum.
 */
import type { DbMethod, FetchRequest, FetchResponse } from '../../../sandbox';
import { Invocation } from './invocation';

export class TimedInvocation extends Invocation {
  /** Milliseconds during which at least one bridge call was running. */
  bridgeMs = 0;
  bridgeCalls = 0;
  private active = 0;
  private since = 0;

  override call(op: string, input: unknown): Promise<unknown> {
    return this.timed(() => super.call(op, input));
  }

  override db(method: DbMethod, args: unknown[], txId?: string): Promise<unknown> {
    return this.timed(() => super.db(method, args, txId));
  }

  override emit(event: string, payload: unknown): Promise<void> {
    return this.timed(() => super.emit(event, payload));
  }

  override fetch(req: FetchRequest): Promise<FetchResponse> {
    return this.timed(() => super.fetch(req));
  }

  private timed<T>(work: () => Promise<T>): Promise<T> {
    this.bridgeCalls++;
    if (this.active++ === 0) this.since = performance.now();
    try {
      return work().finally(() => this.leave());
    } catch (err) {
      this.leave();
      throw err;
    }
  }

  private leave(): void {
    if (--this.active === 0) this.bridgeMs += performance.now() - this.since;
  }
}
