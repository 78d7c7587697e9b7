/**
 * Bearer-token authentication and permission checks (spec 1 Authentication; spec 3 Authentication 1
 * for X-Effective-Tenant). A token is valid only in the tenant it was issued for; a super admin may
 * act in another tenant by naming it in X-Effective-Tenant. The spec calls the header "super admin
 * context switching" and names nobody else, so only a super admin switches, and only to the level-0
 * tenant or a tenant below it in the reseller network (core/kernel/tenancy/tenant-network.ts); a parent's
 * admins reach their sub-resellers through the sub-reseller routes, not by switching.
 */
import type { RequestHandler } from 'express';
import { currentContext, type UserRef } from '../context';
import { forbidden, unauthenticated } from '../errors';
import { tenancyErrors } from '../tenancy/errors';
import type { TenantService } from '../tenancy/tenant-service';
import type { AuthService } from './auth-service';

export const ALL_PERMISSIONS = '*';

export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

export function authenticate(auth: AuthService, tenants: TenantService): RequestHandler {
  return async (req, _res, next) => {
    const ctx = currentContext()!;
    const token = bearerToken(req.get('authorization'));
    if (!token) return next(unauthenticated());
    const principal = await auth.authenticate(token);
    if (!principal) return next(unauthenticated('The access token is invalid, expired or revoked.'));
    if (!ctx.tenant) {
      return next(tenancyErrors.required());
    }
    if (principal.tenantId !== ctx.tenant.id) {
      return next(unauthenticated('This access token was not issued for this tenant.'));
    }
    ctx.user = principal.user;
    ctx.tokenId = principal.tokenId;

    const effective = req.get('x-effective-tenant');
    if (effective && effective.trim()) {
      const target = await tenants.resolve(effective);
      if (!principal.user.isSuperAdmin || !target || !(await tenants.network.link(target.id))) {
        return next(
          tenancyErrors.switchRefused(effective.trim().toLowerCase()),
        );
      }
      ctx.tenant = target;
      ctx.permissions = new Set([ALL_PERMISSIONS]);
      return next();
    }

    const membership = await auth.membership(ctx.tenant.id, principal.user.id);
    if (membership?.status === 'active') {
      ctx.permissions = membership.permissions;
    } else if (principal.user.isSuperAdmin) {
      ctx.permissions = new Set([ALL_PERMISSIONS]);
    } else {
      return next(forbidden('You are not a member of this tenant.'));
    }
    next();
  };
}

/** The one permission rule: super admins and holders of "*" hold every permission. */
export function holdsPermission(user: UserRef | null | undefined, permissions: ReadonlySet<string> | undefined, name: string): boolean {
  if (user?.isSuperAdmin) return true;
  return !!permissions && (permissions.has(ALL_PERMISSIONS) || permissions.has(name));
}

/** Whose points a per-user rate limit spends: the signed-in user in the tenant they act in. */
export const userInTenant = (): string => {
  const ctx = currentContext()!;
  return `${ctx.tenant!.id}:${ctx.user?.id ?? 'anonymous'}`;
};

export function hasPermission(name: string): boolean {
  const ctx = currentContext();
  return !!ctx?.user && holdsPermission(ctx.user, ctx.permissions, name);
}

export function requirePermission(name: string): RequestHandler {
  return (_req, _res, next) => {
    if (hasPermission(name)) return next();
    next(forbidden(`This action requires the permission "${name}".`, { permission: name }));
  };
}

/** The role that holds the organisation: only an owner or a platform super admin gives it or takes it away (spec 1, Members). */
export const OWNER_ROLE = 'owner';

export async function assertOwnerActs(auth: AuthService, action: string): Promise<void> {
  const ctx = currentContext()!;
  if (ctx.user!.isSuperAdmin) return;
  if ((await auth.membership(ctx.tenant!.id, ctx.user!.id))?.role === OWNER_ROLE) return;
  throw forbidden(`Only an owner of the organisation (or a platform super admin) can ${action}.`, { role: OWNER_ROLE });
}

export const requireSuperAdmin: RequestHandler = (_req, _res, next) => {
  if (currentContext()?.user?.isSuperAdmin) return next();
  next(forbidden('This action is for platform super admins only.'));
};
