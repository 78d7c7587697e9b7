/**
 * module.json from a module's declarations (the `declaration` its bundle exports, read at build
 * time): operations become api.provides entries named "<module>.<key>", their routes http.routes
 * (each with its operation's permission unless it names another),
 * their public routes http.public.routes under `public_prefix`, those marked `related` api.related,
 * their `node` a workflow.nodes entry (after the declared ones) whose config schema is the
 * operation's input, consumes and implements api.consumes and api.implements, event handlers
 * events.subscribes; every other field is the manifest's own. The result is plain
 * JSON (handlers and TypeBox's symbol-keyed markers dropped), in a fixed field order, so the same
 * declarations always give the same file.
 */
import type { HttpRoute, Operation, WorkflowNode } from '../manifest/manifest.types';

type Obj = Record<string, unknown>;

/** Top-level fields in the order module.json shows them (the schema's order). */
const ORDER = [
  'name', 'version', 'description', 'compatibility', 'dependencies', 'main', 'api', 'events', 'realtime', 'http',
  'permissions', 'secrets', 'settings', 'graphql', 'mobile', 'console', 'workflow', 'schedules', 'jobs', 'data', 'limits',
] as const;

export function declaredManifest(declaration: unknown): unknown {
  if (typeof declaration !== 'object' || declaration === null) return declaration;
  const { operations, consumes, implements: implemented, events, public_prefix: publicPrefix, ...rest } = declaration as Obj;
  const name = rest.name;
  const provides: Operation[] = [];
  const routes: HttpRoute[] = [];
  const publicRoutes: HttpRoute[] = [];
  const related: string[] = [];
  const nodes: WorkflowNode[] = [];
  for (const [method, op] of Object.entries(isObj(operations) ? operations : {})) {
    if (!isObj(op)) {
      provides.push(op as Operation); // the schema check names what is wrong with it
      continue;
    }
    const { handler: _handler, http, public_http: publicHttp, input, output, related: isRelated, node, ...meta } = op;
    const opName = `${String(name)}.${method}`;
    provides.push({ name: opName, ...meta, input, output } as Operation);
    if (node !== undefined) nodes.push(nodeOf(String(name), opName, node, input));
    if (isRelated === true) related.push(opName);
    for (const route of listOf(http)) routes.push({ ...withPermission(route, meta.permission), operation: opName } as HttpRoute);
    for (const route of listOf(publicHttp)) publicRoutes.push({ ...(route as Obj), operation: opName } as HttpRoute);
  }
  const sections: Obj = { ...rest };
  sections.api = {
    provides,
    ...(consumes === undefined ? {} : { consumes }),
    ...(implemented === undefined ? {} : { implements: implemented }),
    ...(related.length ? { related } : {}),
  };
  if (isObj(events)) {
    const { subscribes, ...eventRest } = events;
    sections.events = { ...eventRest, ...(isObj(subscribes) ? { subscribes: Object.keys(subscribes) } : {}) };
  }
  const http: Obj = {};
  if (routes.length > 0) http.routes = routes;
  // A prefix without routes, or routes without a prefix, is still written: the schema says what is missing.
  if (publicPrefix !== undefined || publicRoutes.length > 0) http.public = { prefix: publicPrefix, routes: publicRoutes };
  if (Object.keys(http).length > 0) sections.http = http;
  if (nodes.length > 0) {
    const workflow = isObj(rest.workflow) ? rest.workflow : {};
    sections.workflow = { ...workflow, nodes: [...(Array.isArray(workflow.nodes) ? workflow.nodes : []), ...nodes] };
  }

  const manifest: Obj = {};
  for (const key of ORDER) if (sections[key] !== undefined) manifest[key] = sections[key];
  for (const key of Object.keys(sections)) if (!(key in manifest)) manifest[key] = sections[key]; // unknown: the schema reports it
  return JSON.parse(JSON.stringify(manifest)) as unknown;
}

/** module.json text as the build writes it. */
export function manifestText(manifest: unknown): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * A route names its operation's permission unless it names its own (or is public: no user holds
 * one). The build writes it in, after `path`, so module.json shows what each route checks and the
 * host need not look it up; a hand-written route may still leave it out (core/kernel/modules/module-routes.ts).
 */
function withPermission(route: unknown, permission: unknown): Obj {
  if (!isObj(route) || route.permission !== undefined || route.public === true || permission === undefined) return route as Obj; // the schema check names what is wrong with it
  const { method, path, ...rest } = route;
  return { method, path, permission, ...rest };
}

/** An operation's `node` as its registry entry: type, operation and config schema from the operation. */
function nodeOf(alias: string, opName: string, node: unknown, input: unknown): WorkflowNode {
  if (!isObj(node)) return node as WorkflowNode; // the schema check names what is wrong with it
  const { slug, from_input: fromInput, name, category, description, ...look } = node;
  const taken = new Set(Array.isArray(fromInput) ? fromInput : []);
  const schema = isObj(input) ? input : {};
  const required = (Array.isArray(schema.required) ? (schema.required as string[]) : []).filter((key) => !taken.has(key));
  const configSchema = { type: 'object', properties: { ...(isObj(schema.properties) ? schema.properties : {}) }, ...(required.length > 0 ? { required } : {}) };
  return { type: `${alias}:${String(slug)}`, name, category, description, operation: opName, ...look, configSchema } as WorkflowNode;
}

const listOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
