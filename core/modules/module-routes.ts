/**
 * REST routes declared in module manifests (`http.routes`), mounted under /api/v1. Each matches
 * method and path, checks the route's permission, and dispatches to its one bus operation with
 * input = query parameters, then the JSON body (an object), then path parameters — later ones win,
 * so a path `:id` can never be overridden by the body. Strings are coerced to the operation's
 * schema types at this edge only. A route marked `public` (webhooks from outside) skips the bearer
 * token, runs with no user, and is rate-limited per client address; the module authenticates the
 * caller itself: its input also carries `_request: {headers, raw_body}` (headers lowercased, without
 * cookies) so that it can check a sender's signature over the exact bytes that were sent.
 */
import type { RequestHandler } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { HttpRoute } from '../../sdk/manifest';
import { hasPermission } from '../auth/authenticate';
import type { Bus } from '../bus/bus';
import { currentContext } from '../context';
import { forbidden } from '../errors';
import type { ModuleHost } from './module-host';
import { rateLimit, type RateLimiter } from '../drivers';
import type { TenantModules } from './tenant-modules';

interface CompiledRoute {
  route: HttpRoute;
  match: MatchFunction<Record<string, string | string[]>>;
}

const SUCCESS_STATUS: Record<string, number> = { POST: 201 };

export function moduleRoutes(deps: { modules: ModuleHost; bus: Bus; authenticated: RequestHandler; rateLimiter: RateLimiter }): RequestHandler {
  // Public routes (webhooks) carry no token: each is limited per client address instead.
  const limiters = new Map<string, RequestHandler>();
  const publicLimit = (route: HttpRoute): RequestHandler => {
    const key = `${route.method} ${route.path}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      const [points, seconds] = (route.rate_limit ?? '60/60').split('/').map(Number);
      limiter = rateLimit(deps.rateLimiter, { name: `public-route:${key}`, points, durationSeconds: seconds });
      limiters.set(key, limiter);
    }
    return limiter;
  };

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

  const find = async (tenantId: string, method: string, path: string) => {
    for (const r of routesOf(await deps.modules.modulesFor(tenantId))) {
      if (r.route.method !== method) continue;
      const m = r.match(path);
      if (m) return { route: r.route, params: m.params };
    }
    return undefined;
  };

  return async (req, res, next) => {
    const ctx = currentContext();
    if (!ctx?.tenant) return next();
    const requested = ctx.tenant.id;
    let found = await find(requested, req.method, req.path);
    if (!found) return next();
    if (found.route.error_shape) res.locals.errorShape = found.route.error_shape;
    const gate = found.route.public ? publicLimit(found.route) : deps.authenticated;
    await new Promise<void>((resolve, reject) => gate(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    // A super admin's X-Effective-Tenant moved the request to another tenant: route it there.
    if (ctx.tenant.id !== requested) {
      found = await find(ctx.tenant.id, req.method, req.path);
      if (!found) return next();
    }
    const { route, params } = found;
    if (route.permission && !hasPermission(route.permission)) throw forbidden(`This action requires the permission "${route.permission}".`, { permission: route.permission });
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const input: Record<string, unknown> = { ...(req.query as Record<string, unknown>), ...body, ...params };
    if (route.public) {
      const { cookie: _cookie, authorization: _authorization, ...headers } = req.headers;
      input._request = { headers, raw_body: (req as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? '' };
    }
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
