/**
 * What a module declares in TypeScript (DESIGN "Contracts in code"): each operation beside its
 * handler, with input and output schemas, permission, routes and GraphQL exposure; the rest of the
 * manifest (permissions, events, models and migrations, screens, workflow nodes, schedules, jobs, limits)
 * in the same object, typed by the manifest's own types. `mandi module build` turns it into
 * module.json, which stays the only thing the host reads.
 */
import type { Static, TSchema } from '@sinclair/typebox/type';
import type { EventName, HttpRoute, Manifest, Operation, WorkflowNode } from '../manifest/manifest.types';
import type { EventHandler, HandlerContext } from './context';

/**
 * A route to an operation, declared on it: a manifest http.routes entry without `operation`. Its
 * `permission` defaults to the operation's (the build writes it in); name one only where the route
 * asks for another.
 */
export type OperationRoute = Omit<HttpRoute, 'operation'>;

/**
 * A public route to an operation (http.public.routes), under the module's `public_prefix`: no user,
 * the tenant resolved from the token in the path parameter named by `token`.
 */
export type PublicOperationRoute = Omit<HttpRoute, 'operation' | 'public' | 'permission' | 'upload' | 'stream' | 'token'> & { token: string };

/**
 * A workflow node that runs the operation it is declared on (a workflow.nodes entry): the build
 * writes its registry type "<module>:<slug>", `operation` and `configSchema` from the operation, the
 * config schema being the operation's input (its properties and required keys), so the node's
 * config and the operation's input are one fact. `from_input` names input keys the node may take
 * from its input data instead (an order id from the trigger): they stay properties, not required.
 */
export type OperationNode = Omit<WorkflowNode, 'type' | 'operation' | 'configSchema' | 'category' | 'event'> & {
  slug: string;
  category: Exclude<WorkflowNode['category'], 'trigger'>;
  from_input?: string[];
};

/** A handler whose input and output types are those of its schemas. */
export type TypedHandler<I extends TSchema, O extends TSchema> = (input: Static<I>, ctx: HandlerContext) => Static<O> | Promise<Static<O>>;

/**
 * One operation: the manifest's api.provides entry (its name is the key in `operations`, prefixed
 * with the module name), the routes that reach it, and its handler.
 */
export interface OperationDeclaration<I extends TSchema, O extends TSchema> extends Omit<Operation, 'name' | 'input' | 'output'> {
  input: I;
  /** Required: consumers and the ring's compatibility gate read what an operation returns from here. */
  output: O;
  /** HTTP routes to this operation (http.routes, in declaration order). */
  http?: OperationRoute | OperationRoute[];
  /** Public routes to this operation under the module's `public_prefix` (http.public.routes, in declaration order). */
  public_http?: PublicOperationRoute | PublicOperationRoute[];
  /**
   * The same module in a related tenant (reseller parent or descendant) may run it here through
   * `related(ctx.host).call(...)` (api.related); `ctx.relatedFrom` then names the calling tenant.
   */
  related?: boolean;
  /** The workflow node that runs this operation (workflow.nodes, after the module's own `workflow.nodes`). */
  node?: OperationNode;
  handler: TypedHandler<I, O>;
}

declare const DECLARED: unique symbol;
/** An operation passed through `operation()`, which is what types its handler from its schemas. */
export type DeclaredOperation<I extends TSchema = TSchema, O extends TSchema = TSchema> = OperationDeclaration<I, O> & {
  readonly [DECLARED]: true;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: each operation keeps its own
export type AnyDeclaredOperation = DeclaredOperation<any, any>;

export interface EventDeclarations {
  /** events.namespace: one prefix, or several (`['remittance', 'wallet']`). */
  namespace?: string | [string, ...string[]];
  /** Events the module emits (events.publishes). */
  publishes?: EventName[];
  /** Event name → handler (events.subscribes); delivery is at least once, so make it idempotent. */
  subscribes?: Record<EventName, EventHandler>;
}

/** The whole module: the manifest's fields, with operations and event handlers in place of api and events. */
export interface ModuleDeclaration<Ops extends Record<string, AnyDeclaredOperation>>
  extends Omit<Manifest, '$schema' | 'api' | 'events' | 'http'> {
  operations: Ops;
  /** Operations of other modules this one calls (api.consumes); a contract's are "payment.createLink" or "payment.*". */
  consumes?: string[];
  /** Provider contracts this module implements (api.implements), e.g. ["payment@1"] (sdk/contracts). */
  implements?: string[];
  events?: EventDeclarations;
  /** http.public.prefix: the path under /api/ the module's public routes (`public_http`) are served at, e.g. "widget". */
  public_prefix?: string;
}

/**
 * What `defineModule(declaration)` returns and the bundle exports: the handlers the sandbox calls,
 * and the declaration `mandi module build` reads at build time.
 */
export interface DeclaredModule<Ops extends Record<string, AnyDeclaredOperation>> {
  operations: { [K in keyof Ops]: Ops[K]['handler'] };
  events: Record<EventName, EventHandler>;
  declaration: ModuleDeclaration<Ops>;
}
