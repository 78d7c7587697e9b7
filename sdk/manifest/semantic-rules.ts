/**
 * Manifest rules the JSON schema cannot express: names carry the module's own alias, routes and
 * providers point at operations that exist, nothing is declared twice, embedded JSON schemas are
 * valid, models are coherent. They read the document defensively, so they run (and report) even when
 * the schema check found problems elsewhere: the author sees every error at once.
 */
import { eventNamespaces } from './event-namespaces';
import { matchesConsumes } from './compatibility';
import { childPointer, type ManifestIssue } from './issues';
import { platformNamespaceProblem } from './platform-namespaces';
import { jsonSchemaIssues, valueIssues } from './json-schema-check';
import { channelPatternsOverlap, coreChannelProblem, isTenantPrivatePattern } from './channel-patterns';
import { consolePageBundle } from './console-pages';
import { platformPathProblem, publicPrefixProblem } from './route-overlap';
import { isActiveContentType } from './active-content';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const entries = (v: unknown): [string, unknown][] => (isObj(v) ? Object.entries(v) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);

const ALIAS = /^[a-z][a-z0-9_]{1,49}$/;
const OPERATION = /^[a-z][a-z0-9_]{1,49}\.[a-zA-Z][a-zA-Z0-9_]*$/;
/** Handlers are looked up as operations[method]: these would resolve to Object.prototype members. */
const RESERVED_METHODS = new Set(Object.getOwnPropertyNames(Object.prototype));

const moduleOf = (name: string) => name.slice(0, name.indexOf('.'));

/** What the rules share: the alias (when valid), provided operations and consumes list. */
interface Scope {
  alias: string | undefined;
  provided: Map<string, string>;
  consumes: string[];
  issues: ManifestIssue[];
  report(pointer: string, message: string): void;
  /** Permissions used by operations and routes, checked against the declared ones at the end. */
  used: { pointer: string; name: string }[];
}

export function semanticIssues(doc: unknown): ManifestIssue[] {
  if (!isObj(doc)) return [];
  const issues: ManifestIssue[] = [];
  const name = str(doc.name);
  const scope: Scope = {
    alias: name && ALIAS.test(name) ? name : undefined,
    provided: new Map(),
    consumes: list(at(doc, 'api', 'consumes')).filter((c): c is string => typeof c === 'string'),
    issues,
    report: (pointer, message) => issues.push({ pointer, message }),
    used: [],
  };
  checkDependencies(doc, scope);
  checkOperations(doc, scope);
  checkRelated(doc, scope);
  checkRoutes(doc, scope);
  checkPublicRoutes(doc, scope);
  checkEvents(doc, scope);
  checkRealtime(doc, scope);
  checkSchedules(doc, scope);
  checkJobs(doc, scope);
  checkConsolePages(doc, scope);
  checkPermissions(doc, scope);
  checkSecrets(doc, scope);
  checkGraphql(doc, scope);
  checkScreens(doc, scope);
  checkWorkflowNodes(doc, scope);
  checkModels(doc, scope);
  checkMigrations(doc, scope);
  return issues;
}

function checkDependencies(doc: Obj, s: Scope) {
  const reserved = s.alias && platformNamespaceProblem(s.alias);
  if (reserved) s.report('/name', reserved);
  if (s.alias && isObj(doc.dependencies) && Object.hasOwn(doc.dependencies, s.alias)) {
    s.report(childPointer('/dependencies', s.alias), 'a module cannot depend on itself');
  }
}

function checkOperations(doc: Obj, s: Scope) {
  list(at(doc, 'api', 'provides')).forEach((op, i) => {
    const p = `/api/provides/${i}`;
    const name = str(at(op, 'name'));
    if (name && OPERATION.test(name)) {
      if (s.alias && moduleOf(name) !== s.alias) {
        s.report(`${p}/name`, `must be named "${s.alias}.<method>": operations carry the module's own alias`);
      }
      const method = name.slice(name.indexOf('.') + 1);
      if (RESERVED_METHODS.has(method)) s.report(`${p}/name`, `"${method}" is reserved (a property of every object); choose another method name`);
      const first = s.provided.get(name);
      if (first) s.report(`${p}/name`, `duplicates ${first}/name ("${name}"); each operation is provided once`);
      else s.provided.set(name, p);
    }
    const permission = str(at(op, 'permission'));
    if (permission) s.used.push({ pointer: `${p}/permission`, name: permission });
    s.issues.push(...jsonSchemaIssues(at(op, 'input'), `${p}/input`), ...jsonSchemaIssues(at(op, 'output'), `${p}/output`));
  });
}

/** Related tenants reach only operations the module itself provides (spec 3, reseller network). */
function checkRelated(doc: Obj, s: Scope) {
  list(at(doc, 'api', 'related')).forEach((op, i) => {
    const name = str(op);
    if (name && OPERATION.test(name) && !s.provided.has(name)) {
      s.report(`/api/related/${i}`, `"${name}" is not in api.provides; a related tenant may call only this module's own operations`);
    }
  });
}

function checkRoutes(doc: Obj, s: Scope) {
  const seen = new Map<string, string>();
  list(at(doc, 'http', 'routes')).forEach((route, i) => {
    const p = `/http/routes/${i}`;
    const op = str(at(route, 'operation'));
    if (op && OPERATION.test(op) && !s.provided.has(op)) {
      s.report(`${p}/operation`, `"${op}" is not in api.provides; a route dispatches to one of the module's own operations`);
    }
    const permission = str(at(route, 'permission'));
    if (permission) s.used.push({ pointer: `${p}/permission`, name: permission });
    if (permission && at(route, 'public') === true) {
      s.report(`${p}/permission`, 'a public route has no user to hold a permission; remove it, or make the route non-public');
    }
    const method = str(at(route, 'method'));
    // Bulk file routes (core/services/bulk): an upload needs a body and a user; a route either takes or gives a file.
    if (at(route, 'upload') !== undefined) {
      if (method && !['POST', 'PUT', 'PATCH'].includes(method)) s.report(`${p}/upload`, 'an upload needs a request body: use POST, PUT or PATCH');
      if (at(route, 'public') === true) s.report(`${p}/upload`, 'a public route cannot take uploads (anyone could fill the disk); authenticate it');
      if (at(route, 'stream') !== undefined) s.report(`${p}/stream`, 'a route either takes an upload or streams a file, not both');
    }
    checkRouteResponse(route, method, p, s);
    const pageOp = str(at(route, 'stream', 'page_operation'));
    if (pageOp && OPERATION.test(pageOp) && !s.provided.has(pageOp)) s.report(`${p}/stream/page_operation`, `"${pageOp}" is not in api.provides`);
    for (const key of ['token', 'cors']) {
      if (at(route, key) !== undefined) s.report(`${p}/${key}`, `"${key}" applies to routes under http.public (served outside /api/v1, the tenant taken from a token); move the route there or remove it`);
    }
    const path = str(at(route, 'path'));
    if (!path) return;
    const reserved = platformPathProblem(path, s.alias);
    if (reserved) s.report(`${p}/path`, reserved);
    checkPathParams(s, p, method, path, seen);
  });
}

/** A parameter used twice, or a route matching the same requests as an earlier one; returns the path's parameters. */
function checkPathParams(s: Scope, p: string, method: string | undefined, path: string, seen: Map<string, string>): string[] {
  const params: string[] = path.match(/:[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  if (!method) return params;
  const repeated = params.find((param, k) => params.indexOf(param) !== k);
  if (repeated) s.report(`${p}/path`, `uses the parameter ${repeated} twice`);
  // "/orders/:id" and "/orders/:orderId" match the same requests.
  const shape = `${method} ${path.replace(/:[A-Za-z_][A-Za-z0-9_]*/g, ':')}`;
  const first = seen.get(shape);
  if (first) s.report(`${p}/path`, `${method} ${path} matches the same requests as ${first}`);
  else seen.set(shape, p);
  return params;
}

/**
 * http.public (spec 2: /api/widget/{token}/...): a prefix the platform does not use (its /api/v1
 * areas, and those it serves outside, such as /api/webhooks), and routes that each name the path
 * parameter their token is in, since the token is the only thing that says which tenant a request is
 * for. Nothing that needs a user applies.
 */
function checkPublicRoutes(doc: Obj, s: Scope) {
  const prefix = str(at(doc, 'http', 'public', 'prefix'));
  const reserved = prefix && publicPrefixProblem(prefix);
  if (reserved) s.report('/http/public/prefix', reserved);
  const seen = new Map<string, string>();
  list(at(doc, 'http', 'public', 'routes')).forEach((route, i) => {
    const p = `/http/public/routes/${i}`;
    for (const key of ['operation', 'cors/operation']) {
      const op = str(at(route, ...key.split('/')));
      if (op && OPERATION.test(op) && !s.provided.has(op)) s.report(`${p}/${key}`, `"${op}" is not in api.provides; a public route calls one of the module's own operations`);
    }
    const why: Record<string, string> = {
      permission: 'a public route has no user to hold a permission; remove it',
      upload: 'a public route cannot take uploads (anyone could fill the disk); use an authenticated route under http.routes',
      stream: 'streamed files are served by authenticated routes under http.routes; remove "stream"',
    };
    for (const [key, message] of Object.entries(why)) if (at(route, key) !== undefined) s.report(`${p}/${key}`, message);
    checkRouteResponse(route, str(at(route, 'method')), p, s);
    const path = str(at(route, 'path'));
    if (!path) return;
    const params = checkPathParams(s, p, str(at(route, 'method')), path, seen);
    const token = str(at(route, 'token'));
    if (token === undefined) {
      s.report(`${p}/token`, `name the path parameter that holds the token the tenant is resolved from, e.g. "token" with the path "/:token${path === '/' ? '' : path}"`);
    } else if (!params.includes(`:${token}`)) {
      s.report(`${p}/token`, `"${token}" is not a parameter of the path ${path}; add :${token} to it`);
    }
  });
}

/** Realtime channel patterns (spec 2, Events): the module's own names, each opened to someone, no two for one channel. */
function checkRealtime(doc: Obj, s: Scope) {
  const seen: { pattern: string; pointer: string }[] = [];
  list(at(doc, 'realtime', 'channels')).forEach((channel, i) => {
    const p = `/realtime/channels/${i}`;
    const permission = str(at(channel, 'join', 'permission'));
    if (permission) s.used.push({ pointer: `${p}/join/permission`, name: permission });
    if (isObj(at(channel, 'join')) && !permission && at(channel, 'join', 'visitor') !== true) {
      s.report(`${p}/join`, 'lets nobody join: name a permission members need, or set visitor: true for granted visitors');
    }
    const pattern = str(at(channel, 'pattern'));
    if (!pattern) return;
    const reserved = coreChannelProblem(pattern);
    if (reserved) s.report(`${p}/pattern`, reserved);
    if (isTenantPrivatePattern(pattern) && (at(channel, 'join', 'visitor') === true || !permission)) {
      s.report(`${p}/join`, 'a private tenant channel is joined by members only: name join.permission and leave out visitor');
    }
    const earlier = seen.find((e) => channelPatternsOverlap(e.pattern, pattern));
    if (earlier) s.report(`${p}/pattern`, `"${pattern}" overlaps "${earlier.pattern}" (${earlier.pointer}): one channel would have two join rules; declare each channel once`);
    seen.push({ pattern, pointer: p });
  });
}

/** A route's declared answer (core/kernel/modules/route-response.ts): what each kind needs and refuses. */
function checkRouteResponse(route: unknown, method: string | undefined, p: string, s: Scope) {
  const kind = str(at(route, 'response', 'kind'));
  if (!kind) return;
  const q = `${p}/response`;
  const type = str(at(route, 'response', 'content_type'));
  if ((kind === 'text' || kind === 'bytes') && type === undefined) {
    s.report(q, `a ${kind} response needs content_type, e.g. ${kind === 'text' ? '"text/csv" or "application/javascript"' : '"application/pdf" or "audio/mpeg"'}`);
  }
  if (kind === 'json' && type !== undefined) s.report(`${q}/content_type`, 'a json response is always application/json; remove content_type, or use kind "text"');
  if (kind === 'page' && type !== undefined) s.report(`${q}/content_type`, 'a page is always text/html, served sandboxed; remove content_type');
  if (kind === 'page' && method && method !== 'GET') s.report(`${p}/method`, 'a page is opened by a browser: GET only');
  if (kind !== 'page' && type !== undefined && isActiveContentType(type)) {
    s.report(
      `${q}/content_type`,
      `"${type}" is a document a browser would run, on the web console's origin: module routes may not answer HTML, SVG or XML as text; answer JSON, text/plain or a download type, or a page as kind "page" (served sandboxed, of no origin)`,
    );
  }
  if (kind !== 'stream' && at(route, 'response', 'timeout_s') !== undefined) {
    s.report(`${q}/timeout_s`, 'timeout_s applies to streamed responses only; remove it (the module\'s limits.timeout_ms bounds other calls)');
  }
  if (kind !== 'text' && kind !== 'bytes' && at(route, 'response', 'disposition') !== undefined) {
    s.report(`${q}/disposition`, 'disposition applies to text and bytes responses only (a download); remove it');
  }
  if (kind !== 'json' && at(route, 'success_status') === 204) s.report(`${p}/success_status`, `a 204 answer has no body, so a ${kind} response cannot use it`);
  if (kind !== 'json' && at(route, 'stream') !== undefined) {
    s.report(`${p}/stream`, 'a route either streams a bulk file (stream) or declares its response, not both');
  }
  if (kind !== 'stream') return;
  const status = at(route, 'success_status');
  if (status !== undefined && status !== 200 && status !== 204) s.report(`${p}/success_status`, 'a stream answers 200 with its first piece; remove success_status');
  if (method && method !== 'GET' && method !== 'POST') {
    s.report(`${p}/method`, 'a streamed response answers GET (what EventSource sends) or POST; use one of those');
  }
  if (at(route, 'upload') !== undefined) s.report(`${p}/upload`, 'a streamed response cannot take an upload; take the file on its own route and stream from another');
  if (type !== undefined && !isActiveContentType(type) && !type.startsWith('text/') && !type.startsWith('application/x-ndjson')) {
    s.report(`${q}/content_type`, 'a stream writes text: use text/event-stream (server-sent events), another text/* type, or application/x-ndjson');
  }
}

function checkSchedules(doc: Obj, s: Scope) {
  const names = new Set<string>();
  list(doc.schedules).forEach((schedule, i) => {
    const p = `/schedules/${i}`;
    const op = str(at(schedule, 'operation'));
    if (op && OPERATION.test(op) && !s.provided.has(op)) s.report(`${p}/operation`, `"${op}" is not in api.provides; a schedule runs one of the module's own operations`);
    if ((at(schedule, 'every_ms') === undefined) === (at(schedule, 'cron') === undefined)) {
      s.report(p, 'a schedule needs exactly one of every_ms and cron');
    }
    const name = str(at(schedule, 'name'));
    if (name && names.has(name)) s.report(`${p}/name`, `the schedule name "${name}" is used twice`);
    if (name) names.add(name);
  });
}

/** Jobs (core/kernel/modules/module-jobs.ts) run the module's own operations, within its per-call time limit. */
function checkJobs(doc: Obj, s: Scope) {
  const limitMs = Number(at(doc, 'limits', 'timeout_ms') ?? 5000);
  for (const [name, job] of entries(doc.jobs)) {
    const p = `/jobs/${name}`;
    const op = str(at(job, 'operation'));
    if (op && OPERATION.test(op) && !s.provided.has(op)) s.report(`${p}/operation`, `"${op}" is not in api.provides; a job runs one of the module's own operations`);
    const timeout = at(job, 'timeout_seconds');
    if (typeof timeout === 'number' && timeout * 1000 > limitMs) {
      s.report(`${p}/timeout_seconds`, `${timeout} s is longer than one call into the module may run (limits.timeout_ms: ${limitMs}); raise limits.timeout_ms or lower timeout_seconds`);
    }
  }
}

function checkEvents(doc: Obj, s: Scope) {
  if (!s.alias) return;
  const declared = at(doc, 'events', 'namespace');
  const own = [s.alias, ...eventNamespaces(Array.isArray(declared) ? declared.filter((n): n is string => typeof n === 'string') : str(declared))];
  const wanted = own.map((prefix) => `"${prefix}.<event>"`).join(' or ');
  list(at(doc, 'events', 'publishes')).forEach((event, i) => {
    if (typeof event === 'string' && event.includes('.') && !own.includes(moduleOf(event))) {
      s.report(`/events/publishes/${i}`, `must be named ${wanted}: a module publishes only its own events (set events.namespace to publish under another prefix)`);
    }
  });
}

/** Console pages (docs/decisions/console-pages.md): one page per path and per bundle file, behind a declared permission. */
function checkConsolePages(doc: Obj, s: Scope) {
  const paths = new Map<string, string>();
  const bundles = new Map<string, string>();
  list(at(doc, 'console', 'pages')).forEach((page, i) => {
    const p = `/console/pages/${i}`;
    const permission = str(at(page, 'permission'));
    if (permission) s.used.push({ pointer: `${p}/permission`, name: permission });
    const path = str(at(page, 'path'));
    if (path && paths.has(path)) s.report(`${p}/path`, `duplicates ${paths.get(path)}/path ("${path}")`);
    else if (path) paths.set(path, p);
    const entry = str(at(page, 'entry'));
    if (!entry) return;
    const bundle = consolePageBundle({ entry });
    if (bundles.has(bundle)) s.report(`${p}/entry`, `bundles to ${bundle}, as ${bundles.get(bundle)}/entry does; give each page's entry its own file name`);
    else bundles.set(bundle, p);
  });
}

function checkPermissions(doc: Obj, s: Scope) {
  const declared = new Map<string, string>();
  list(doc.permissions).forEach((perm, i) => {
    const name = str(at(perm, 'name'));
    if (!name) return;
    const first = declared.get(name);
    if (first) s.report(`/permissions/${i}/name`, `duplicates ${first}/name ("${name}")`);
    else declared.set(name, `/permissions/${i}`);
  });
  if (!s.alias) return;
  for (const use of s.used) {
    if (use.name.startsWith(`${s.alias}.`) && !declared.has(use.name)) {
      s.report(use.pointer, `"${use.name}" is not declared in permissions[]; declare it with a description`);
    }
  }
}

function checkSecrets(doc: Obj, s: Scope) {
  const declared = new Map<string, string>();
  list(doc.secrets).forEach((secret, i) => {
    const name = str(at(secret, 'name'));
    if (!name) return;
    const first = declared.get(name);
    if (first) s.report(`/secrets/${i}/name`, `duplicates ${first}/name ("${name}"); each secret is declared once`);
    else declared.set(name, `/secrets/${i}`);
  });
}

function requireUnder(s: Scope, pointer: string, value: unknown, folder: string) {
  const file = str(value);
  if (file && !file.startsWith(`${folder}/`)) s.report(pointer, `must be a file under ${folder}/`);
}

function checkGraphql(doc: Obj, s: Scope) {
  const graphql = doc.graphql;
  requireUnder(s, '/graphql/schema', at(graphql, 'schema'), 'graphql');
  requireUnder(s, '/graphql/resolvers', at(graphql, 'resolvers'), 'graphql');
  list(at(graphql, 'providers')).forEach((provider, i) => {
    requireUnder(s, `/graphql/providers/${i}/schema`, at(provider, 'schema'), 'graphql');
    requireUnder(s, `/graphql/providers/${i}/resolvers`, at(provider, 'resolvers'), 'graphql');
  });
}

function checkScreens(doc: Obj, s: Scope) {
  const screens = new Map<string, string>();
  list(at(doc, 'mobile', 'screens')).forEach((screen, i) => {
    const id = str(at(screen, 'id'));
    if (!id) return;
    if (s.alias && id.includes('.') && moduleOf(id) !== s.alias) {
      s.report(`/mobile/screens/${i}/id`, `must be "${s.alias}.<screen>": screen ids carry the module's own alias`);
    }
    const first = screens.get(id);
    if (first) s.report(`/mobile/screens/${i}/id`, `duplicates ${first}/id ("${id}")`);
    else screens.set(id, `/mobile/screens/${i}`);
  });
  for (const [id, provider] of entries(at(doc, 'mobile', 'screenProviders'))) {
    const p = childPointer('/mobile/screenProviders', id);
    if (!screens.has(id)) s.report(p, `"${id}" is not in mobile.screens; declare the screen there`);
    if (!isObj(provider)) continue;
    if (provider.file === undefined && provider.definition === undefined) {
      s.report(p, 'needs "file" (a static definition under screens/) or "definition" (an operation)');
    }
    requireUnder(s, `${p}/file`, provider.file, 'screens');
    for (const key of ['definition', 'data', 'action']) {
      const op = str(provider[key]);
      if (op && OPERATION.test(op) && !s.provided.has(op)) s.report(`${p}/${key}`, `"${op}" is not in api.provides`);
    }
  }
}

function checkWorkflowNodes(doc: Obj, s: Scope) {
  const types = new Map<string, string>();
  list(at(doc, 'workflow', 'nodes')).forEach((node, i) => {
    const p = `/workflow/nodes/${i}`;
    const type = str(at(node, 'type'));
    if (type) {
      if (s.alias && type.includes(':') && type.slice(0, type.indexOf(':')) !== s.alias) {
        s.report(`${p}/type`, `must be "${s.alias}:<slug>": node types carry the module's own alias`);
      }
      const first = types.get(type);
      if (first) s.report(`${p}/type`, `duplicates ${first}/type ("${type}")`);
      else types.set(type, p);
    }
    const op = str(at(node, 'operation'));
    if (op && OPERATION.test(op)) {
      if (moduleOf(op) === s.alias) {
        if (!s.provided.has(op)) s.report(`${p}/operation`, `"${op}" is not in api.provides`);
      } else if (!matchesConsumes(s.consumes, op)) {
        s.report(`${p}/operation`, `"${op}" belongs to another module and is not in api.consumes; add it there`);
      }
    }
    const configSchema = at(node, 'configSchema');
    const schemaProblems = jsonSchemaIssues(configSchema, `${p}/configSchema`);
    s.issues.push(...schemaProblems);
    const defaults = at(node, 'defaultConfig');
    if (isObj(configSchema) && isObj(defaults) && schemaProblems.length === 0) {
      s.issues.push(...valueIssues(configSchema, defaults, `${p}/defaultConfig`, 'configSchema'));
    }
  });
}

function checkModels(doc: Obj, s: Scope) {
  const tables = new Map<string, string>();
  const indexNames = new Map<string, string>();
  for (const [name, model] of entries(at(doc, 'data', 'models'))) {
    const p = childPointer('/data/models', name);
    const table = str(at(model, 'table')) ?? name;
    const first = tables.get(table);
    if (first) s.report(p, `uses table "${table}" already used by ${first}`);
    else tables.set(table, p);
    const columns = at(model, 'columns');
    for (const [column, def] of entries(columns)) {
      if (isObj(def)) checkColumn(s, childPointer(`${p}/columns`, column), def);
    }
    list(at(model, 'indexes')).forEach((index, i) => {
      list(at(index, 'fields')).forEach((field, j) => {
        if (typeof field === 'string' && isObj(columns) && !Object.hasOwn(columns, field)) {
          s.report(`${p}/indexes/${i}/fields/${j}`, `"${field}" is not a column of ${name}`);
        }
      });
      const indexName = str(at(index, 'name'));
      if (!indexName) return;
      const firstIndex = indexNames.get(indexName);
      if (firstIndex) s.report(`${p}/indexes/${i}/name`, `duplicates ${firstIndex}/name ("${indexName}")`);
      else indexNames.set(indexName, `${p}/indexes/${i}`);
    });
  }
}

/** The JSON form a column default must take, by column type (money as a decimal string). */
const DEFAULT_CHECKS: Record<string, [(v: unknown) => boolean, string]> = {
  string: [(v) => typeof v === 'string', 'a string'],
  text: [(v) => typeof v === 'string', 'a string'],
  uuid: [(v) => typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v), 'a UUID string'],
  integer: [(v) => Number.isSafeInteger(v), 'an integer'],
  bigint: [(v) => Number.isSafeInteger(v) || (typeof v === 'string' && /^-?\d+$/.test(v)), 'an integer or a string of digits'],
  decimal: [(v) => typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v), 'a decimal string such as "0.00"'],
  boolean: [(v) => typeof v === 'boolean', 'true or false'],
  date: [(v) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v), 'a date string "YYYY-MM-DD"'],
  datetime: [(v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)), 'an ISO 8601 timestamp string'],
  json: [() => true, 'JSON'],
};

const DEFAULT_FUNCTIONS: Record<string, string[]> = { now: ['date', 'datetime'], uuid: ['uuid'] };

function checkColumn(s: Scope, p: string, col: Obj) {
  const type = str(col.type);
  if (col.autoIncrement === true && type !== 'integer' && type !== 'bigint') {
    s.report(`${p}/autoIncrement`, 'applies to integer and bigint columns only');
  }
  if (col.length !== undefined && type !== 'string') s.report(`${p}/length`, 'applies to string columns only');
  for (const key of ['precision', 'scale']) {
    if (col[key] !== undefined && type !== 'decimal') s.report(`${p}/${key}`, 'applies to decimal columns only');
  }
  if (typeof col.scale === 'number') {
    if (typeof col.precision !== 'number') s.report(`${p}/precision`, 'is required when scale is set');
    else if (col.scale > col.precision) s.report(`${p}/scale`, `must not exceed precision (${col.precision})`);
  }
  if (col.primaryKey === true && col.nullable === true) s.report(`${p}/nullable`, 'a primary key column cannot be nullable');
  if (!Object.hasOwn(col, 'default') || !type) return;
  const value = col.default;
  if (col.autoIncrement === true) return s.report(`${p}/default`, 'an auto-increment column takes no default');
  if (value === null) {
    if (col.nullable === false || col.primaryKey === true) s.report(`${p}/default`, 'cannot be null on a column that is not nullable');
    return;
  }
  if (isObj(value) && Object.hasOwn(value, '$fn')) {
    const allowed = DEFAULT_FUNCTIONS[String(value.$fn)];
    if (!allowed) s.report(`${p}/default/$fn`, 'must be "now" or "uuid"');
    else if (!allowed.includes(type)) s.report(`${p}/default/$fn`, `"${value.$fn}" applies to ${allowed.join(' and ')} columns only`);
    return;
  }
  const check = DEFAULT_CHECKS[type];
  if (check && !check[0](value)) s.report(`${p}/default`, `must be ${check[1]} for a ${type} column`);
}

function checkMigrations(doc: Obj, s: Scope) {
  const ids = new Map<string, string>();
  list(at(doc, 'data', 'migrations')).forEach((migration, i) => {
    const p = `/data/migrations/${i}`;
    const id = str(at(migration, 'id'));
    if (id) {
      const first = ids.get(id);
      if (first) s.report(`${p}/id`, `duplicates ${first}/id ("${id}")`);
      else ids.set(id, p);
    }
    requireUnder(s, `${p}/up`, at(migration, 'up'), 'migrations');
    requireUnder(s, `${p}/down`, at(migration, 'down'), 'migrations');
    if (str(at(migration, 'up')) && at(migration, 'up') === at(migration, 'down')) {
      s.report(`${p}/down`, 'must be a different file from up');
    }
  });
}
