/** The sandbox's public types: what the core supplies per call and what it gets back. */

import type { EventDelivery, LogLevel, SseEvent, StreamFormat } from './protocol';

export type { LogLevel, SseEvent, StreamFormat };

export interface FetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Shorter than the bridge's own timeout (never longer): a module that has a fallback to try gives up sooner. */
  timeoutMs?: number;
  /** Answer once the headers are in, with the body to read piece by piece (`FetchResponse.reader`). */
  stream?: boolean;
  /** Answer the body as bytes (`FetchResponse.bytes`) instead of text. */
  response?: 'bytes';
  /** Instead of `body`: text parts, and uploads the module received, spliced in as base64 by the host. */
  bodyParts?: FetchBodyPart[];
  /** The core's bridge turns `bodyParts` into this; the fetch bridge calls it once the URL passed its checks. */
  loadBody?: () => Promise<Buffer>;
}

export type FetchBodyPart = string | { upload_base64: string };

export interface FetchResponse {
  status: number;
  headers: Record<string, string>;
  /** The whole body; '' for a streamed request, whose body is `reader`; for `response: 'bytes'`, an error status's text only. */
  body: string;
  /** The whole body of a `response: 'bytes'` request. */
  bytes?: Buffer;
  reader?: FetchBody;
}

/** A streamed response's body (sandbox/fetch-body.ts). */
export interface FetchBody {
  /** The next piece of text, null at the end; rejects with FETCH_FAILED past a limit or on a broken connection. */
  read(): Promise<string | null>;
  /** Drops the rest: the connection is closed. Idempotent. */
  close(): void;
}

/** Names `HostBridge.db` accepts as its method. */
export type DbMethod =
  | 'find'
  | 'findOne'
  | 'count'
  | 'create'
  | 'bulkCreate'
  | 'update'
  | 'upsert'
  | 'destroy'
  | 'sequence'
  | 'tx.begin'
  | 'tx.commit'
  | 'tx.rollback';

/**
 * What guest code may ask of the platform, one per invocation, supplied by the core (bus). Values
 * passed in and returned are JSON copies. A rejection should carry `code`, `message` and, when
 * useful, `details`: the guest sees them on a plain Error.
 */
export interface HostBridge {
  call(op: string, input: unknown): Promise<unknown>;
  /** `tx.begin` resolves to a transaction id; other methods then receive it as `txId`. */
  db(method: DbMethod, args: unknown[], txId?: string): Promise<unknown>;
  emit(event: string, payload: unknown): Promise<void>;
  log(level: LogLevel, message: string, data?: unknown): void;
  fetch(req: FetchRequest): Promise<FetchResponse>;
  now(): number;
}

/**
 * Where a call serving a streamed route writes (the core supplies it, core/kernel/modules/response-stream.ts).
 * The sandbox checks each piece's shape; the sink owns the socket.
 */
export interface StreamSink {
  readonly format: StreamFormat;
  /**
   * Writes text ('text') or one event ('sse'). Resolves once the response has taken it (after a
   * drain when its buffer was full), so a guest that awaits each write cannot outrun its reader;
   * rejects with a code the guest sees (STREAM_CLOSED, ...).
   */
  write(piece: string | SseEvent): Promise<void>;
  /** Resolves when the reader goes away before the response ended; never rejects. */
  readonly gone: Promise<void>;
}

export interface SandboxLimits {
  /** Heap limit of the module's isolate, shared by all its tenant contexts. */
  memoryMb: number;
  /** Wall-clock limit of one call, from invoke() to its result. */
  timeoutMs: number;
  /** Tenant contexts kept per isolate; the least recently used idle one goes first. */
  maxContexts: number;
  /** Largest JSON text (in UTF-16 code units, i.e. bytes for ASCII) a result or request may be. */
  maxOutputBytes: number;
  /** Log lines one call may write; later lines are dropped with one warning. */
  maxLogLinesPerCall: number;
  /** Host requests (call, db, emit, fetch) one call may have waiting at once; more are refused. */
  maxPendingRequests: number;
}

export type InvokeKind = 'operation' | 'event';

export interface InvokeRequest {
  tenantId: string;
  kind: InvokeKind;
  /** Handler key: the method of `<module>.<method>`, or the event name. */
  name: string;
  input: unknown;
  /** Who is calling: 'core', a module alias, 'http', ... (the bus decides). */
  caller: string;
  user: unknown | null;
  /** For event handlers: which delivery this is (the id is the same on every redelivery). */
  event?: EventDelivery | null;
  /** A related tenant's id when that tenant's copy of the module made the call (`ctx.relatedFrom`). */
  relatedFrom?: string | null;
  /** A workflow step's idempotency key (`ctx.idempotencyKey`). */
  idempotencyKey?: string | null;
  bridge: HostBridge;
  /** A call serving a streamed route: its handler gets `ctx.stream`, whose writes go here. */
  stream?: StreamSink;
  /**
   * This call's wall-clock limit instead of the module's `timeoutMs` (a stream's declared time).
   * Each batch of guest code still runs at most `timeoutMs`, so a CPU loop is cut off as soon.
   */
  timeoutMs?: number;
}

export interface ModuleStats {
  contexts: number;
  /** Used V8 heap of the module's isolate (0 while it is not running). */
  heapUsedBytes: number;
  heapLimitBytes: number;
  /** Isolates built after the first one, i.e. after a timeout, memory limit or crash. */
  rebuilds: number;
  /** Times the bundle was compiled: once per isolate, never per tenant context. */
  compilations: number;
  /** Calls accepted and not yet answered. */
  pendingCalls: number;
  timeouts: number;
  memoryLimitHits: number;
}

export interface SandboxRuntimeOptions {
  /** Defaults for every module loaded by this runtime. */
  limits?: Partial<SandboxLimits>;
  /**
   * isolated-vm reports that V8 lost control of an isolate: the process should stop taking work
   * and exit. Defaults to a process warning.
   */
  onCatastrophicError?: (moduleKey: string, message: string) => void;
}
