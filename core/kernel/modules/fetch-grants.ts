/**
 * The origins a tenant's modules may reach with host.fetch, each granted to one module (the central
 * tenant setting `modules.fetch_origins`, a list of `{origin, module}`). A grant names its module so
 * that an origin an admin opened for one module (the ai module's provider, a payment gateway) is not
 * open to every other module of the tenant (DESIGN "Sandbox": fetch only to origins the tenant
 * configured). The admin sees and sets the whole list (./fetch-origins-routes.ts); a module adds its
 * own while serving an admin (./fetch-origin-operations.ts).
 */
import type { CentralDb } from '../data/central-db';

export const MAX_GRANTS = 50;

/** A module alias, as the manifest schema has it. */
const MODULE_ALIAS = /^[a-z][a-z0-9_]{1,49}$/;

export interface FetchGrant {
  origin: string;
  module: string;
}

/** `https://Api.Vendor.example/` → `https://api.vendor.example`; anything that is not an origin → an error message. */
export function toOrigin(value: unknown): string | { error: string } {
  if (typeof value !== 'string') return { error: 'must be a string' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: `"${value}" is not an absolute URL such as https://api.vendor.example` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: `"${value}" must use http or https` };
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/') {
    return { error: `"${value}" must be an origin only (scheme, host and port), without path, query or credentials` };
  }
  return url.origin;
}

/** `{origin, module}` as an admin sends it, checked and normalised; an error message otherwise. */
export function toGrant(value: unknown): FetchGrant | { error: string } {
  const entry = value as { origin?: unknown; module?: unknown } | null;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return { error: 'must be an object {origin, module}: each origin is granted to one module' };
  }
  if (typeof entry.module !== 'string' || !MODULE_ALIAS.test(entry.module)) return { error: 'needs module, the alias of the module it is granted to' };
  const origin = toOrigin(entry.origin);
  return typeof origin === 'string' ? { origin, module: entry.module } : origin;
}

/** The grants in a tenant's settings; anything else there (an entry of the old tenant-wide form) grants nothing. */
export function grantsIn(settings: unknown): FetchGrant[] {
  const list = (settings as { modules?: { fetch_origins?: unknown } } | undefined)?.modules?.fetch_origins;
  if (!Array.isArray(list)) return [];
  return list.filter((g): g is FetchGrant => typeof g?.origin === 'string' && typeof g?.module === 'string');
}

export async function fetchGrantsOf(central: CentralDb, tenantId: string): Promise<FetchGrant[]> {
  const tenant = await central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
  return grantsIn(tenant?.settings);
}
