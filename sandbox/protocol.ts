/**
 * The wire between the host and the guest prelude (sandbox/guest/): the one definition both sides
 * import. Each side sends one JSON array of messages per flush, as a single string, so a burst of
 * calls crosses the isolate boundary once instead of once per call. Values already measured as JSON
 * text by the sender are spliced into the message text as they are, so a message is often built as
 * a string; its shape is still the tuple type below.
 *
 * This file runs on both sides: it is bundled into the guest prelude, so it imports nothing and uses
 * nothing but ES2022 (sandbox/guest/tsconfig.json checks it that way).
 */

export const CallKind = { operation: 0, event: 1 } as const;
export type CallKind = (typeof CallKind)[keyof typeof CallKind];

/** Status of a "d" or "r" message. */
export const Status = {
  /** Failed: value is a WireError. */
  error: 0,
  /** Succeeded with a JSON value. */
  ok: 1,
  /** Succeeded with undefined: no value. */
  undefined: 2,
  /** ("d" only) the module has no handler by that name: value is the name. */
  noHandler: 3,
  /** ("d" only) the JSON result was over the output limit: value is (at least) its length. */
  tooLarge: 4,
} as const;
export type Status = (typeof Status)[keyof typeof Status];

/**
 * `body`: `[id, 'read' | 'cancel']` on a streamed fetch's body, by the id its head carried.
 * `evaluate`: `[expression, inputs]`, served by the sandbox itself in a context of its own (evaluation.ts).
 */
export type BridgeKind = 'call' | 'db' | 'emit' | 'fetch' | 'body' | 'stream' | 'evaluate';

/**
 * How a call serving a streamed route writes (core/kernel/modules/route-response.ts): chunks of text, or
 * server-sent events. Absent (null) for every other call: its handler gets no `ctx.stream`.
 */
export type StreamFormat = 'text' | 'sse';

/** One server-sent event as the guest sends it: data is text (the guest stringifies other values). */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What an error looks like on the wire, in either direction. */
export interface WireError {
  name?: string;
  message: string;
  code?: string | number;
  details?: unknown;
  stack?: string;
}

/** The event delivery a call handles (`ctx.event`). */
export interface EventDelivery {
  id: string;
  name: string;
  emitted_at: string;
}

/** host → guest */
export type HostMessage =
  /** Start a call. */
  | [tag: 'c', callId: number, kind: CallKind, name: string, input: unknown, caller: string, user: unknown, event: EventDelivery | null, relatedFrom: string | null, stream: StreamFormat | null, idempotencyKey: string | null]
  /** Reply to a bridge request; `blob` indexes the batch's byte arrays (a `response: 'bytes'` fetch's body). */
  | [tag: 'r', reqId: number, status: typeof Status.error, value: WireError]
  | [tag: 'r', reqId: number, status: typeof Status.ok, value: unknown, blob?: number]
  | [tag: 'r', reqId: number, status: typeof Status.undefined]
  /** Forget a call the host gave up on. */
  | [tag: 'x', callId: number]
  /** The reader of the call's stream went away: `ctx.stream.closed` turns true, writes reject. */
  | [tag: 'k', callId: number];

/**
 * guest → host. Guest code can break the prelude's own context, so the host reads these as
 * unknown and checks every field; this is what a working prelude sends.
 */
export type GuestMessage =
  /** A call finished. */
  | [tag: 'd', callId: number, status: typeof Status.error, value: WireError]
  | [tag: 'd', callId: number, status: typeof Status.ok, value: unknown]
  | [tag: 'd', callId: number, status: typeof Status.undefined]
  | [tag: 'd', callId: number, status: typeof Status.noHandler, name: string]
  | [tag: 'd', callId: number, status: typeof Status.tooLarge, length: number]
  /**
   * A bridge request; the host answers with an "r" of the same reqId. `blobs`: where the request's
   * byte arrays start in the batch's (a fetch body's `bytes` indexes count from there).
   */
  | [tag: 'q', callId: number, reqId: number, kind: BridgeKind, payload: unknown, blobs?: number]
  /** A log line (no reply). */
  | [tag: 'l', callId: number, level: LogLevel, message: string, data?: unknown];

/**
 * The guest's `receive(batch, blobs?)`: a JSON array of HostMessage, or 'init' (answered with '' or a
 * problem). Bytes never go into the JSON: they cross beside it as `blobs`, copied by isolated-vm in
 * one piece each (ArrayBuffer copies, no base64), and messages name them by index.
 */
export type Receive = (batch: string, blobs?: Uint8Array[]) => string | undefined;

/** The prelude's completion value: called once per context with what it keeps in its closure. */
export type Boot = (
  post: (batch: string, blobs?: Uint8Array[]) => void,
  clock: (callId: number) => number,
  tenantId: string,
  maxOutput: number,
  maxLogs: number,
  maxPending: number,
) => Receive;

/**
 * The evaluator script's completion value (guest/evaluate.ts), run once in each context host.evaluate
 * makes: the expression, its inputs as a JSON object text, the output limit; answers the JSON text of
 * `[Status.ok, value]`, `[Status.undefined]`, `[Status.tooLarge, length]` or `[Status.error, WireError]`.
 */
export type Evaluate = (expression: string, inputs: string, maxOutput: number) => string;
