/**
 * One tenant's context inside a module's isolate, and the message channel to it. Messages to the
 * guest queue in an outbox sent as one `receive` call; the guest answers the same way through
 * `post`. Only one `receive` is in flight per context: what arrives meanwhile waits and leaves with
 * the next. A hop costs ~20 µs of CPU whatever it carries, so under load the batches grow and the
 * cost per call falls; a lone call still leaves at once.
 */
import ivm from 'isolated-vm';
import { runBridgeRequest, toWireError } from './bridge-requests';
import { SandboxError } from './errors';
import type { Generation } from './generation';
import type { PendingCall } from './pending-call';
import { Status, type Receive, type WireError } from './protocol';
import type { LogLevel } from './types';

/** The flush in flight: the calls it carries, to blame or mark started when it returns. */
export interface Batch {
  readonly calls: PendingCall[];
}

const LOG_LEVELS = new Set<string>(['debug', 'info', 'warn', 'error']);

/** Least time a batch gets, however close its calls are to their deadlines. */
const BUDGET_FLOOR_MS = 50;

export class TenantContext {
  /** Calls of this tenant that have not been answered, by id. */
  readonly calls = new Map<number, PendingCall>();
  inFlight: Batch | undefined;
  state: 'creating' | 'ready' | 'closed' = 'creating';
  private context: ivm.Context | undefined;
  private receive: ivm.Reference<Receive> | undefined;
  /** Messages waiting for the next flush, and the call each belongs to (undefined: none). */
  private outbox: string[] = [];
  private outboxCalls: (PendingCall | undefined)[] = [];
  /** A message's byte array (a bytes fetch's body): the message then lacks its closing `,index]`. */
  private outboxBlobs: (Uint8Array | undefined)[] = [];
  private flushQueued = false;
  /** Batches the guest has finished, so a stuck isolate shows as a count that stops moving. */
  private batchesDone = 0;
  private probe: NodeJS.Timeout | undefined;
  private readonly flushTask = () => this.flush();

  constructor(
    private readonly gen: Generation,
    readonly tenantId: string,
  ) {
    void this.create();
  }

  get idle(): boolean {
    return this.state !== 'creating' && this.calls.size === 0 && this.outbox.length === 0 && this.inFlight === undefined;
  }

  /** A getter, so checks after an await are not narrowed away by the compiler. */
  get closed(): boolean {
    return this.state === 'closed';
  }

  add(call: PendingCall): void {
    call.owner = this;
    this.calls.set(call.id, call);
    this.enqueue(call.envelope, call);
  }

  /**
   * The caller has had TIMEOUT. Tell the guest to forget the call, and check the isolate still
   * finishes batches: guest code runs only inside time-limited batches, so one that does not end
   * within the grace period means the isolate is stuck somewhere no timeout reaches.
   */
  expire(call: PendingCall): void {
    if (this.calls.get(call.id) !== call) return;
    this.calls.delete(call.id);
    if (this.state !== 'ready') return;
    this.enqueue(`["x",${call.id}]`, undefined);
    if (this.probe !== undefined) return;
    const seen = this.batchesDone;
    this.probe = setTimeout(() => {
      this.probe = undefined;
      if (this.batchesDone === seen && this.inFlight !== undefined && !this.closed) this.gen.unresponsive();
    }, this.gen.stuckGraceMs);
  }

  /** A message for the guest about one of its calls (`["k", id]`), dropped once the call is answered. */
  tell(call: PendingCall, message: string): void {
    if (this.calls.get(call.id) === call && !this.closed) this.enqueue(message, call);
  }

  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.outbox = [];
    this.outboxCalls = [];
    this.outboxBlobs = [];
    clearTimeout(this.probe);
    try {
      this.receive?.release();
      this.context?.release();
    } catch {
      // Already gone with its isolate.
    }
  }

  private async create(): Promise<void> {
    const { isolate, limits } = this.gen;
    const timeout = limits.timeoutMs;
    const began = performance.now();
    try {
      const { prelude, bundle } = await this.gen.scripts;
      const context = await isolate.createContext();
      this.context = context;
      if (this.closed) return context.release();
      // The guest's `Boot` (protocol.ts); its arguments cross as isolated-vm Callbacks and copies.
      const boot = await prelude.run(context, { reference: true, timeout });
      // A batch's byte arrays (fetch bodies) arrive as copies made by isolated-vm, beside the JSON.
      const post = new ivm.Callback((batch: string, blobs?: unknown) => this.onGuestBatch(batch, blobs), { ignored: true });
      const clock = new ivm.Callback((id: number) => this.now(id));
      const receive = (await boot.apply(
        undefined,
        [post, clock, this.tenantId, limits.maxOutputBytes, limits.maxLogLinesPerCall, limits.maxPendingRequests],
        { result: { reference: true }, timeout },
      )) as ivm.Reference<Receive>;
      boot.release();
      this.receive = receive;
      await bundle.run(context, { timeout });
      const problem = await receive.apply(undefined, ['init'], { timeout });
      if (problem) throw new SandboxError('INIT_ERROR', `The module could not start: ${String(problem)}`);
      if (this.closed) return;
      this.state = 'ready';
      this.flush();
    } catch (e) {
      if (!this.closed) this.gen.contextFailed(this, e, performance.now() - began);
    }
  }

  private enqueue(message: string, call: PendingCall | undefined, blob?: Uint8Array): void {
    this.outbox.push(message);
    this.outboxCalls.push(call);
    this.outboxBlobs.push(blob);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flushTask);
    }
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.state !== 'ready' || this.outbox.length === 0 || this.inFlight !== undefined) return;
    const messages = this.outbox;
    const owners = this.outboxCalls;
    const withBlobs = this.outboxBlobs;
    this.outbox = [];
    this.outboxCalls = [];
    this.outboxBlobs = [];

    // Drop what belongs to calls answered meanwhile (timed out before their context was ready).
    const parts: string[] = [];
    const blobs: Uint8Array[] = [];
    const calls: PendingCall[] = [];
    let deadline = Infinity;
    for (let i = 0; i < messages.length; i++) {
      const call = owners[i];
      if (call !== undefined) {
        if (this.calls.get(call.id) !== call) continue;
        calls.push(call);
        if (call.deadline < deadline) deadline = call.deadline;
      }
      const blob = withBlobs[i];
      if (blob === undefined) parts.push(messages[i]);
      else parts.push(`${messages[i]},${blobs.push(blob) - 1}]`);
    }
    if (parts.length === 0) return;

    // Guest code runs only inside these receive calls (and the microtasks they drain), so this
    // timeout stops a CPU loop anywhere in a handler, even after an await. The floor keeps a call
    // about to expire from cutting short a fresh one that shares its batch; the module's own limit
    // caps a batch of a call given longer (a stream), so its guest code is cut off as soon.
    const { timeoutMs } = this.gen.limits;
    const timeout =
      deadline === Infinity
        ? timeoutMs
        : Math.max(Math.min(timeoutMs, BUDGET_FLOOR_MS), Math.min(timeoutMs, Math.ceil(deadline - performance.now())));
    const batch: Batch = { calls };
    this.inFlight = batch;
    try {
      const text = parts.length === 1 ? `[${parts[0]}]` : `[${parts.join(',')}]`;
      // Bytes are copied into the isolate as ArrayBuffers (counted against its memory limit), not as JSON.
      const sent = blobs.length === 0 ? this.receive!.apply(undefined, [text], { timeout }) : this.receive!.apply(undefined, [text, blobs], { timeout, arguments: { copy: true } });
      sent.then(
        () => this.batchDone(batch),
        (e: unknown) => this.batchFailed(batch, e),
      );
    } catch (e) {
      this.batchFailed(batch, e);
    }
  }

  private batchDone(batch: Batch): void {
    if (this.inFlight !== batch) return;
    this.inFlight = undefined;
    this.batchesDone++;
    for (const call of batch.calls) call.started = true;
    if (this.outbox.length > 0) this.flush();
    this.gen.afterBatch();
  }

  private batchFailed(batch: Batch, error: unknown): void {
    if (this.inFlight !== batch) return;
    this.inFlight = undefined;
    this.gen.batchFailed(batch, error);
  }

  /**
   * A batch from the guest; runs on the host's thread. A working prelude sends GuestMessages
   * (protocol.ts), but module code can break its context, so every field is checked here.
   */
  private onGuestBatch(batch: string, given: unknown): void {
    if (this.state === 'closed' || typeof batch !== 'string') return;
    const blobs = Array.isArray(given) ? (given as unknown[]).map((b) => (b instanceof Uint8Array ? b : undefined)) : [];
    let messages: unknown;
    try {
      messages = JSON.parse(batch);
    } catch {
      return;
    }
    if (!Array.isArray(messages)) return;
    for (const m of messages) {
      if (!Array.isArray(m)) continue;
      if (m[0] === 'd') this.onDone(m);
      else if (m[0] === 'q') this.onRequest(m, blobs as Uint8Array[]);
      else if (m[0] === 'l') this.onLog(m);
    }
  }

  private onDone(m: unknown[]): void {
    const call = this.calls.get(m[1] as number);
    if (call === undefined) return;
    this.calls.delete(call.id);
    this.gen.answered(call, m[2], m[3]);
  }

  private onRequest(m: unknown[], blobs: readonly Uint8Array[]): void {
    const call = this.calls.get(m[1] as number);
    const reqId = m[2];
    if (call === undefined || typeof reqId !== 'number') return;
    // host.evaluate is the sandbox's own: it runs in this isolate, not on the core's bridge.
    const from = typeof m[5] === 'number' ? m[5] : blobs.length;
    (m[3] === 'evaluate' ? this.gen.evaluate(call, m[4]) : runBridgeRequest(call, m[3], m[4], { list: blobs, from })).then(
      (value) => this.reply(call, reqId, value),
      (error: unknown) => this.replyError(call, reqId, toWireError(error)),
    );
  }

  private reply(call: PendingCall, reqId: number, value: unknown): void {
    if (this.calls.get(call.id) !== call) return;
    if (value === undefined) return this.enqueue(`["r",${reqId},${Status.undefined}]`, call);
    // A bytes fetch: its body crosses beside the JSON (flush adds its index).
    const bytes = typeof value === 'object' && value !== null ? (value as { bytes?: unknown }).bytes : undefined;
    if (bytes instanceof Uint8Array) {
      const { bytes: _, ...head } = value as { bytes: Uint8Array };
      return this.enqueue(`["r",${reqId},${Status.ok},${JSON.stringify(head)}`, call, bytes);
    }
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch (e) {
      return this.replyError(call, reqId, { message: `the host returned a value that is not JSON: ${(e as Error).message}` });
    }
    this.enqueue(json === undefined ? `["r",${reqId},${Status.undefined}]` : `["r",${reqId},${Status.ok},${json}]`, call);
  }

  private replyError(call: PendingCall, reqId: number, error: WireError): void {
    if (this.calls.get(call.id) !== call) return;
    this.enqueue(`["r",${reqId},${Status.error},${JSON.stringify(error)}]`, call);
  }

  private onLog(m: unknown[]): void {
    const call = this.calls.get(m[1] as number);
    if (call === undefined || !LOG_LEVELS.has(m[2] as string)) return;
    try {
      call.req.bridge.log(m[2] as LogLevel, String(m[3]), m.length > 4 ? m[4] : undefined);
    } catch {
      // A logger failure is not the guest's problem.
    }
  }

  /** host.now(): synchronous for the guest, so the guest's thread waits on this. */
  private now(id: number): number {
    const call = this.calls.get(id);
    try {
      return call ? call.req.bridge.now() : Date.now();
    } catch {
      return Date.now();
    }
  }
}
