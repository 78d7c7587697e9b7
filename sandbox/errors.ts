/** The one error type the sandbox throws, with a stable code for the bus to map. */

export type SandboxErrorCode =
  /** The call ran past its time limit. */
  | 'TIMEOUT'
  /** The isolate ran out of its memory limit during the call. */
  | 'MEMORY_LIMIT'
  /** The handler threw or rejected; `details` is what it threw. */
  | 'HANDLER_ERROR'
  /** No module loaded under that key, or the module has no handler by that name. */
  | 'NOT_FOUND'
  /** The result's JSON was over the output limit. */
  | 'OUTPUT_TOO_LARGE'
  /** The isolate was disposed (unloaded, or rebuilt after another call broke a limit) mid-call. */
  | 'ISOLATE_DISPOSED'
  /** V8 lost control of the module's isolate (catastrophic out-of-memory); the module is refused until the process restarts. */
  | 'ISOLATE_CRASHED'
  /** The bundle does not parse. */
  | 'SYNTAX_ERROR'
  /** The bundle threw while loading, or did not define a module. */
  | 'INIT_ERROR'
  /** The input could not be copied into the sandbox (not JSON-serialisable). */
  | 'INVALID_INPUT'
  /** Seen by guest code: a malformed `host` request (unknown db method, foreign transaction, ...). */
  | 'INVALID_REQUEST'
  /** Seen by guest code: a stream write from a call that serves no streamed route. */
  | 'STREAM_NOT_OPEN'
  /** Used by createFetchBridge: the origin is not on the tenant's list, or the URL is not http(s). */
  | 'FETCH_DENIED'
  /** Used by createFetchBridge: the request failed, timed out, or its response was too large. */
  | 'FETCH_FAILED'
  /** Used by createFetchBridge: the module's request body is over `maxRequestBytes`; nothing was sent. */
  | 'FETCH_BODY_TOO_LARGE'
  /** Seen by guest code: too many streamed fetch bodies open, in the call or in the tenant. */
  | 'FETCH_STREAM_LIMIT'
  /** Seen by guest code: the expression given to host.evaluate threw or does not parse; `details` is `{name}`. */
  | 'EVALUATION_ERROR';

/** What the guest threw, as carried in `details` of a HANDLER_ERROR. */
export interface GuestErrorInfo {
  name: string;
  /** Present when the guest threw an object with a string or number `code`. */
  code?: string | number;
  /** Present when the guest threw an object with `details`. */
  details?: unknown;
}

export class SandboxError extends Error {
  /** The guest's stack trace for HANDLER_ERROR; for logs, never for API responses. */
  readonly guestStack?: string;

  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    readonly details?: unknown,
    guestStack?: string,
  ) {
    super(message);
    this.name = 'SandboxError';
    if (guestStack !== undefined) this.guestStack = guestStack;
  }
}

export const isSandboxError = (e: unknown): e is SandboxError => e instanceof SandboxError;
