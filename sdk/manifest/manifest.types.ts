/**
 * GENERATED from manifest.schema.json by sdk/manifest/generate-types.ts. Do not edit by hand:
 * change the schema, then run `npm run gen:manifest-types`.
 *
 * Properties with a schema default (e.g. graphql_expose, limits) are optional here; validateManifest
 * fills them in, so a validated manifest always carries them.
 */

/**
 * An event name, "<module>.<event>".
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "eventName".
 */
export type EventName = string;
/**
 * A permission name, e.g. "orders.view".
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "permissionName".
 */
export type PermissionName = string;
/**
 * A bus operation name, "<module>.<method>".
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "operationName".
 */
export type OperationName = string;
/**
 * A prefix of event names a module publishes under.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "eventNamespace".
 */
export type EventNamespace = string;
/**
 * A file path relative to the module folder.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "filePath".
 */
export type FilePath = string;

/**
 * module.json: everything the Mandi core needs to know about a module. The core reads only this file; the module's code runs in a sandbox and meets the rest of the platform through the bus.
 */
export interface Manifest {
  /**
   * Optional link to this schema, so editors can validate and complete module.json.
   */
  $schema?: string;
  /**
   * The module alias, e.g. "orders". It prefixes every operation, event, screen and workflow node the module declares, and names its database schema.
   */
  name: string;
  /**
   * The module version, SemVer 2.0 (e.g. "1.4.2"). A breaking change to provided operations or the GraphQL schema needs a major bump.
   */
  version: string;
  /**
   * One or two sentences on what the module does, shown in the module catalog.
   */
  description?: string;
  compatibility: Compatibility;
  /**
   * Modules this module needs installed alongside it: alias → SemVer range (e.g. {"orders": "^1.2.0"}). Checked against the ring's installed versions; cycles are refused.
   */
  dependencies?: {
    [k: string]: string;
  };
  /**
   * Path of the single-file bundle `mandi module build` writes (esbuild, iife, global __mandi_module), relative to the module folder.
   */
  main?: string;
  api?: Api;
  events?: Events;
  realtime?: Realtime;
  http?: Http;
  /**
   * Permissions the module defines; tenants grant them to roles. Every permission named "<own alias>.…" that an operation or route uses must be declared here.
   */
  permissions?: Permission[];
  /**
   * Secrets the module keeps per tenant (API keys, webhook secrets): encrypted at rest by the host, set by tenant admins with PUT /api/v1/modules/{alias}/secrets/{name} (write-only) or by the module with secrets.set, read in clear only by this module's code (secrets.get). A module reads and writes only the names declared here.
   *
   * @maxItems 100
   */
  secrets?: Secret[];
  settings?: SettingsSchema;
  graphql?: GraphqlConfig;
  mobile?: Mobile;
  console?: Console;
  workflow?: Workflow;
  /**
   * Operations the platform runs on a timer for every tenant that has the module installed, through the job queue (at least once; a run that fails is retried). The operation receives {schedule, scheduled_at} and runs with no user.
   */
  schedules?: ModuleSchedule[];
  /**
   * Background jobs the module enqueues itself with the public operation jobs.enqueue: each name runs one of the module's own operations in the sandbox, for the enqueueing tenant, with no user. The operation receives {job, data, attempt, id}; an attempt that throws is retried with the declared backoff (at least once delivery: make the operation idempotent).
   */
  jobs?: {
    [k: string]: ModuleJob;
  };
  data?: Data;
  limits?: Limits;
}
/**
 * Which platform releases the module runs on.
 */
export interface Compatibility {
  /**
   * SemVer range of platform versions the module supports, e.g. "^2.0.0". The core refuses to load the module when its own version is outside this range.
   */
  platform: string;
}
/**
 * The module's bus operations: what it provides and what it may call.
 */
export interface Api {
  /**
   * Operations the module serves on the bus. Each one is reachable from REST (http.routes), GraphQL, workflow nodes and AI tools.
   */
  provides?: Operation[];
  /**
   * Operations of other modules this module may call with host.call: exact names ("orders.get") or every operation of a module ("orders.*"); for a provider contract, its operations ("payment.createLink", "payment.*"), routed to the tenant's chosen provider. Calls to anything else are refused by the bus.
   */
  consumes?: string[];
  /**
   * Operations of this module that the same module in a related tenant (the reseller parent, or a descendant) may run here with the tenants.call_related operation (spec 3, reseller network). Each must be in api.provides. The handler runs in this tenant and reads the calling tenant from ctx.relatedFrom; operations not listed are never reachable from another tenant.
   */
  related?: string[];
  /**
   * Provider contracts the module implements, e.g. ["payment@1"] (sdk/contracts): for each operation of the contract it provides "<own alias>.<method>", accepting at least the contract's input and returning what the contract's output promises. Consumers call "<contract>.<method>" (e.g. "payment.createLink") and the bus routes the call to the implementation the tenant chose.
   */
  implements?: string[];
}
/**
 * A bus operation the module provides.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "operation".
 */
export interface Operation {
  /**
   * "<own alias>.<method>"; the handler is `operations[<method>]` in the module code.
   */
  name: string;
  /**
   * What the operation does; shown as the GraphQL field description and to AI agents choosing tools.
   */
  description: string;
  /**
   * JSON schema the bus validates the input against before dispatching.
   */
  input?: JsonSchema;
  /**
   * JSON schema of the result (documentation, GraphQL and breaking-change checks).
   */
  output?: JsonSchema;
  /**
   * Permission the calling user needs. An operation reachable from an edge (an authenticated http route without a permission of its own, a derived GraphQL field, an AI tool, a workflow node) must name one, unless `open_to_members` says why every member may call it.
   */
  permission?: string;
  /**
   * Why any authenticated member of the tenant may call this operation from an edge without a permission (e.g. "reads the caller's own profile"). The only way an edge-reachable operation goes without `permission`; reviewers grep for it.
   */
  open_to_members?: string;
  /**
   * Include this operation when GraphQL fields are derived from api.provides (spec 1, GraphQL rule 7).
   */
  graphql_expose?: boolean;
  /**
   * Offer this operation to AI agents as a tool (spec 2, Tools); absent means true, except in a module that runs agents (consumes tools.list or tools.call), whose operations are never tools and where true is refused. Set false for internal work such as scheduled jobs.
   */
  ai_tool?: boolean;
  /**
   * Any module may call it without listing it in api.consumes (e.g. sending a notification).
   */
  public?: boolean;
}
/**
 * Events on the module event bus.
 */
export interface Events {
  /**
   * Prefix, or prefixes, of the events the module publishes when it is not the alias, e.g. "order" for the orders module's "order.created", or ["remittance", "wallet"] for a module whose spec names events under two nouns (spec 3, Events). Only one module installed in a tenant may publish under a name: another module's alias or namespace is refused at install.
   *
   * @minItems 1
   */
  namespace?: EventNamespace | [EventNamespace, ...EventNamespace[]];
  /**
   * Events the module emits with host.emit, each named "<own alias>.<event>" or "<events.namespace>.<event>" (e.g. "order.created").
   */
  publishes?: EventName[];
  /**
   * Events the module receives, at least once, through the job queue; each needs a handler under `events` in the module code, keyed by the event name.
   */
  subscribes?: EventName[];
}
/**
 * Realtime channels the module owns (spec 2, Events). The module broadcasts on them with the core operation realtime.broadcast and admits anonymous sockets with realtime.grant_visitor; sockets join them as `join` says. Only one module installed in a tenant may own a channel: overlapping patterns are refused at install.
 */
export interface Realtime {
  /**
   * @maxItems 50
   */
  channels?: RealtimeChannel[];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "realtimeChannel".
 */
export interface RealtimeChannel {
  /**
   * The channels, e.g. "chat.conversation.{id}": a parameter stands for one segment of letters, digits, _ or -. Names starting with "private-" and the platform's own channels are refused.
   */
  pattern: string;
  /**
   * What is broadcast there, for admins and client authors.
   */
  description?: string;
  join: RealtimeJoin;
}
/**
 * Who may subscribe: members holding `permission`, and/or visitors (anonymous sockets) whose grant from realtime.grant_visitor names the channel.
 */
export interface RealtimeJoin {
  /**
   * Members holding this permission (or every permission) may join any channel of the pattern. Without it, members may not join.
   */
  permission?: string;
  /**
   * true: the module may grant anonymous sockets the exact channels of this pattern it names (realtime.grant_visitor).
   */
  visitor?: boolean;
}
/**
 * REST routes the module adds under /api/v1, and public routes under a prefix of its own outside it.
 */
export interface Http {
  /**
   * Each route dispatches to one provided operation; path and query parameters and the body reach the handler as its input.
   */
  routes?: HttpRoute[];
  public?: HttpPublic;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "httpRoute".
 */
export interface HttpRoute {
  /**
   * HTTP method.
   */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * Express-style path under /api/v1, e.g. "/orders/:id" (in http.public.routes: under /api/<prefix>, e.g. "/:token/config").
   */
  path: string;
  /**
   * The provided operation this route dispatches to.
   */
  operation: string;
  /**
   * Permission the signed-in user needs, checked before dispatch. Omitted on an authenticated route, it is the operation's own (`mandi module build` writes it in; the host also accepts it left out). Name another only where the route asks for more than the operation: the operation's own is then checked as well. A public route names none.
   */
  permission?: string;
  /**
   * Error body shape of the spec area: platform {message, errors}, workflows {success:false, message, errors?}, reseller {error, code, details}.
   */
  error_shape?: 'platform' | 'workflows' | 'reseller';
  /**
   * Served without a bearer token, for callers outside the platform such as a carrier's or gateway's webhook. The tenant still comes from the subdomain or X-Tenant; the operation runs with no user and must authenticate the caller itself (e.g. by a signature). A public route may not name a permission.
   */
  public?: boolean;
  /**
   * Requests per window, as points/seconds: for a public route (default 60/60) per client address on http.routes, per token and client address on http.public.routes (spec 2, Limits: webhook endpoints 120/60, execute endpoints 30/60); for an authenticated route (no default: unlimited) per signed-in user in the tenant, one counter shared by the module's routes that declare the same limit (spec 3, Limits: reseller reads 100/60, writes 30/60). Answers carry X-RateLimit-* headers; past the limit, 429 with Retry-After.
   */
  rate_limit?: string;
  /**
   * Only in http.public.routes, where it is required: the path parameter (without the colon) holding the token the tenant is resolved from, e.g. "token" for "/:token/config".
   */
  token?: string;
  cors?: RouteCors;
  /**
   * Status of a successful answer (default 201 for POST, else 200); 202 for work accepted into a queue.
   */
  success_status?: 200 | 201 | 202 | 204;
  upload?: RouteUpload;
  stream?: RouteStream;
  response?: RouteResponse;
}
/**
 * Only in http.public.routes: browsers on other sites may call the route when the module allows their Origin. The host calls the operation with {token, origin} and expects {allow: boolean}; it answers preflights itself and caches each decision for 30 seconds.
 */
export interface RouteCors {
  /**
   * The provided operation that decides whether an origin may call the route with a token.
   */
  operation: string;
}
/**
 * The route takes a multipart/form-data body with one file: the host streams the file to its upload store (never into the sandbox) and the operation receives upload: {id, filename, size, content_type} plus the other form fields. A file over max_bytes gets 413, another content type 415, a missing file 422. The module hands the upload id to a core operation such as files.process_csv.
 */
export interface RouteUpload {
  /**
   * Form field holding the file.
   */
  field: string;
  /**
   * Largest accepted file, in bytes.
   */
  max_bytes: number;
  /**
   * Accepted content types of the file part (default any).
   *
   * @minItems 1
   * @maxItems 20
   */
  accept?:
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string]
    | [string, string, string, string, string, string]
    | [string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string, string]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ];
}
/**
 * The route answers with a streamed file: the host calls the page operation (default: the route's operation) with the route input plus cursor (null first), gets {columns, rows (arrays of cell values), next_cursor, filename?}, and writes each page as it arrives, with backpressure, until next_cursor is null. An error on the first page is answered as a normal JSON error; nothing is streamed.
 */
export interface RouteStream {
  /**
   * File format written.
   */
  format: 'csv';
  /**
   * Operation returning one page; default the route's operation.
   */
  page_operation?: string;
  /**
   * The whole stream must finish within this many seconds, or it is cut off.
   */
  timeout_s?: number;
  /**
   * Streams of this route served at once per node; more get 429.
   */
  concurrency?: number;
}
/**
 * What the route answers (default JSON). text: the handler returns a string, sent as content_type. bytes: the handler returns {base64}, sent decoded as content_type (audio, PDF, images). stream: the handler writes pieces with ctx.stream while the request is open, server-sent events when content_type is text/event-stream (the default), else chunked text; its return value is ignored. Not with the bulk-file stream above. An error before the first piece is answered as a normal JSON error. page (GET only, no content_type): the handler returns an HTML string, served as a sandboxed document of no origin: its own inline script and style run, but it reaches no network, no storage and nothing of the console it is framed in (spec 1 Client behaviour: the console's fallback to a module page).
 */
export interface RouteResponse {
  /**
   * json: the handler's result as JSON (the default); text, bytes, stream or page as above.
   */
  kind: 'json' | 'text' | 'bytes' | 'stream' | 'page';
  /**
   * Content-Type of the answer: required for text and bytes; for stream text/event-stream (the default), a text/* type or application/x-ndjson. Never a type a browser runs as a page (HTML, XHTML, SVG, XML, multipart/x-mixed-replace): module answers share the web console's origin.
   */
  content_type?: string;
  /**
   * stream only (default 60): a handler still writing after this many seconds is stopped and the stream ended (an SSE error event, or a cut-off body). It may exceed limits.timeout_ms, which still bounds each stretch of the handler's own code.
   */
  timeout_s?: number;
  /**
   * text and bytes only: "attachment" sends `Content-Disposition: attachment` (a download, never shown in the browser's tab), with the file name the handler gives (`{base64, filename}` for bytes, e.g. a user's file).
   */
  disposition?: 'attachment';
}
/**
 * Public routes served at /api/<prefix><path>, outside /api/v1 (spec 2: /api/widget/{token}/...): no authentication, no X-Tenant; the tenant is the one whose module got the route's token from public_tokens.register. A prefix has one owner on the whole platform: the first module to publish it (or, for a development module, to install it); any other module using it, or one overlapping it, is refused at publish, install and promotion.
 */
export interface HttpPublic {
  /**
   * Path under /api/ the module owns, e.g. "widget" or "hooks/incoming"; "v1" and the platform's own areas (its /api/v1 areas, and "webhooks") are refused.
   */
  prefix: string;
  /**
   * Routes under the prefix. Each names its token path parameter (`token`); `permission`, `upload` and `stream` do not apply (`public` is implied).
   *
   * @minItems 1
   */
  routes: [HttpRoute, ...HttpRoute[]];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "permission".
 */
export interface Permission {
  name: PermissionName;
  /**
   * What holding the permission allows, shown to tenant admins.
   */
  description: string;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "secret".
 */
export interface Secret {
  /**
   * The secret's name, e.g. "api_key": unique in the module.
   */
  name: string;
  /**
   * What the value is and where the tenant finds it (shown to tenant admins beside the field).
   */
  description: string;
}
/**
 * The module's settings per tenant, as a JSON schema of an object (DESIGN.md, Host capabilities for modules; docs/decisions/module-settings.md): the host stores them (secrets, `writeOnly: true`, as module secrets), fills in defaults, validates writes, and serves GET/PUT/PATCH /api/v1/modules/{alias}/settings to tenant admins; module code reads and writes them with settings.get / settings.set. The stored document is at most 64 KB.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "settingsSchema".
 */
export interface SettingsSchema {
  type: 'object';
  description?: string;
  /**
   * Names a PUT (replace) must carry; a PATCH may leave them as they are.
   *
   * @maxItems 100
   */
  required?: string[];
  properties: {
    [k: string]: SettingProperty;
  };
}
/**
 * One setting: a JSON schema of a value, from these keywords only.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "settingProperty".
 */
export interface SettingProperty {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
  title?: string;
  /**
   * What the setting does (shown to tenant admins beside the field).
   */
  description: string;
  /**
   * The value GET and settings.get show while none is stored; must satisfy this schema. Not for secrets.
   */
  default?: unknown;
  /**
   * @minItems 1
   */
  enum?: [unknown, ...unknown[]];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: {
    [k: string]: JsonSchema;
  };
  required?: string[];
  additionalProperties?: boolean;
  /**
   * A secret (strings only): kept encrypted as the module secret "settings:<name>", never answered over HTTP (GET shows {set: true|false}); only the module's own settings.get reads it in clear.
   */
  writeOnly?: boolean;
}
/**
 * A JSON schema (draft-07), checked against the draft-07 meta-schema.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "jsonSchema".
 */
export interface JsonSchema {
  [k: string]: unknown;
}
/**
 * How the module joins the GraphQL schema (spec 1, GraphQL rules 5-7): a schema file with resolvers first, else providers, else fields derived from api.provides.
 */
export interface GraphqlConfig {
  /**
   * SDL file under graphql/, e.g. "graphql/schema.graphql" (rule 5a). Requires `resolvers`.
   */
  schema?: string;
  /**
   * JSON file under graphql/ mapping "Type.field" to the bus operation that resolves it, e.g. {"Query.order": "orders.get"}; resolvers always go through the bus (rule 3).
   */
  resolvers?: string;
  /**
   * Schema providers (rule 5b): schema text and resolvers contributed on behalf of a module alias.
   */
  providers?: GraphqlProvider[];
  /**
   * Derive fields from api.provides (rule 6); false opts the whole module out (rule 7).
   */
  auto_resolve?: boolean;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "graphqlProvider".
 */
export interface GraphqlProvider {
  /**
   * Module alias the provider speaks for.
   */
  alias: string;
  /**
   * SDL file under graphql/.
   */
  schema: string;
  /**
   * JSON file under graphql/ mapping "Type.field" to a bus operation.
   */
  resolvers: string;
}
/**
 * Server-driven screens the module registers (spec 1, Server-driven screens).
 */
export interface Mobile {
  /**
   * Screen metadata shown by GET /mobile/screens.
   */
  screens?: Screen[];
  /**
   * Screen id → provider that supplies its definition, section data and actions.
   */
  screenProviders?: {
    [k: string]: ScreenProvider;
  };
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "screen".
 */
export interface Screen {
  /**
   * "<own alias>.<screen>", e.g. "orders.list".
   */
  id: string;
  /**
   * Title shown in navigation.
   */
  title: string;
  /**
   * Icon name.
   */
  icon?: string;
  /**
   * Screen layout; clients use "scroll".
   */
  layout?: string;
  /**
   * Client route, e.g. "/orders/list".
   */
  route: string;
  /**
   * Bumped whenever the screen definition changes; drives client cache eviction.
   */
  version: number;
}
/**
 * Where a screen's definition, data and actions come from. Needs `file` or `definition`.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "screenProvider".
 */
export interface ScreenProvider {
  /**
   * Static screen definition, a JSON file under screens/.
   */
  file?: string;
  /**
   * Provided operation returning the definition; input {context}.
   */
  definition?: string;
  /**
   * Provided operation returning a section's data; input {section_id, params, context}.
   */
  data?: string;
  /**
   * Provided operation running a server-side action; input {action_id, body, context}.
   */
  action?: string;
}
/**
 * Pages the module adds to the web console (docs/decisions/console-pages.md). `mandi module build` bundles each page's entry for the browser into dist/console/<the entry's file name>.js; the console runs it in a sandboxed frame of no origin, and the page reaches the platform only through the console over postMessage (sdk/console): the module's own http.routes with the user's session, and the module's own realtime channels.
 */
export interface Console {
  pages?: ConsolePage[];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "consolePage".
 */
export interface ConsolePage {
  /**
   * The page's segment: the console shows it at /p/<module>/<path>, and tells the page any sub-path below that.
   */
  path: string;
  /**
   * Shown in the console's navigation.
   */
  label: string;
  /**
   * Icon name, as for screens (e.g. "message-square").
   */
  icon?: string;
  /**
   * A permission name, e.g. "orders.view".
   */
  permission: string;
  /**
   * The page's browser source under the module's console/ folder; bundled to dist/console/<its file name without extension>.js.
   */
  entry: string;
}
/**
 * Workflow nodes the module adds to the node registry (spec 2, Node registry).
 */
export interface Workflow {
  nodes?: WorkflowNode[];
}
/**
 * A node registry entry (spec 2). Nodes other than triggers run a bus operation.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "workflowNode".
 */
export interface WorkflowNode {
  /**
   * Registry identifier "<own alias>:<slug>", e.g. "workflows:send-email".
   */
  type: string;
  /**
   * Display name.
   */
  name: string;
  /**
   * Node category.
   */
  category: 'trigger' | 'action' | 'condition' | 'transformer';
  /**
   * What the node does.
   */
  description: string;
  /**
   * Icon name.
   */
  icon?: string;
  /**
   * Hex colour.
   */
  color?: string;
  /**
   * Bus operation the node runs with its resolved config and input: one the module provides, or one it consumes. Required except for triggers.
   */
  operation?: string;
  /**
   * For triggers: the event that starts the workflow.
   */
  event?: string;
  /**
   * What running the node does beyond answering: "none" (reads or computes only) lets POST /workflows/{id}/simulate run it; "external" (the default: writes, mails, calls out) is stubbed there (spec 2, simulate).
   */
  effects?: 'none' | 'external';
  /**
   * JSON schema of the node's config (properties, required).
   */
  configSchema?: JsonSchema;
  /**
   * Config a new node starts with; must satisfy configSchema.
   */
  defaultConfig?: {
    [k: string]: unknown;
  };
  inputs?: NodePort[];
  outputs?: NodePort[];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "nodePort".
 */
export interface NodePort {
  /**
   * Handle name, e.g. "input" or "output".
   */
  name: string;
  /**
   * Display label.
   */
  label?: string;
  /**
   * Value type carried, e.g. "any" or "object".
   */
  type: string;
  /**
   * Inputs only: a connection is required.
   */
  required?: boolean;
}
/**
 * Exactly one of every_ms and cron.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "schedule".
 */
export interface ModuleSchedule {
  /**
   * Names the schedule, unique within the module.
   */
  name: string;
  /**
   * The module's own provided operation to run.
   */
  operation: string;
  /**
   * Runs every this many milliseconds (at least one minute).
   */
  every_ms?: number;
  /**
   * Or a five-field cron pattern (UTC), e.g. "* /30 * * * *".
   */
  cron?: string;
  /**
   * What the schedule does, shown to admins.
   */
  description?: string;
}
/**
 * A job the module may enqueue: which of its operations runs it and how it is retried.
 *
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "job".
 */
export interface ModuleJob {
  /**
   * The module's own provided operation that runs the job.
   */
  operation: string;
  /**
   * Total tries including the first.
   */
  attempts?: number;
  /**
   * Wait between attempts.
   */
  backoff?: {
    /**
     * fixed: every retry waits delay_seconds; exponential: (2^failed attempts - 1) × delay_seconds.
     */
    type: 'exponential' | 'fixed';
    /**
     * Seconds before a retry (the base of exponential backoff).
     */
    delay_seconds: number;
  };
  /**
   * An attempt running longer fails (and is retried). One attempt is one call into the module, so it may not exceed limits.timeout_ms, which is also the default.
   */
  timeout_seconds?: number;
  /**
   * Attempts of this job that may run at once per tenant (at most 4).
   */
  concurrency?: number;
  /**
   * What the job does, shown to admins.
   */
  description?: string;
}
/**
 * Tables in the module's own PostgreSQL schema, inside each tenant's database. Reached only through host.db.
 */
export interface Data {
  /**
   * Model name (the name host.db uses) → table definition.
   */
  models?: {
    [k: string]: Model;
  };
  /**
   * Ordered schema changes. Each is a pair of SQL files under migrations/; the host runs `up` once per tenant in array order (recorded by id) with the search_path set to the module's schema under the module's own database role, and `down` in reverse order on rollback. Never reorder or edit a released migration: append a new one.
   */
  migrations?: Migration[];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "model".
 */
export interface Model {
  /**
   * Table name in the module's schema; defaults to the model name.
   */
  table?: string;
  /**
   * Column name → column definition.
   */
  columns: {
    [k: string]: Column;
  };
  indexes?: Index[];
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "column".
 */
export interface Column {
  /**
   * Column type. Money is decimal (numeric; a decimal string in JSON); datetime is a UTC timestamp.
   */
  type:
    'string' | 'integer' | 'bigint' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'json' | 'uuid' | 'text';
  /**
   * NULL allowed; default true, false for primary keys.
   */
  nullable?: boolean;
  /**
   * Default value: a JSON value of the column's type, or {"$fn": "now"} (date, datetime) or {"$fn": "uuid"} (uuid).
   */
  default?: string | number | boolean | null | {} | unknown[];
  /**
   * Part of the primary key.
   */
  primaryKey?: boolean;
  /**
   * integer or bigint filled from a sequence.
   */
  autoIncrement?: boolean;
  /**
   * Values are unique.
   */
  unique?: boolean;
  /**
   * string only: maximum length (default 255).
   */
  length?: number;
  /**
   * decimal only: total digits.
   */
  precision?: number;
  /**
   * decimal only: digits after the point, at most precision.
   */
  scale?: number;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "index".
 */
export interface Index {
  /**
   * Index name; generated when absent.
   */
  name?: string;
  /**
   * Columns of the index, in order.
   *
   * @minItems 1
   */
  fields: [string, ...string[]];
  /**
   * A unique index.
   */
  unique?: boolean;
}
/**
 * This interface was referenced by `Manifest`'s JSON-Schema
 * via the `definition` "migration".
 */
export interface Migration {
  /**
   * Stable id recorded once the migration ran, e.g. "001_create_points".
   */
  id: string;
  /**
   * SQL file under migrations/ applying the change.
   */
  up: string;
  /**
   * SQL file under migrations/ reverting it.
   */
  down: string;
}
/**
 * Sandbox limits for the module's code.
 */
export interface Limits {
  /**
   * Heap limit of the module's isolate, in MB, shared by all tenant contexts of that module version. Undeclared: 128, or the platform's SANDBOX_MAX_MEMORY_MB when lower (a declared value above that cap is refused).
   */
  memory_mb?: number;
  /**
   * Time limit for one call into the module (an operation or an event handler), in milliseconds.
   */
  timeout_ms?: number;
}
