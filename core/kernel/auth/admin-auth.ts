/**
 * Who may use the platform admin API (the registry, the rings, quarantine, platform secrets): a
 * platform super admin's access token (issued in any tenant; no X-Tenant needed, these are
 * platform-wide), or a token of a kind another part contributes here (the registry's publisher
 * tokens, `mndp_…`), so auth names no part that has its own tokens. What each may do is decided per route.
 */
import type { RequestHandler } from 'express';
import { currentContext, type UserRef } from '../context';
import { forbidden, unauthenticated } from '../errors';
import type { AuthService } from './auth-service';
import { bearerToken } from './authenticate';

/** A super admin's access token, as the admin routes find it in `res.locals.admin`. */
export interface SuperAdminPrincipal {
  kind: 'admin';
  user: UserRef;
  tenantId: string;
}

/** A kind of token, besides access tokens, that the admin API takes (a contribution point). */
export interface AdminTokenKind {
  /** Whether the token is of this kind, by its form alone. */
  recognizes(token: string): boolean;
  /** Who it is, as the routes find it in `res.locals.admin`; undefined when it is not valid. */
  authenticate(token: string): Promise<{ kind: string } | undefined>;
  /** The 401's message for a token of this kind that is not valid. */
  invalid: string;
}

export interface AdminAuth {
  contribute(kind: AdminTokenKind): void;
  /** Sets `res.locals.admin`, or answers 401/403. */
  readonly authenticated: RequestHandler;
}

export function createAdminAuth(auth: AuthService): AdminAuth {
  const kinds: AdminTokenKind[] = [];
  return {
    contribute: (kind) => void kinds.push(kind),
    authenticated: async (req, res, next) => {
      const token = bearerToken(req.get('authorization'));
      if (!token) return next(unauthenticated());
      const kind = kinds.find((k) => k.recognizes(token));
      if (kind) {
        const principal = await kind.authenticate(token);
        if (!principal) return next(unauthenticated(kind.invalid));
        res.locals.admin = principal;
        return next();
      }
      const principal = await auth.authenticate(token);
      if (!principal) return next(unauthenticated('The access token is invalid, expired or revoked.'));
      if (!principal.user.isSuperAdmin) return next(forbidden('The registry and ring API is for platform super admins and publisher tokens.'));
      const ctx = currentContext();
      if (ctx) ctx.user = principal.user;
      res.locals.admin = { kind: 'admin', user: principal.user, tenantId: principal.tenantId } satisfies SuperAdminPrincipal;
      next();
    },
  };
}
