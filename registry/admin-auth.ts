/**
 * The admin API's principals as the registry and ring routes see them (/api/v1/registry,
 * /api/v1/rings): a platform super admin, or a publisher by its token (`mndp_…`), which the registry
 * contributes to the admin API's tokens (core/kernel/auth/admin-auth.ts). What each may do is decided per route.
 */
import type { Response } from 'express';
import type { AdminTokenKind, SuperAdminPrincipal } from '../core/kernel/auth/admin-auth';
import type { RegistryPublisher } from './registry-models';
import { looksLikePublisherToken, type Publishers } from './publishers';

export type AdminPrincipal = SuperAdminPrincipal | { kind: 'publisher'; publisher: RegistryPublisher };

export function adminPrincipal(res: Response): AdminPrincipal {
  return res.locals.admin as AdminPrincipal;
}

/** The publisher tokens, contributed to the admin API's tokens (core/kernel/auth/admin-auth.ts). */
export function publisherTokens(publishers: Publishers): AdminTokenKind {
  return {
    recognizes: looksLikePublisherToken,
    authenticate: async (token) => {
      const publisher = await publishers.authenticate(token);
      return publisher ? ({ kind: 'publisher', publisher } satisfies AdminPrincipal) : undefined;
    },
    invalid: 'The publisher token is invalid or was replaced.',
  };
}

/** "user:<id>" or "publisher:<id>": who did it, as recorded on packages and releases. */
export function actorLabel(p: AdminPrincipal): string {
  return p.kind === 'admin' ? `user:${p.user.id}` : `publisher:${p.publisher.id}`;
}
