/**
 * The wire between the host and the guest prelude (sandbox/prelude.ts). Each side sends one JSON
 * array of messages per flush, as a single string, so a burst of calls crosses the isolate boundary
 * once instead of once per call. The prelude spells the same tags as string literals.
 *
 * host → guest
 *   ["c", callId, kind, name, input, caller, user, event]
 *                                                  start a call (kind: 0 operation, 1 event; event:
 *                                                  {id, name, emitted_at} of an event delivery, else null)
 *   ["r", reqId, status, value]                     reply to a bridge request (status below)
 *   ["x", callId]                                    forget a call the host gave up on
 * guest → host
 *   ["d", callId, status, value]                     a call finished
 *   ["q", callId, reqId, kind, payload]              a bridge request (kind: call|db|emit|fetch)
 *   ["l", callId, level, message, data?]             a log line (no reply)
 */

export const CallKind = { operation: 0, event: 1 } as const;

/** Status of a "d" or "r" message. */
export const Status = {
  /** Failed: value is {name, message, code?, details?, stack?}. */
  error: 0,
  /** Succeeded with a JSON value. */
  ok: 1,
  /** Succeeded with undefined. */
  undefined: 2,
  /** The module has no handler by that name: value is the name. */
  noHandler: 3,
  /** The JSON result was over the output limit: value is its length. */
  tooLarge: 4,
} as const;

export type BridgeKind = 'call' | 'db' | 'emit' | 'fetch';

/** What an error looks like on the wire, in either direction. */
export interface WireError {
  name?: string;
  message: string;
  code?: string | number;
  details?: unknown;
  stack?: string;
}
