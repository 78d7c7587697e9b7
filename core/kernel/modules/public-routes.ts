/**
 * Modules' public routes (http.public), served at /api/<prefix><path> outside /api/v1 (spec 2:
 * `/api/widget/{token}/...`, unversioned, no authentication), beside the platform's own public areas
 * there (/api/webhooks, sdk/manifest/route-overlap.ts), which no module prefix may take.
 * The tenant comes from the token alone, never from X-Tenant, X-Effective-Tenant or the subdomain:
 * every path segment shaped like a token is hashed and looked up among the tokens modules registered
 * (public_tokens.register); a token names one row, and the row the module and the tenant. The request
 * is that module's when the tenant (active) runs it, the module owns its prefix on the platform
 * (public-prefix-owners.ts; DESIGN.md, wave 3), its prefix and one of its routes match the path, and
 * the route's token parameter is the registered token; a path whose tokens name two rows is refused,
 * never answered by one picked of them. Anything else (unknown or revoked token, a module no longer
 * installed, another module's token) is the same 404, with the same body, so answers say nothing
 * about which tokens exist; misses spend the per-address budget (public-miss-budget.ts), so tokens
 * cannot be found by trying.
 * A matched route is limited per token and client address by its `rate_limit` (spec 2, Limits: one
 * visitor on a busy widget does not spend the budget of the others, nor one token another's), with
 * the X-RateLimit-* headers on every answer. The operation runs with no user, called from the http
 * edge, with input = query, then body, then path parameters (the token among them), plus
 * `_request: {headers, raw_body, ip}` so that a webhook can check a sender's signature.
 */
import { answerRoute, successStatus } from './route-response';
import type { StreamSlots } from './stream-slots';
import type { Request, RequestHandler, Response } from 'express';
import { match, type MatchFunction } from 'path-to-regexp';
import type { HttpRoute } from '../../../sdk/manifest';
import type { Bus } from '../bus/bus';
import { currentContext, type TenantRef } from '../context';
import type { CentralDb } from '../data/central-db';
import { rateLimit, type RateLimiter, type RateLimitPolicy } from '../drivers';
import { moduleErrors } from './errors';
import { raiseDeferredBodyError } from '../http/body-errors';
import type { Logger } from '../logger';
import { addressBucket } from '../net/address-bucket';
import type { TenantService } from '../tenancy/tenant-service';
import type { LoadedModule } from './loaded-module';
import type { ModuleHost } from './module-host';
import { publicMissBudget } from './public-miss-budget';
import { PublicRouteCors } from './public-route-cors';
import { hashToken, PUBLIC_TOKEN } from './public-tokens';

type Params = Record<string, string | string[]>;

interface CompiledRoute {
  route: HttpRoute & { token: string };
  match: MatchFunction<Params>;
}

interface Found {
  tenant: TenantRef;
  mod: LoadedModule;
  route: CompiledRoute['route'];
  params: Params;
  token: string;
  tokenHash: string;
}

/** Token-shaped segments looked up per request: a path longer than this gains a guesser nothing. */
const MAX_CANDIDATES = 8;

/** The one answer for every miss, whatever the reason. */
export function publicModuleRoutes(deps: {
  central: CentralDb;
  tenants: TenantService;
  modules: ModuleHost;
  bus: Bus;
  rateLimiter: RateLimiter;
  missRateLimit: RateLimitPolicy;
  logger: Logger;
  /** Streamed responses open per tenant on this node, shared with the authenticated routes (stream-slots.ts). */
  streams: StreamSlots;
}): RequestHandler {
  const cors = new PublicRouteCors({ bus: deps.bus, logger: deps.logger });
  const spendMiss = publicMissBudget(deps.rateLimiter, deps.missRateLimit);
  const run = (gate: RequestHandler, req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => gate(req, res, (err?: unknown) => (err ? reject(err) : resolve())));

  const compiled = new WeakMap<LoadedModule, CompiledRoute[]>();
  const routesOf = (mod: LoadedModule): CompiledRoute[] => {
    let list = compiled.get(mod);
    if (!list) {
      const pub = mod.manifest.http?.public;
      list = (pub?.routes ?? []).flatMap(({ token, ...route }) =>
        token === undefined ? [] : [{ route: { ...route, token }, match: match<Params>(`/${pub!.prefix}${route.path}`, { decode: decodeURIComponent }) }],
      );
      compiled.set(mod, list);
    }
    return list;
  };

  /** Every route (any method) at `path` whose token parameter holds a token its module registered in an active tenant that runs it. */
  const resolve = async (path: string): Promise<Found[]> => {
    const candidates = new Map<string, string>();
    for (const segment of path.split('/')) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        continue;
      }
      if (PUBLIC_TOKEN.test(value) && candidates.size < MAX_CANDIDATES) candidates.set(hashToken(value), value);
    }
    if (!candidates.size) return [];
    const rows = await deps.central.models.ModulePublicToken.findAll({ where: { token_hash: [...candidates.keys()] }, attributes: ['alias', 'tenant_id', 'token_hash'] });
    const found: Found[] = [];
    for (const row of rows) {
      const tenant = await deps.tenants.resolve(row.tenant_id);
      if (!tenant || tenant.status !== 'active') continue;
      const mod = (await deps.modules.modulesFor(tenant.id)).byAlias.get(row.alias);
      const prefix = mod?.manifest.http?.public?.prefix;
      // A module installed before prefixes had owners may serve another's prefix in its tenant: it answers nothing there.
      if (!mod || !prefix || !(await deps.modules.prefixes.owns(mod.alias, prefix))) continue;
      for (const r of routesOf(mod)) {
        const m = r.match(path);
        if (m && m.params[r.route.token] === candidates.get(row.token_hash)) {
          found.push({ tenant, mod, route: r.route, params: m.params, token: candidates.get(row.token_hash)!, tokenHash: row.token_hash });
        }
      }
    }
    if (new Set(found.map((f) => f.tokenHash)).size > 1) {
      deps.logger.warn({ modules: found.map((f) => `${f.tenant.id}:${f.mod.alias}`) }, 'public route path carries tokens of several registrations; refused');
      return [];
    }
    return found;
  };

  // HEAD is a GET whose body node drops, as express does for core routes.
  const serves = (route: HttpRoute, method: string) => route.method === method || (method === 'HEAD' && route.method === 'GET');
  const methodsOf = (found: Found[]) => [...new Set(found.flatMap((f) => (f.route.method === 'GET' ? ['GET', 'HEAD'] : [f.route.method])))].sort();

  // Mounted at /api for paths outside /api/v1 only (core/kernel/http/app.ts): req.path is /<prefix>/...
  return async (req, res) => {
    const found = await resolve(req.path);
    if (!found.length) {
      await spendMiss(req, res);
      throw moduleErrors.publicRouteMissing();
    }
    const origin = req.get('origin');
    const preflightMethod = req.method === 'OPTIONS' ? req.get('access-control-request-method')?.toUpperCase() : undefined;
    const hit = found.find((f) => serves(f.route, preflightMethod ?? req.method));
    // A preflight or a wrong method spends the budget of a route at the path: every answer has the headers.
    const { tenant, mod, route, params, token, tokenHash } = hit ?? found[0]!;
    if (route.error_shape) res.locals.errorShape = route.error_shape;
    const [points, seconds] = (route.rate_limit ?? '60/60').split('/').map(Number);
    await run(
      rateLimit(deps.rateLimiter, {
        name: `public-route:${mod.alias}:${route.method} ${route.path}`,
        points: points!,
        durationSeconds: seconds!,
        key: () => `${tokenHash}:${addressBucket(req.ip ?? 'unknown')}`,
      }),
      req,
      res,
    );
    const methods = methodsOf(found);
    if (!hit && req.method !== 'OPTIONS') {
      res.set('Allow', methods.join(', '));
      throw moduleErrors.publicMethodNotAllowed(req.method, methods);
    }
    const corsTarget = { route, tenantId: tenant.id, alias: mod.alias, token, tokenHash };
    if (route.cors) res.vary('Origin');
    const allowed = !!origin && (await cors.allows(corsTarget, origin, String(req.id)));
    if (req.method === 'OPTIONS') {
      if (!origin || !preflightMethod) {
        res.set('Allow', [...methods, 'OPTIONS'].join(', '));
        return void res.status(204).end();
      }
      if (!allowed || !hit) {
        throw moduleErrors.originNotAllowed(origin, preflightMethod);
      }
      return PublicRouteCors.preflight(res, origin, methods);
    }
    if (allowed) PublicRouteCors.allowOn(res, origin!);
    // A body the parser refused is answered now that the route's error shape (and CORS) are set.
    raiseDeferredBodyError(res);

    // The operation runs in the token's tenant, with no user: whatever reads the context sees that tenant.
    const ctx = currentContext();
    if (ctx) ctx.tenant = tenant;
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    const { cookie: _cookie, authorization: _authorization, ...headers } = req.headers;
    const input: Record<string, unknown> = {
      ...(req.query as Record<string, unknown>),
      ...body,
      ...params,
      _request: { headers, raw_body: (req as { rawBody?: Buffer }).rawBody?.toString('utf8') ?? '', ip: req.ip ?? null },
    };
    await answerRoute(res, route, { tenantId: tenant.id, status: successStatus(route, req.method), streams: deps.streams }, (stream) =>
      deps.bus.call({ kind: 'edge', via: 'http' }, route.operation, input, { tenantId: tenant.id, user: null, permissions: new Set(), requestId: ctx?.requestId }, { coerce: true, stream }),
    );
  };
}
