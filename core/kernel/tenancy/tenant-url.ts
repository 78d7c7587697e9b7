/**
 * A tenant's public URL: the platform's (APP_URL: scheme, host, port) with the tenant's subdomain in
 * front of the host when APP_URL's host is ROOT_DOMAIN, since `<sub>.<ROOT_DOMAIN>` then reaches this
 * platform and names the tenant (spec 1, Tenant domain; ./resolve-tenant.ts). The alias comes before
 * the id (the name people read). Any other APP_URL host (an IP, a host outside ROOT_DOMAIN) is kept:
 * a subdomain of it would not reach the platform.
 */
export interface TenantDomain {
  domain: string;
  kind: string;
}

export function tenantUrl(appUrl: string, rootDomain: string, domains: readonly TenantDomain[]): string {
  const url = new URL(appUrl);
  const sub = domains.find((d) => d.kind === 'alias') ?? domains.find((d) => d.kind === 'id');
  if (sub && url.hostname.toLowerCase() === rootDomain) url.hostname = `${sub.domain}.${rootDomain}`;
  return url.origin;
}
