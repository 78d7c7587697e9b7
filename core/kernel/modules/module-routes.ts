/**
 * REST routes declared in module manifests (`http.routes`), mounted under /api/v1. Each matches
 * method and path, checks the route's permission (left out: its operation's, which the bus then
 * does not check again), and dispatches to its one bus operation with
 * input = query parameters, then the JSON body (an object), then path parameters — later ones win,
 * so a path `:id` can never be overridden by the body. Strings are coerced to the operation's
 * schema types at this edge only. A route marked `public` (webhooks from outside) skips the bearer
 * token, runs with no user, and is rate-limited per client address; the module authenticates the
 * caller itself: its input also carries `_request: {headers, raw_body, ip}` (headers lowercased, without
 * cookies; ip as TRUST_PROXY decides) so that it can check a sender's signature over the exact bytes that were sent.
 * Routes with `upload` or `stream` (bulk files) are read or written by the part that provides
 * ./file-transfers.ts (core/services/bulk), which hands the
 * operation the upload's id and form fields, or pages through it with a cursor. A route's declared
 * `response` (JSON, text, bytes, or a stream the handler writes) is written by ./route-response.ts.
 */
import type { RequestHandler } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { HttpRoute } from '../../../sdk/manifest';
import { userInTenant } from '../auth/authenticate';
import type { Bus } from '../bus/bus';
import { currentContext } from '../context';
import { forbidden } from '../errors';
import { raiseDeferredBodyError } from '../http/body-errors';
import type { ModuleHost } from './module-host';
import { rateLimit, type RateLimiter } from '../drivers';
import type { TenantModules } from './tenant-modules';
import type { ModuleFileTransfers } from './file-transfers';
import { edgePermits } from '../bus/edge-permission';
import type { CallContext, CallStream } from '../bus/types';
import { answerRoute, sendRouteResult, successStatus } from './route-response';
import type { StreamSlots } from './stream-slots';

interface CompiledRoute {
  alias: string;
  route: HttpRoute;
  /** What the route checks: its own permission, else its operation's (a public route: none). */
  permission: string | undefined;
  match: MatchFunction<Record<string, string | string[]>>;
}

export function moduleRoutes(deps: {
  modules: ModuleHost;
  bus: Bus;
  authenticated: RequestHandler;
  rateLimiter: RateLimiter;
  /** Who reads and writes the files of `upload` and `stream` routes (./file-transfers.ts). */
  files?: ModuleFileTransfers;
  /** MODULE_STREAMS_PER_TENANT */
  /** Streamed responses open per tenant on this node, shared with the public routes (stream-slots.ts). */
  streams: StreamSlots;
}): RequestHandler {
  // Public routes (webhooks) carry no token: each is limited per client address instead. An
  // authenticated route with a rate_limit is limited per signed-in user in the tenant, and the
  // module's routes declaring the same limit share one counter (spec 3, Limits: "reseller read
  // endpoints 100 requests per minute" is one budget over every read route, per user).
  const limiters = new Map<string, RequestHandler>();
  const routeLimit = (alias: string, route: HttpRoute): RequestHandler => {
    const key = route.public ? `public-route:${route.method} ${route.path}` : `module-route:${alias}:${route.rate_limit}`;
    let limiter = limiters.get(key);
    if (!limiter) {
      const [points, seconds] = (route.rate_limit ?? '60/60').split('/').map(Number);
      limiter = rateLimit(deps.rateLimiter, { name: key, points, durationSeconds: seconds, ...(route.public ? {} : { key: userInTenant }) });
      limiters.set(key, limiter);
    }
    return limiter;
  };

  const compiled = new WeakMap<TenantModules, CompiledRoute[]>();
  const routesOf = (set: TenantModules): CompiledRoute[] => {
    let list = compiled.get(set);
    if (!list) {
      list = set.list.flatMap((m) =>
        (m.manifest.http?.routes ?? []).map((route) => ({
          alias: m.alias,
          route,
          permission: route.public ? undefined : (route.permission ?? m.operations.get(route.operation)?.permission),
          match: match<Record<string, string | string[]>>(route.path, { decode: decodeURIComponent }),
        })),
      );
      compiled.set(set, list);
    }
    return list;
  };

  // HEAD is a GET whose body node drops, as express does for core routes.
  const serves = (route: HttpRoute, method: string) => route.method === method || (method === 'HEAD' && route.method === 'GET');
  const find = async (tenantId: string, method: string, path: string) => {
    for (const r of routesOf(await deps.modules.modulesFor(tenantId))) {
      if (!serves(r.route, method)) continue;
      const m = r.match(path);
      if (m) return { alias: r.alias, route: r.route, permission: r.permission, params: m.params };
    }
    return undefined;
  };
  /** The methods the tenant's module routes take at `path`: the 404 handler answers 405 with them. */
  const methodsAt = async (tenantId: string, path: string) => {
    const methods = new Set<string>();
    for (const r of routesOf(await deps.modules.modulesFor(tenantId))) {
      if (!r.match(path)) continue;
      methods.add(r.route.method);
      if (r.route.method === 'GET') methods.add('HEAD');
    }
    return [...methods];
  };

  return async (req, res, next) => {
    const ctx = currentContext();
    // Unmatched requests fall through to core/kernel/http/error-handler's 404, told what a newcomer most often missed.
    if (!ctx?.tenant) {
      res.locals.notFoundHint = "Module routes (e.g. /orders) are served in a tenant: name it with the X-Tenant header or the tenant's subdomain.";
      return next();
    }
    const notHere = async (tenantId: string) => {
      res.locals.allowedMethods = await methodsAt(tenantId, req.path);
      res.locals.notFoundHint = "A module's routes exist in a tenant once it has installed the module (GET /api/v1/modules).";
      next();
    };
    const requested = ctx.tenant.id;
    let found = await find(requested, req.method, req.path);
    if (!found) return notHere(requested);
    if (found.route.error_shape) res.locals.errorShape = found.route.error_shape;
    const pass = (gate: RequestHandler) => new Promise<void>((resolve, reject) => gate(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    await pass(found.route.public ? routeLimit(found.alias, found.route) : deps.authenticated);
    // A super admin's X-Effective-Tenant moved the request to another tenant: route it there.
    if (ctx.tenant.id !== requested) {
      found = await find(ctx.tenant.id, req.method, req.path);
      if (!found) return notHere(ctx.tenant.id);
    }
    const { route, permission, params } = found;
    if (!route.public && route.rate_limit) await pass(routeLimit(found.alias, route));
    const callCtx: CallContext = { tenantId: ctx.tenant.id, user: ctx.user ?? null, permissions: ctx.permissions, requestId: ctx.requestId };
    // Checked here once: the bus, told so, does not check the operation's permission again (core/kernel/bus/edge-permission.ts).
    if (permission && !(callCtx.user && edgePermits(callCtx, permission))) throw forbidden(`This action requires the permission "${permission}".`, { permission });
    // A body the parser refused is answered now that the route's error shape is set.
    raiseDeferredBodyError(res);
    const dispatch = async (body: Record<string, unknown>, operation = route.operation, stream?: CallStream) => {
      const input: Record<string, unknown> = { ...(req.query as Record<string, unknown>), ...body, ...params };
      if (route.public) {
        const { cookie: _cookie, authorization: _authorization, ...headers } = req.headers;
        input._request = { headers, raw_body: (req as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? '', ip: req.ip ?? null };
      }
      return deps.bus.call({ kind: 'edge', via: 'http' }, operation, input, callCtx, { coerce: true, stream });
    };
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    // Bulk file routes (core/services/bulk): the host streams the upload or the download, the module sees pieces.
    if (route.stream && deps.files) {
      return deps.files.stream(res, route, (cursor) => dispatch({ ...body, cursor }, route.stream!.page_operation ?? route.operation));
    }
    const status = successStatus(route, req.method);
    if (route.upload && deps.files) return sendRouteResult(res, route, status, await deps.files.withUpload(req, ctx.tenant.id, route, dispatch));
    await answerRoute(res, route, { tenantId: ctx.tenant.id, status, streams: deps.streams }, (stream) => dispatch(body, route.operation, stream));
  };
}
