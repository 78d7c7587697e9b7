/**
 * The shapes that cross the bus (DESIGN.md, Bus). One operation serves REST, GraphQL, workflow
 * nodes and AI tools; the caller says who is asking, the context says for which tenant and user.
 */
import type { UserRef } from '../context';
import type { StreamSink } from '../../../sandbox';
import type { CoreContract } from '../../../sdk/contracts/platform';

/** Who makes a call. */
export type Caller =
  | { kind: 'core'; name?: string }
  /** A module's sandboxed code (its manifest's consumes list applies). */
  | { kind: 'module'; alias: string }
  /** An edge on behalf of a user: REST route, GraphQL field, workflow node, AI tool. */
  | { kind: 'edge'; via: 'http' | 'graphql' | 'workflow' | 'ai' };

export interface CallContext {
  tenantId: string;
  user: UserRef | null;
  /** Permission names of the user in the tenant ('*' = all); checked for edge callers. */
  permissions?: ReadonlySet<string>;
  requestId?: string;
  /**
   * Set when a related tenant's module made this call (tenants.call_related, spec 3 reseller
   * network): that tenant's id. The handler sees it as ctx.relatedFrom; calls it makes in turn do not.
   */
  relatedFrom?: string;
  /**
   * The tenants a chain of related-tenant calls has entered, first the one it started in: a related
   * call into one of them again is a loop (CALL_DEPTH_EXCEEDED). Unset before the first related call.
   */
  tenantPath?: readonly string[];
  /**
   * Set by the workflow engine on a node's call: `<execution>:<node>:<attempt>`, the same each time
   * that step is made again after a crash. The handler sees it as ctx.idempotencyKey; calls it makes do not.
   */
  idempotencyKey?: string;
  /** Set on the call that runs a module job and the calls it makes, so jobs.progress knows which job reports (core/kernel/modules/module-jobs.ts). */
  job?: { id: string; alias: string };
  /**
   * Set by the module scheduler on the call that runs a schedule and the calls it makes: the slot it
   * fires (ISO 8601), so what the schedule starts can tell it from a call made at any other time.
   */
  scheduleSlot?: string;
  /**
   * Set by the workflow engine on a node's call and kept on the calls it makes: the workflows of the
   * chain of runs that led to this call, the calling run's own last (core/services/workflows/run-chain.ts).
   * Events emitted under it carry it, so a run they start knows its chain.
   */
  workflowChain?: readonly string[];
  /**
   * Set by the workflow engine on a node's own call, like idempotencyKey (calls it makes do not
   * have it): the run the node belongs to, which a sub-workflow node waits in.
   */
  workflowExecutionId?: string;
}

export interface CallOptions {
  /** Coerce string values to the schema's types (query strings and path parameters). */
  coerce?: boolean;
  /** A streamed route (core/kernel/modules/route-response.ts): only a module's handler can serve one. */
  stream?: CallStream;
}

/** Where a streamed route's handler writes (`ctx.stream`), and how long it may run instead of the module's limit. */
export interface CallStream {
  sink: StreamSink;
  timeoutMs: number;
}

/**
 * An operation implemented by the host itself (e.g. notifications.send): its contract
 * (sdk/contracts/platform) and handler, made by defineCoreOperation (./core-operation.ts).
 */
export interface CoreOperation extends CoreContract {
  /** Called only with input the contract's schema accepted. */
  handler: (input: unknown, ctx: CallContext, caller: Caller) => Promise<unknown>;
}

/** The platform's module scheduler: the one caller of a schedule's operation. */
export const SCHEDULER = { kind: 'core', name: 'scheduler' } as const satisfies Caller;

/** The caller in audit records and rate-limit keys: "module:<alias>", "core[:<part>]", "edge:<via>". */
export const callerName = (c: Caller): string => (c.kind === 'module' ? `module:${c.alias}` : c.kind === 'core' ? `core${c.name ? `:${c.name}` : ''}` : `edge:${c.via}`);

/** The caller as a handler sees it (`ctx.caller`, sdk/runtime/context.ts): a module alias, the edge ("http", "graphql", …) or "core". */
export const guestCallerName = (c: Caller): string => (c.kind === 'module' ? c.alias : c.kind === 'edge' ? c.via : 'core');
