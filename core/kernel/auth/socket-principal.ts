/**
 * Who opens a realtime socket. A member's handshake names an access token and a tenant; the token
 * must be issued for that tenant, and its user an active member of it or a platform super admin.
 * A visitor's (spec 2, Events: the embedded widget) names a visitor grant and a tenant instead; the
 * grant must be genuine, unexpired and issued for that tenant (core/kernel/realtime/visitor-grants.ts).
 * Open sockets are held to the same rule again whenever their access may have changed
 * (core/kernel/drivers/realtime.ts, recheck).
 */
import type { Authenticate } from '../drivers/realtime';
import type { VisitorGrants } from '../realtime/visitor-grants';
import type { TenantService } from '../tenancy/tenant-service';
import type { AuthService } from './auth-service';

export function socketPrincipal(auth: AuthService, tenants: TenantService, grants: VisitorGrants): Authenticate {
  return async (handshake) => {
    const { token, grant, tenant } = (handshake.auth ?? {}) as { token?: unknown; grant?: unknown; tenant?: unknown };
    if (typeof tenant !== 'string') return null;
    if (typeof token !== 'string') {
      if (grant === undefined) return null;
      const [verified, ref] = await Promise.all([grants.verify(grant), tenants.resolve(tenant)]);
      if (typeof verified === 'string' || !ref || verified.tenantId !== ref.id) return null;
      return { tenantId: ref.id, visitor: { id: verified.visitorId, module: verified.module, channels: verified.channels }, expiresAt: verified.expiresAt };
    }
    const [principal, ref] = await Promise.all([auth.authenticate(token), tenants.resolve(tenant)]);
    if (!principal || !ref || principal.tenantId !== ref.id) return null;
    const membership = await auth.membership(ref.id, principal.user.id);
    if (membership?.status !== 'active' && !principal.user.isSuperAdmin) return null;
    // The token id lets a revocation find the sockets opened with that token (core/kernel/realtime/access-changes.ts).
    return { userId: principal.user.id, tenantId: ref.id, tokenId: principal.tokenId };
  };
}
