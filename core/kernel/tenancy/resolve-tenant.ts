/**
 * Tenant resolution (spec 1, Tenant onboarding, Routing): the `X-Tenant` header (id or alias) or
 * the host `<sub>.<ROOT_DOMAIN>`, both case-insensitive. The tenant lands in the request context.
 */
import type { Request, RequestHandler } from 'express';
import { currentContext } from '../context';
import { notFound } from '../errors';
import { tenancyErrors } from './errors';
import type { TenantService } from './tenant-service';
import { normaliseSubdomain } from './tenant-id';

/** The tenant key a request names, if any: header first, then subdomain. */
export function tenantKeyOf(req: Request, rootDomain: string): string | undefined {
  const header = req.get('x-tenant');
  if (header && header.trim()) return normaliseSubdomain(header);
  const host = (req.get('host') || '').toLowerCase().replace(/:\d+$/, '');
  const suffix = `.${rootDomain}`;
  if (host.endsWith(suffix)) {
    const sub = host.slice(0, -suffix.length);
    if (sub && !sub.includes('.')) return sub;
  }
  return undefined;
}

export function resolveTenant(tenants: TenantService, rootDomain: string): RequestHandler {
  return async (req, _res, next) => {
    const key = tenantKeyOf(req, rootDomain);
    if (!key) return next();
    const tenant = await tenants.resolve(key);
    if (!tenant) return next(notFound(`Tenant "${key}" not found.`, { tenant: key }));
    if (tenant.status !== 'active') return next(tenancyErrors.suspended());
    currentContext()!.tenant = tenant;
    next();
  };
}

/** For routes that only make sense inside a tenant. */
export const requireTenant: RequestHandler = (_req, _res, next) => {
  if (!currentContext()?.tenant) {
    return next(tenancyErrors.required());
  }
  next();
};
