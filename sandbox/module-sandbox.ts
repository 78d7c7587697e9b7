/**
 * One module version: its code compiled once, one isolate at a time (rebuilt lazily after a
 * breach), one context per tenant inside it.
 */
import ivm from 'isolated-vm';
import { SandboxError } from './errors';
import { Generation, type CompiledScripts, type GenerationOwner } from './generation';
import { timeoutError } from './limits';
import { PendingCall } from './pending-call';
import { PRELUDE_FILENAME, preludeSource } from './prelude';
import { CallKind, type HostMessage } from './protocol';
import type { InvokeRequest, ModuleStats, SandboxLimits } from './types';

let lastCallId = 0;

export class ModuleSandbox implements GenerationOwner {
  private gen: Generation | undefined;
  private cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;
  private disposed = false;
  /** Set once V8 lost control of one of this module's isolates: every call is refused from then on. */
  private crash: string | undefined;
  private readonly filename: string;
  private readonly counters = { rebuilds: 0, compilations: 0, timeouts: 0, memoryLimitHits: 0 };

  /** Compiles the bundle at once, so a syntax error surfaces here; use SandboxRuntime.load(). */
  constructor(
    readonly key: string,
    readonly code: string,
    readonly limits: SandboxLimits,
    private readonly onCatastrophicError: (key: string, message: string) => void,
  ) {
    this.filename = `mandi://module/${encodeURIComponent(key)}.js`;
    const isolate = this.newIsolate();
    let bundle: ivm.Script & { cachedData?: ivm.ExternalCopy<ArrayBuffer> };
    try {
      bundle = isolate.compileScriptSync(code, { filename: this.filename, produceCachedData: true });
      this.counters.compilations++;
    } catch (e) {
      isolate.dispose();
      throw new SandboxError('SYNTAX_ERROR', `Module ${key} does not compile: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.cachedData = bundle.cachedData;
    const prelude = isolate.compileScriptSync(preludeSource(), { filename: PRELUDE_FILENAME });
    this.gen = new Generation(this, isolate, Promise.resolve({ prelude, bundle }));
  }

  invoke(req: InvokeRequest): Promise<unknown> {
    if (this.crash !== undefined) return Promise.reject(this.crashedError());
    if (this.disposed) return Promise.reject(new SandboxError('ISOLATE_DISPOSED', `Module ${this.key} is unloaded.`));
    const problem = checkRequest(req);
    if (problem) return Promise.reject(new SandboxError('INVALID_INPUT', problem));
    const id = ++lastCallId;
    const kind = req.kind === 'event' ? CallKind.event : CallKind.operation;
    let envelope: string;
    try {
      const start: HostMessage = ['c', id, kind, req.name, req.input ?? null, req.caller, req.user ?? null, req.event ?? null, req.relatedFrom ?? null, req.stream?.format ?? null, req.idempotencyKey ?? null];
      envelope = JSON.stringify(start);
    } catch (e) {
      return Promise.reject(new SandboxError('INVALID_INPUT', `The input cannot be copied into the sandbox: ${(e as Error).message}`));
    }
    const call = new PendingCall(id, req, envelope, req.timeoutMs ?? this.limits.timeoutMs, this.timedOut);
    this.dispatch(call);
    if (req.stream) void req.stream.gone.then(() => this.readerGone(call));
    return call.promise;
  }

  /**
   * The reader of a call's stream went away: the guest is told (`ctx.stream.closed`, writes reject
   * with STREAM_CLOSED) and the call keeps only the module's own time limit to end, however long
   * the stream's was.
   */
  private readerGone(call: PendingCall): void {
    if (call.settled) return;
    call.owner?.tell(call, `["k",${call.id}]`);
    call.cutShort(this.limits.timeoutMs, this.timedOut);
  }

  async stats(): Promise<ModuleStats> {
    const gen = this.gen;
    let heapUsedBytes = 0;
    let heapLimitBytes = this.limits.memoryMb * 1024 * 1024;
    let contexts = 0;
    let pendingCalls = 0;
    if (gen?.alive) {
      for (const ctx of gen.contexts.values()) {
        contexts++;
        pendingCalls += ctx.calls.size;
      }
      try {
        const heap = await gen.isolate.getHeapStatistics();
        heapUsedBytes = heap.used_heap_size + heap.externally_allocated_size;
        heapLimitBytes = heap.heap_size_limit;
      } catch {
        // Disposed while we asked.
      }
    }
    return { contexts, heapUsedBytes, heapLimitBytes, pendingCalls, ...this.counters };
  }

  /** Rejects every pending call with ISOLATE_DISPOSED and frees the isolate. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.gen?.fail(new SandboxError('ISOLATE_DISPOSED', `Module ${this.key} was unloaded.`), new Set(), false);
    this.gen = undefined;
    this.cachedData?.release();
    this.cachedData = undefined;
  }

  failCall(call: PendingCall, error: SandboxError, awaitRollback = false): void {
    if (call.settled) return;
    // A call stopped after its deadline ran out of time, whatever stopped it: under load the host's
    // deadline timer can fire after the isolate was already torn down for that very call.
    if (error.code === 'ISOLATE_DISPOSED' && !this.disposed && performance.now() >= call.deadline - 5) error = timeoutError(this.limits.timeoutMs);
    if (error.code === 'TIMEOUT') this.counters.timeouts++;
    else if (error.code === 'MEMORY_LIMIT') this.counters.memoryLimitHits++;
    call.fail(error, awaitRollback);
  }

  generationLost(gen: Generation, retry: PendingCall[]): void {
    if (this.gen === gen) this.gen = undefined;
    for (const call of retry) {
      if (call.settled) continue;
      if (this.disposed) this.failCall(call, new SandboxError('ISOLATE_DISPOSED', `Module ${this.key} was unloaded.`));
      else this.dispatch(call);
    }
  }

  private dispatch(call: PendingCall): void {
    this.generation().contextFor(call.req.tenantId).add(call);
  }

  readonly timedOut = (call: PendingCall): void => {
    if (call.settled) return;
    this.failCall(call, timeoutError(call.timeoutMs));
    call.owner?.expire(call);
  };

  /** The current generation, building a new isolate if the last one was lost. */
  private generation(): Generation {
    if (this.gen) return this.gen;
    this.counters.rebuilds++;
    const isolate = this.newIsolate();
    const scripts: Promise<CompiledScripts> = Promise.all([
      isolate.compileScript(preludeSource(), { filename: PRELUDE_FILENAME }),
      isolate.compileScript(this.code, { filename: this.filename, cachedData: this.cachedData }),
    ]).then(([prelude, bundle]) => {
      this.counters.compilations++;
      return { prelude, bundle };
    });
    scripts.catch(() => undefined); // each context awaiting it reports the failure
    this.gen = new Generation(this, isolate, scripts);
    return this.gen;
  }

  private newIsolate(): ivm.Isolate {
    return new ivm.Isolate({
      memoryLimit: this.limits.memoryMb,
      onCatastrophicError: (message) => this.crashed(message),
    });
  }

  /**
   * isolated-vm reports that V8 lost control of an isolate (some allocation shapes, e.g. an object
   * with millions of keys, fail fatally below the memory limit). Its thread never returns and its
   * memory is never freed, so waiting calls fail at once, the module takes no more calls here, and
   * the owner is told: only a new process gets the memory back.
   */
  private crashed(message: string): void {
    if (this.crash !== undefined) return; // a second report ("Script failed to terminate") of the same loss
    this.crash = message;
    const gen = this.gen;
    this.gen = undefined;
    gen?.fail(this.crashedError(), new Set(), false);
    this.onCatastrophicError(this.key, message);
  }

  private crashedError(): SandboxError {
    return new SandboxError('ISOLATE_CRASHED', `The isolate of module ${this.key} failed beyond recovery (${this.crash}); the module is refused until this process restarts.`, {
      module: this.key,
    });
  }
}

function checkRequest(req: InvokeRequest): string | undefined {
  if (typeof req !== 'object' || req === null) return 'invoke needs a request';
  if (typeof req.tenantId !== 'string' || req.tenantId === '') return 'tenantId must be a non-empty string';
  if (req.kind !== 'operation' && req.kind !== 'event') return 'kind must be "operation" or "event"';
  if (typeof req.name !== 'string' || req.name === '') return 'name must be a non-empty string';
  if (typeof req.caller !== 'string') return 'caller must be a string';
  if (req.relatedFrom !== undefined && req.relatedFrom !== null && typeof req.relatedFrom !== 'string') return 'relatedFrom must be a string or null';
  if (req.idempotencyKey !== undefined && req.idempotencyKey !== null && typeof req.idempotencyKey !== 'string') return 'idempotencyKey must be a string or null';
  if (typeof req.bridge !== 'object' || req.bridge === null) return 'a host bridge is required';
  if (req.timeoutMs !== undefined && !(Number.isFinite(req.timeoutMs) && req.timeoutMs >= 1)) return 'timeoutMs must be a number of at least 1';
  return undefined;
}
