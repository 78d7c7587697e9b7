/**
 * module.json from a module's declarations (the `declaration` its bundle exports, read at build
 * time): operations become api.provides entries named "<module>.<key>", their routes http.routes,
 * event handlers events.subscribes; every other field is the manifest's own. The result is plain
 * JSON (handlers and TypeBox's symbol-keyed markers dropped), in a fixed field order, so the same
 * declarations always give the same file.
 */
import type { HttpRoute, Operation } from '../manifest/manifest.types';

type Obj = Record<string, unknown>;

/** Top-level fields in the order module.json shows them (the schema's order). */
const ORDER = [
  'name', 'version', 'description', 'compatibility', 'dependencies', 'main', 'api', 'events', 'http',
  'permissions', 'graphql', 'mobile', 'workflow', 'schedules', 'jobs', 'data', 'limits',
] as const;

export function declaredManifest(declaration: unknown): unknown {
  if (typeof declaration !== 'object' || declaration === null) return declaration;
  const { operations, consumes, events, ...rest } = declaration as Obj;
  const name = rest.name;
  const provides: Operation[] = [];
  const routes: HttpRoute[] = [];
  for (const [method, op] of Object.entries(isObj(operations) ? operations : {})) {
    if (!isObj(op)) {
      provides.push(op as Operation); // the schema check names what is wrong with it
      continue;
    }
    const { handler: _handler, http, input, output, ...meta } = op;
    const opName = `${String(name)}.${method}`;
    provides.push({ name: opName, ...meta, input, output } as Operation);
    for (const route of http === undefined ? [] : Array.isArray(http) ? http : [http]) {
      routes.push({ ...(route as Obj), operation: opName } as HttpRoute);
    }
  }
  const sections: Obj = { ...rest };
  sections.api = { provides, ...(consumes === undefined ? {} : { consumes }) };
  if (isObj(events)) {
    const { subscribes, ...eventRest } = events;
    sections.events = { ...eventRest, ...(isObj(subscribes) ? { subscribes: Object.keys(subscribes) } : {}) };
  }
  if (routes.length > 0) sections.http = { routes };

  const manifest: Obj = {};
  for (const key of ORDER) if (sections[key] !== undefined) manifest[key] = sections[key];
  for (const key of Object.keys(sections)) if (!(key in manifest)) manifest[key] = sections[key]; // unknown: the schema reports it
  return JSON.parse(JSON.stringify(manifest)) as unknown;
}

/** module.json text as the build writes it. */
export function manifestText(manifest: unknown): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
