/** One invocation from invoke() until its caller has an answer. */
import type { FetchBody, InvokeRequest } from './types';

export class PendingCall {
  readonly promise: Promise<unknown>;
  /** performance.now() by which the caller gets an answer. */
  deadline: number;
  /** Its start message reached the guest: it may have had effects, so it is never retried. */
  started = false;
  settled = false;
  /** The tenant context it was handed to, told when the call expires. */
  owner: { expire(call: PendingCall): void; tell(call: PendingCall, message: string): void } | undefined;
  /** Transactions begun and not yet finished; rolled back when the call ends. */
  openTx: Set<string> | undefined;
  /** Streamed fetch bodies by the id the guest reads them with; closed when the call ends. */
  openBodies: Map<number, FetchBody> | undefined;
  lastBodyId = 0;
  private resolveFn!: (value: unknown) => void;
  private rejectFn!: (error: unknown) => void;
  private timer: NodeJS.Timeout;

  constructor(
    readonly id: number,
    readonly req: InvokeRequest,
    /** The start message, kept so a call that never reached a lost isolate can be sent again. */
    readonly envelope: string,
    readonly timeoutMs: number,
    onDeadline: (call: PendingCall) => void,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
    this.deadline = performance.now() + timeoutMs;
    this.timer = setTimeout(onDeadline, timeoutMs, this);
  }

  /** Brings the deadline to at most `ms` from now (a stream whose reader left needs no long limit). */
  cutShort(ms: number, onDeadline: (call: PendingCall) => void): void {
    if (this.settled || this.deadline <= performance.now() + ms) return;
    clearTimeout(this.timer);
    this.deadline = performance.now() + ms;
    this.timer = setTimeout(onDeadline, ms, this);
  }

  /** Succeeds after rolling back any transaction the handler left open. */
  succeed(value: unknown): void {
    this.settle(true, value, true);
  }

  /**
   * Fails the call. With `awaitRollback` the answer waits for leftover transactions to roll back,
   * so the caller's next read sees the data as it was; limit breaches answer at once instead.
   */
  fail(error: unknown, awaitRollback = false): void {
    this.settle(false, error, awaitRollback);
  }

  private settle(ok: boolean, value: unknown, awaitRollback: boolean): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.openBodies) for (const body of this.openBodies.values()) body.close();
    this.openBodies = undefined;
    const rollback = this.openTx && this.openTx.size > 0 ? this.rollbackAll() : undefined;
    if (rollback && awaitRollback) void rollback.then(() => this.deliver(ok, value));
    else this.deliver(ok, value);
  }

  // A method, not a closure made per call: most calls settle with no transaction to wait for.
  private deliver(ok: boolean, value: unknown): void {
    if (ok) this.resolveFn(value);
    else this.rejectFn(value);
  }

  /** Rolls back a transaction begun after the call ended. */
  rollbackLate(txId: string): void {
    void this.req.bridge.db('tx.rollback', [], txId).catch(() => undefined);
  }

  private async rollbackAll(): Promise<void> {
    const ids = [...this.openTx!];
    this.openTx = undefined;
    await Promise.all(ids.map((txId) => this.req.bridge.db('tx.rollback', [], txId).catch(() => undefined)));
  }
}
