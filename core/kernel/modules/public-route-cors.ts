/**
 * Cross-origin access to a module's public routes (http.public, `cors`): a widget is embedded on the
 * sites its tenant allows (spec 2, Widget: allowed_domains), which only the module knows. The host
 * asks the route's cors operation with {token, origin} and gets {allow}; it answers preflights itself
 * and names the origin on real answers only when allowed. Credentials are never allowed: these routes
 * carry a token in the path, never cookies. Decisions are cached for 30 seconds per tenant, module,
 * token and origin, so a page's burst of requests costs one sandbox call; a decision that fails is
 * a refusal and is not cached.
 */
import type { Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { HttpRoute } from '../../../sdk/manifest';
import type { Bus } from '../bus/bus';
import { EXPOSED_HEADERS } from '../http/cors';
import type { Logger } from '../logger';

/** Request headers a page may send to a public route. */
const ALLOWED_HEADERS = 'Content-Type, X-Request-Id';
const MAX_AGE_SECONDS = 600;

export interface CorsTarget {
  route: HttpRoute;
  tenantId: string;
  alias: string;
  token: string;
  tokenHash: string;
}

export class PublicRouteCors {
  private readonly decisions = new LRUCache<string, boolean>({ max: 10_000, ttl: 30_000 });

  constructor(private readonly deps: { bus: Bus; logger: Logger }) {}

  /** Whether `origin` may call the target's route; false for routes without `cors`. */
  async allows(target: CorsTarget, origin: string, requestId?: string): Promise<boolean> {
    const operation = target.route.cors?.operation;
    if (!operation) return false;
    const key = `${target.tenantId}:${target.alias}:${target.tokenHash}:${origin}`;
    const cached = this.decisions.get(key);
    if (cached !== undefined) return cached;
    try {
      const answer = (await this.deps.bus.call({ kind: 'edge', via: 'http' }, operation, { token: target.token, origin }, { tenantId: target.tenantId, user: null, permissions: new Set(), requestId })) as { allow?: unknown } | null;
      const allow = answer?.allow === true;
      this.decisions.set(key, allow);
      return allow;
    } catch (err) {
      this.deps.logger.warn({ err, operation, tenantId: target.tenantId }, 'public route CORS decision failed; refusing the origin');
      return false;
    }
  }

  /** Names the origin on an answer it may read (the route's own response or its error). */
  static allowOn(res: Response, origin: string): void {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS.join(', '));
  }

  /** The preflight answer for an allowed origin: 204 with the methods the path takes. */
  static preflight(res: Response, origin: string, methods: string[]): void {
    PublicRouteCors.allowOn(res, origin);
    res.setHeader('Access-Control-Allow-Methods', methods.join(', '));
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', String(MAX_AGE_SECONDS));
    res.status(204).end();
  }
}
