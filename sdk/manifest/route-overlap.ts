/**
 * Whether two module routes could take the same request (DESIGN.md, Rings and the registry: module
 * routes share /api/v1 and are not namespaced). Paths are segments of fixed words or `:param`
 * (the manifest schema allows nothing else); core/kernel/modules/module-routes.ts matches them with
 * path-to-regexp, case-insensitively, a parameter taking any one non-empty segment. So two routes
 * overlap when the method is the same and, segment by segment, the words are equal or either side is
 * a parameter: `/orders/:id` and `/orders/export` overlap, `/orders/:id` and `/orders/:id/ship` do not.
 */
import type { HttpRoute } from './manifest.types';

type Route = Pick<HttpRoute, 'method' | 'path'>;

const segments = (path: string): string[] => path.split('/').slice(1);
const isParam = (segment: string) => segment.startsWith(':');

export function routesOverlap(a: Route, b: Route): boolean {
  if (a.method !== b.method) return false;
  const x = segments(a.path);
  const y = segments(b.path);
  return x.length === y.length && x.every((s, i) => isParam(s) || isParam(y[i]) || s.toLowerCase() === y[i].toLowerCase());
}

/**
 * First path segments the platform's own routes live under (core/platform.ts mounts them before any
 * module route). A module route may not start with one of them, nor with a parameter, which would
 * match them too: a module could otherwise answer a method or sub-path the platform does not serve
 * there, e.g. `DELETE /auth/sessions`, in the platform's name. test/foundation/platform-paths.test.ts
 * keeps the list equal to the routes the platform really mounts.
 */
export const PLATFORM_PATH_AREAS: ReadonlySet<string> = new Set([
  'activity-log',
  'admin',
  'ai',
  'auth',
  'cli',
  'console-pages',
  'documents',
  'email',
  'graphql',
  'health',
  'install',
  'invitations',
  'login-history',
  'members',
  'mobile',
  'modules',
  'notifications',
  'platform',
  'profile',
  'providers',
  'push',
  'registry',
  'reseller',
  'reseller-register',
  'rings',
  'roles',
  'workflow-executions',
  'workflow-nodes',
  'workflows',
]);

/**
 * First path segments the platform itself serves under /api outside /api/v1 (spec 2: POST
 * /api/webhooks/workflows/{token}, core/services/workflows/webhook-route.ts). No module may take them, as a
 * public prefix or as a route: a module could otherwise answer there (another method, another
 * sub-path) in the platform's name. test/foundation/platform-paths.test.ts keeps the list equal to
 * what the platform mounts there.
 */
export const PLATFORM_PUBLIC_AREAS: ReadonlySet<string> = new Set(['webhooks']);

const isPlatformArea = (area: string) => PLATFORM_PATH_AREAS.has(area) || PLATFORM_PUBLIC_AREAS.has(area);

/**
 * Areas the platform shares with the module of the same name: the platform serves a few exact
 * paths there (GET /ai/agent/tools, mounted first, so it always wins), the module everything else
 * (spec 2's /ai endpoints). No other module may use them.
 */
export const MODULE_SHARED_AREAS: ReadonlySet<string> = new Set(['ai']);

/** Why module `alias` may not declare a route at `path`, or null when it may. */
export function platformPathProblem(path: string, alias?: string): string | null {
  const first = segments(path)[0] ?? '';
  if (isParam(first)) return `must start with a fixed word, not the parameter ${first}: it would also match the platform's routes and every other module's`;
  const area = first.toLowerCase();
  if (MODULE_SHARED_AREAS.has(area) && alias === area) return null;
  if (isPlatformArea(area)) return `/${first} belongs to the platform's own routes; choose a path of the module's own`;
  return null;
}

/**
 * Why a module may not own `prefix` under /api/ for its public routes (http.public), or null when it
 * may: /api/v1 is the platform's API, its areas' names stay the platform's outside it too, so that
 * /api/auth or /api/admin never answer in a module's name, and so do its public areas (/api/webhooks).
 */
export function publicPrefixProblem(prefix: string): string | null {
  const first = prefix.split('/')[0]!.toLowerCase();
  if (first === 'v1') return '/api/v1 is the platform\'s own API; choose a prefix of the module\'s own, e.g. its alias';
  if (isPlatformArea(first)) return `"${first}" is an area of the platform's own routes; choose a prefix of the module's own, e.g. its alias`;
  return null;
}

/** Whether two public prefixes could take the same request: equal, or one the leading segments of the other. */
export function prefixesOverlap(a: string, b: string): boolean {
  const x = a.toLowerCase().split('/');
  const y = b.toLowerCase().split('/');
  return x.slice(0, y.length).every((s, i) => s === y[i]);
}
