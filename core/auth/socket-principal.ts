/**
 * Who opens a realtime socket: the handshake names an access token and a tenant; the token must be
 * issued for that tenant, and its user an active member of it or a platform super admin.
 */
import type { Authenticate } from '../drivers/realtime';
import type { TenantService } from '../tenancy/tenant-service';
import type { AuthService } from './auth-service';

export function socketPrincipal(auth: AuthService, tenants: TenantService): Authenticate {
  return async (handshake) => {
    const { token, tenant } = (handshake.auth ?? {}) as { token?: unknown; tenant?: unknown };
    if (typeof token !== 'string' || typeof tenant !== 'string') return null;
    const [principal, ref] = await Promise.all([auth.authenticate(token), tenants.resolve(tenant)]);
    if (!principal || !ref || principal.tenantId !== ref.id) return null;
    const membership = await auth.membership(ref.id, principal.user.id);
    if (membership?.status !== 'active' && !principal.user.isSuperAdmin) return null;
    return { userId: principal.user.id, tenantId: ref.id };
  };
}
