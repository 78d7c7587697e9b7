/**
 * What a module's handlers receive and what a module exports: the guest contract shared with the
 * sandbox. A bundle's `default` (or the bundle itself) is a ModuleDefinition; operation "orders.get"
 * is served by `operations.get`, event "orders.created" by `events["orders.created"]`.
 */
import type { Host } from './host';

/** The user on whose behalf a call runs, when there is one. */
export interface ContextUser {
  id: number;
  email: string;
  name: string;
  /** Permission names the user holds in this tenant. */
  permissions?: string[];
}

export interface HandlerContext {
  /** Tenant the call runs for; host.db and host.call stay within it. */
  tenantId: string;
  /** Who called: a module alias, "http", "graphql", "workflow", "ai", or "core" (the platform itself: events, schedules, jobs). */
  caller: string;
  /** Null for system work (events, jobs, schedules). */
  user: ContextUser | null;
  /**
   * In an event handler: the delivery's event. `id` is the same on every redelivery of one event
   * (delivery is at least once), so handlers can record what they did per event id. Null otherwise.
   */
  event: EventInfo | null;
  /**
   * The tenant whose copy of this module called, when the call came from a related tenant (the
   * reseller parent or a descendant, through `related(ctx.host).call`); null otherwise. Only
   * operations listed in api.related are ever called this way.
   */
  relatedFrom: string | null;
  /**
   * On a workflow node's call: `<execution>:<node>:<attempt>`, the same when the engine makes that
   * step again after a crash; pass it on (e.g. as an Idempotency-Key header) or record it so the
   * effect happens once. Null in every other call.
   */
  idempotencyKey: string | null;
  host: Host;
  /**
   * In a handler serving a route whose response kind is "stream" (manifest http.routes[].response):
   * the open response to write to. Null in every other call.
   */
  stream: StreamWriter | null;
}

/**
 * Writes a streamed route's answer while the request is open. Each write resolves once the host's
 * response took the piece (after the reader caught up when its buffer was full): await each one,
 * or writes past about 1 MB waiting for the reader reject with STREAM_BACKPRESSURE. A piece may be
 * at most 256 KB. When the reader goes away, `closed` turns true and writes reject with
 * STREAM_CLOSED: return then. The stream ends when the handler returns (its value is ignored); a
 * throw after the first piece ends it with an SSE `error` event, or a cut-off text body.
 */
export interface StreamWriter {
  /** Text streams: appends `chunk`. SSE streams: sends a message event whose data is `chunk`. */
  write(chunk: string): Promise<void>;
  /** SSE streams only (content_type text/event-stream): one event; data other than a string is sent as JSON. */
  event(event: SseEventInit): Promise<void>;
  /** The reader has gone, or the call has ended. */
  readonly closed: boolean;
}

export interface SseEventInit {
  /** The event type (EventSource listeners by name); none is a "message". No line breaks. */
  event?: string;
  data: unknown;
  /** Sent back by a reconnecting EventSource as Last-Event-ID. No line breaks. */
  id?: string;
  /** How long a disconnected EventSource waits before reconnecting, in ms. */
  retry?: number;
}

export interface EventInfo {
  id: string;
  name: string;
  /** ISO 8601 UTC. */
  emitted_at: string;
}

/** Serves one operation: takes the validated input, returns the (JSON) output. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a handler written without types takes the validated input as it comes
export type OperationHandler<I = any, O = unknown> = (input: I, ctx: HandlerContext) => O | Promise<O>;

/** Handles one subscribed event; delivery is at least once, so make it idempotent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as OperationHandler
export type EventHandler<P = any> = (payload: P, ctx: HandlerContext) => void | Promise<void>;

export interface ModuleDefinition {
  /** Method name (the part after "<alias>.") → handler. */
  operations: Record<string, OperationHandler>;
  /** Full event name → handler, one per events.subscribes entry. */
  events?: Record<string, EventHandler>;
}
