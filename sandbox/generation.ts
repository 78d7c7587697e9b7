/**
 * One life of a module's isolate: the isolate, its two compiled scripts and its tenant contexts.
 * When a call breaks a limit the whole generation is dropped; calls that never reached the guest
 * are handed back to the owner to run on the next one.
 */
import type ivm from 'isolated-vm';
import { SandboxError, type GuestErrorInfo } from './errors';
import { evaluationAnswer, evaluationRequest, runInOwnContext } from './evaluation';
import { memoryError, timeoutError } from './limits';
import type { PendingCall } from './pending-call';
import { EVALUATOR_FILENAME, evaluatorSource } from './prelude';
import { Status, type WireError } from './protocol';
import { TenantContext, type Batch } from './tenant-context';
import type { SandboxLimits } from './types';

export interface CompiledScripts {
  prelude: ivm.Script;
  bundle: ivm.Script;
}

/** What a generation needs from the ModuleSandbox that owns it. */
export interface GenerationOwner {
  readonly key: string;
  readonly limits: SandboxLimits;
  /** Settles a call with an error, keeping the owner's counters. */
  failCall(call: PendingCall, error: SandboxError, awaitRollback?: boolean): void;
  /** The call ran out of time: the caller gets TIMEOUT and the guest forgets the call. */
  timedOut(call: PendingCall): void;
  generationLost(gen: Generation, retry: PendingCall[]): void;
}

type Failure = 'memory' | 'timeout' | 'disposed' | 'other';

// How many new contexts between heap checks, the least time between checks after calls, the heap
// share above which idle contexts go, the share above which the isolate is rebuilt, and how far
// (a share of the limit) a reading must be above the last known live heap to collect garbage first.
const HEAP_CHECK_EVERY = 32;
const HEAP_CHECK_MS = 100;
const HEAP_HIGH_WATER = 0.75;
const HEAP_REBUILD_WATER = 0.9;
const HEAP_COLLECT_MARGIN = 0.05;
const MB = 1024 * 1024;

export const restartedError = () =>
  new SandboxError(
    'ISOLATE_DISPOSED',
    "The module's isolate was restarted while this call was running, because another call broke its limits.",
  );

export class Generation {
  alive = true;
  readonly contexts = new Map<string, TenantContext>();
  readonly limits: SandboxLimits;
  /** How long an isolate may take to answer once a call has timed out before it is presumed stuck. */
  readonly stuckGraceMs: number;
  private createdSinceHeapCheck = 0;
  private heapCheckRunning = false;
  private lastHeapCheck = 0;
  /** The least the heap has read since the last collection this made (0 before the first): what is live is at most this. */
  private liveBound = 0;
  /** Compiled on the first host.evaluate: most modules never make one. */
  private evaluator: Promise<ivm.Script> | undefined;

  constructor(
    private readonly owner: GenerationOwner,
    readonly isolate: ivm.Isolate,
    readonly scripts: Promise<CompiledScripts>,
  ) {
    this.limits = owner.limits;
    this.stuckGraceMs = Math.min(1000, Math.max(50, this.limits.timeoutMs));
  }

  /** The tenant's context, created on first use; least recently used first in iteration order. */
  contextFor(tenantId: string): TenantContext {
    const found = this.contexts.get(tenantId);
    if (found !== undefined) {
      this.contexts.delete(tenantId);
      this.contexts.set(tenantId, found);
      return found;
    }
    this.evictIdle(this.contexts.size - this.limits.maxContexts + 1);
    const created = new TenantContext(this, tenantId);
    this.contexts.set(tenantId, created);
    this.watchHeap();
    return created;
  }

  /** The guest finished a call (protocol "d" message). */
  answered(call: PendingCall, status: unknown, value: unknown): void {
    switch (status) {
      case Status.ok:
        return call.succeed(value);
      case Status.undefined:
        return call.succeed(undefined);
      case Status.noHandler: {
        const what = call.req.kind === 'event' ? 'event handler' : 'operation';
        const error = new SandboxError('NOT_FOUND', `Module ${this.owner.key} has no ${what} "${call.req.name}".`, {
          module: this.owner.key,
          kind: call.req.kind,
          name: call.req.name,
        });
        return this.owner.failCall(call, error, true);
      }
      case Status.tooLarge: {
        const limit = this.limits.maxOutputBytes;
        const error = new SandboxError('OUTPUT_TOO_LARGE', `The result is at least ${String(value)} bytes of JSON, over the limit of ${limit}.`, {
          bytes: value,
          limit,
        });
        return this.owner.failCall(call, error, true);
      }
      default: {
        const error = handlerError(value as WireError);
        if (isAllocationFailure(error)) return this.allocationFailed(call, error);
        return this.owner.failCall(call, error, true);
      }
    }
  }

  /**
   * host.evaluate (evaluation.ts): the expression gets what is left of the call's time, at most the
   * module's timeoutMs, as a batch does. Running to the call's deadline is the call running past its
   * own; cut off before it (a call given longer, a stream), the guest gets TIMEOUT to handle. A
   * memory breach is the isolate's, as in a batch. A runaway stopped by its timeout left nothing
   * behind but its context, which goes with it, so the isolate is kept.
   */
  async evaluate(call: PendingCall, payload: unknown): Promise<unknown> {
    const req = evaluationRequest(payload);
    const timeout = Math.min(this.limits.timeoutMs, Math.floor(call.deadline - performance.now()));
    if (timeout < 1) {
      this.owner.timedOut(call);
      throw timeoutError(call.timeoutMs);
    }
    this.evaluator ??= this.isolate.compileScript(evaluatorSource(), { filename: EVALUATOR_FILENAME });
    let answer: unknown;
    try {
      answer = await runInOwnContext(this.isolate, await this.evaluator, req, this.limits.maxOutputBytes, timeout);
    } catch (e) {
      const failure = this.classify(e);
      if (failure === 'memory') this.fail(memoryError(this.limits.memoryMb), new Set([call]));
      else if (failure === 'timeout') {
        if (performance.now() < call.deadline - 5) throw new SandboxError('TIMEOUT', `The expression ran past the time limit of ${timeout} ms.`, { limitMs: timeout });
        this.owner.timedOut(call);
      }
      throw failure === 'other' ? new SandboxError('EVALUATION_ERROR', messageOf(e)) : e;
    }
    this.afterBatch();
    return evaluationAnswer(answer, this.limits.maxOutputBytes);
  }

  /**
   * isolated-vm refuses ArrayBuffers over the limit with this RangeError instead of stopping the
   * isolate, and the memory stays held: a breach. Guest code can throw the same error, so the
   * isolate's real heap decides, never the message.
   */
  private allocationFailed(call: PendingCall, error: SandboxError): void {
    this.isolate.getHeapStatistics().then(
      (heap) => {
        if (!this.alive || !this.nearLimit(heap, HEAP_HIGH_WATER)) return this.owner.failCall(call, error, true);
        this.owner.failCall(call, memoryError(this.limits.memoryMb));
        this.fail(memoryError(this.limits.memoryMb), new Set());
      },
      // Disposed meanwhile: isolated-vm stopped it at the memory limit.
      () => this.owner.failCall(call, memoryError(this.limits.memoryMb)),
    );
  }

  /**
   * After calls (at most every HEAP_CHECK_MS): a module whose heap keeps growing from call to call
   * is stopped here, before V8 reaches the limit, where some allocation shapes are fatal to the
   * whole process rather than to the isolate.
   */
  afterBatch(): void {
    const now = performance.now();
    if (now - this.lastHeapCheck < HEAP_CHECK_MS) return;
    this.lastHeapCheck = now;
    this.checkHeap();
  }

  /** A receive call was refused or cut short by isolated-vm. */
  batchFailed(batch: Batch, error: unknown): void {
    if (!this.alive) return;
    const failure = this.classify(error);
    if (failure === 'memory') return this.fail(memoryError(this.limits.memoryMb), new Set(batch.calls));
    // Whatever was in a batch that ran may have had effects: never run it again.
    for (const call of batch.calls) call.started = true;
    if (failure === 'timeout') {
      // The batch's timeout was the earliest deadline among its calls: those are the runaways.
      const now = performance.now();
      const expired = batch.calls.filter((c) => c.deadline <= now + 5);
      return this.fail(timeoutError(this.limits.timeoutMs), new Set(expired.length > 0 ? expired : batch.calls));
    }
    const cause =
      failure === 'disposed' ? restartedError() : new SandboxError('ISOLATE_DISPOSED', `The sandbox failed: ${messageOf(error)}`);
    this.fail(cause, new Set(batch.calls));
  }

  /** Creating a tenant's context failed: the bundle threw, looped, or ran out of memory. */
  contextFailed(ctx: TenantContext, error: unknown, elapsedMs: number): void {
    if (!this.alive) return;
    const waiting = new Set(ctx.calls.values());
    const failure = error instanceof SandboxError ? 'other' : this.classify(error);
    if (failure === 'memory') return this.fail(memoryError(this.limits.memoryMb), waiting);
    if (failure === 'timeout' && elapsedMs >= this.limits.timeoutMs - 5) return this.fail(timeoutError(this.limits.timeoutMs), waiting);
    if (failure === 'disposed') return this.fail(restartedError(), new Set());
    // The bundle itself is at fault; the isolate is fine. Drop the context so the next call retries.
    const initError =
      error instanceof SandboxError ? error : new SandboxError('INIT_ERROR', `The module could not start: ${messageOf(error)}`);
    this.contexts.delete(ctx.tenantId);
    ctx.close();
    for (const call of waiting) this.owner.failCall(call, initError);
    ctx.calls.clear();
  }

  /** A call timed out and the isolate did not finish a batch within the grace period: it is stuck. */
  unresponsive(): void {
    if (!this.alive) return;
    // What was in flight may be what is stuck, and may have had effects: never run it again.
    for (const other of this.contexts.values()) for (const call of other.inFlight?.calls ?? []) call.started = true;
    this.fail(
      new SandboxError('ISOLATE_DISPOSED', "The module's isolate stopped responding after a call timed out; it was restarted."),
      new Set(),
    );
  }

  /**
   * Disposes the isolate. Calls in `blamed` get `cause`; other calls that reached the guest get
   * ISOLATE_DISPOSED; calls that never did go back to the owner to run again, unless `retry` is
   * false (unload), when every call gets `cause`.
   */
  fail(cause: SandboxError, blamed: ReadonlySet<PendingCall>, retry = true): void {
    if (!this.alive) return;
    this.alive = false;
    try {
      this.isolate.dispose();
    } catch {
      // isolated-vm already disposed it (memory limit).
    }
    const again: PendingCall[] = [];
    for (const ctx of this.contexts.values()) {
      for (const call of ctx.calls.values()) {
        if (blamed.has(call) || !retry) this.owner.failCall(call, cause);
        else if (call.started) this.owner.failCall(call, restartedError());
        else again.push(call);
      }
      ctx.calls.clear();
      ctx.close();
    }
    this.contexts.clear();
    this.owner.generationLost(this, again);
  }

  private nearLimit(heap: ivm.HeapStatistics, share: number): boolean {
    return usedBytes(heap) > share * this.limits.memoryMb * MB;
  }

  private classify(error: unknown): Failure {
    const message = messageOf(error);
    if (/memory limit/i.test(message)) return 'memory';
    if (message === 'Script execution timed out.') return 'timeout';
    if (this.isolate.isDisposed || /isolate (is|was) disposed/i.test(message)) return 'disposed';
    return 'other';
  }

  /** Closes up to `count` idle contexts, least recently used first. */
  private evictIdle(count: number): void {
    if (count <= 0) return;
    for (const [tenantId, ctx] of this.contexts) {
      if (!ctx.idle) continue;
      this.contexts.delete(tenantId);
      ctx.close();
      if (--count === 0) return;
    }
  }

  /** Contexts are ~200 KB each, so a small memory limit is reached before maxContexts is. */
  private watchHeap(): void {
    if (++this.createdSinceHeapCheck < HEAP_CHECK_EVERY) return;
    this.createdSinceHeapCheck = 0;
    this.checkHeap();
  }

  /**
   * Over the high-water mark, idle contexts go (a tenant's globals are what outlives a call); over
   * the rebuild mark the isolate is rebuilt, as a memory breach would, but before one. What is live
   * decides, not what the heap reads: V8 collects an isolate's old garbage only when it needs the
   * room, so a module that makes garbage on every call (objects that live across the call's host
   * requests, a call that used most of the limit and let it go) reads near its limit with little of
   * it live.
   */
  private checkHeap(): void {
    if (this.heapCheckRunning) return;
    this.heapCheckRunning = true;
    this.judgeHeap()
      .catch(() => undefined)
      .finally(() => {
        this.heapCheckRunning = false;
      });
  }

  private async judgeHeap(): Promise<void> {
    let heap = await this.isolate.getHeapStatistics();
    this.liveBound = Math.min(this.liveBound, usedBytes(heap));
    if (!this.alive || !this.nearLimit(heap, HEAP_HIGH_WATER)) return;
    // Collected only when the heap grew well past what was live at the last look, so a heap that
    // stays full of live data is not collected over and over.
    if (usedBytes(heap) - this.liveBound > HEAP_COLLECT_MARGIN * this.limits.memoryMb * MB) {
      await this.collectGarbage();
      heap = await this.isolate.getHeapStatistics();
      this.liveBound = usedBytes(heap);
      if (!this.alive) return;
    }
    if (this.nearLimit(heap, HEAP_REBUILD_WATER)) {
      this.fail(memoryError(this.limits.memoryMb), new Set());
    } else if (this.nearLimit(heap, HEAP_HIGH_WATER)) {
      this.evictIdle(Math.ceil(this.contexts.size / 4));
    }
  }

  /**
   * isolated-vm exposes no collection, but its allocator collects all garbage before it refuses an
   * ArrayBuffer that would pass the limit: one twice the limit is always refused (a RangeError,
   * nothing allocated) after everything collectable was collected. Run in a context of its own,
   * between batches, so no module code sees it.
   */
  private async collectGarbage(): Promise<void> {
    const context = await this.isolate.createContext();
    try {
      await context.eval(`try { new ArrayBuffer(${2 * this.limits.memoryMb * MB}); } catch (_) {}`, { timeout: this.limits.timeoutMs });
    } catch {
      // Disposed meanwhile, or it took too long: the reading after it decides all the same.
    } finally {
      try {
        context.release();
      } catch {
        // Gone with its isolate.
      }
    }
  }
}

/** isolated-vm counts ArrayBuffers (external memory) against the limit too. */
const usedBytes = (heap: ivm.HeapStatistics) => heap.used_heap_size + heap.externally_allocated_size;

function handlerError(info: WireError | undefined): SandboxError {
  const name = typeof info?.name === 'string' ? info.name : 'Error';
  const message = typeof info?.message === 'string' && info.message !== '' ? info.message : `${name} thrown by the handler`;
  const details: GuestErrorInfo = { name };
  if (info?.code !== undefined) details.code = info.code;
  if (info?.details !== undefined) details.details = info.details;
  return new SandboxError('HANDLER_ERROR', message, details, typeof info?.stack === 'string' ? info.stack : undefined);
}

const isAllocationFailure = (e: SandboxError) =>
  (e.details as GuestErrorInfo).name === 'RangeError' && /^Array buffer allocation failed/.test(e.message);

// Not `instanceof Error`: isolated-vm's errors may come from another realm (a test runner's).
const messageOf = (e: unknown) =>
  typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string' ? (e as Error).message : String(e);
