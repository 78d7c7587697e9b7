/**
 * Who may use the platform admin API of the registry and the rings (/api/v1/registry, /api/v1/rings):
 * a platform super admin's access token (issued in any tenant; no X-Tenant needed, these are
 * platform-wide), or a publisher token (`mndp_…`). What each may do is decided per route.
 */
import type { RequestHandler, Response } from 'express';
import type { AuthService } from '../core/auth/auth-service';
import { bearerToken } from '../core/auth/authenticate';
import type { UserRef } from '../core/context';
import { currentContext } from '../core/context';
import { forbidden, unauthenticated } from '../core/errors';
import type { RegistryPublisher } from './registry-models';
import { looksLikePublisherToken, type Publishers } from './publishers';

export type AdminPrincipal =
  | { kind: 'admin'; user: UserRef; tenantId: string }
  | { kind: 'publisher'; publisher: RegistryPublisher };

export function adminPrincipal(res: Response): AdminPrincipal {
  return res.locals.admin as AdminPrincipal;
}

export function adminAuthenticate(deps: { auth: AuthService; publishers: Publishers }): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.get('authorization'));
    if (!token) return next(unauthenticated());
    if (looksLikePublisherToken(token)) {
      const publisher = await deps.publishers.authenticate(token);
      if (!publisher) return next(unauthenticated('The publisher token is invalid or was replaced.'));
      res.locals.admin = { kind: 'publisher', publisher } satisfies AdminPrincipal;
      return next();
    }
    const principal = await deps.auth.authenticate(token);
    if (!principal) return next(unauthenticated('The access token is invalid, expired or revoked.'));
    if (!principal.user.isSuperAdmin) return next(forbidden('The registry and ring API is for platform super admins and publisher tokens.'));
    const ctx = currentContext();
    if (ctx) ctx.user = principal.user;
    res.locals.admin = { kind: 'admin', user: principal.user, tenantId: principal.tenantId } satisfies AdminPrincipal;
    next();
  };
}

/** "user:<id>" or "publisher:<id>": who did it, as recorded on packages and releases. */
export function actorLabel(p: AdminPrincipal): string {
  return p.kind === 'admin' ? `user:${p.user.id}` : `publisher:${p.publisher.id}`;
}
