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
  host: Host;
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
