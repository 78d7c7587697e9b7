/**
 * REST routes declared in module manifests (`http.routes`), mounted under /api/v1. Each matches
 * method and path, checks the route's permission, and dispatches to its one bus operation with
 * input = query parameters, then the JSON body (an object), then path parameters — later ones win,
 * so a path `:id` can never be overridden by the body. Strings are coerced to the operation's
 * schema types at this edge only.
 */
import type { RequestHandler } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { HttpRoute } from '../../sdk/manifest';
import { hasPermission } from '../auth/authenticate';
import type { Bus } from '../bus/bus';
import { currentContext } from '../context';
import { forbidden } from '../errors';
import type { ModuleHost } from './module-host';
import type { TenantModules } from './tenant-modules';

interface CompiledRoute {
  route: HttpRoute;
  match: MatchFunction<Record<string, string | string[]>>;
}

const SUCCESS_STATUS: Record<string, number> = { POST: 201 };

export function moduleRoutes(deps: { modules: ModuleHost; bus: Bus; authenticated: RequestHandler }): RequestHandler {
  const compiled = new WeakMap<TenantModules, CompiledRoute[]>();
  const routesOf = (set: TenantModules): CompiledRoute[] => {
    let list = compiled.get(set);
    if (!list) {
      list = set.list.flatMap((m) =>
        (m.manifest.http?.routes ?? []).map((route) => ({ route, match: match<Record<string, string | string[]>>(route.path, { decode: decodeURIComponent }) })),
      );
      compiled.set(set, list);
    }
    return list;
  };

  return async (req, res, next) => {
    const ctx = currentContext();
    if (!ctx?.tenant) return next();
    const set = await deps.modules.modulesFor(ctx.tenant.id);
    let found: { route: HttpRoute; params: Record<string, string | string[]> } | undefined;
    for (const r of routesOf(set)) {
      if (r.route.method !== req.method) continue;
      const m = r.match(req.path);
      if (m) {
        found = { route: r.route, params: m.params };
        break;
      }
    }
    if (!found) return next();
    const { route, params } = found;
    if (route.error_shape) res.locals.errorShape = route.error_shape;
    await new Promise<void>((resolve, reject) => deps.authenticated(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    if (route.permission && !hasPermission(route.permission)) throw forbidden(`This action requires the permission "${route.permission}".`, { permission: route.permission });
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const input = { ...(req.query as Record<string, unknown>), ...body, ...params };
    const result = await deps.bus.call(
      { kind: 'edge', via: 'http' },
      route.operation,
      input,
      { tenantId: ctx.tenant.id, user: ctx.user ?? null, permissions: ctx.permissions, requestId: ctx.requestId },
      { coerce: true },
    );
    res.status(SUCCESS_STATUS[req.method] ?? 200).json(result === undefined ? null : result);
  };
}
