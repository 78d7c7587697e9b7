/**
 * The origins a tenant's modules may reach with `host.fetch` (the central tenant setting
 * `modules.fetch_origins`, read by the kernel), permission `modules.manage`:
 *   GET /modules/fetch-origins   → {fetch_origins: ["https://api.vendor.example", …]}
 *   PUT /modules/fetch-origins   {fetch_origins: [url, …]} → the same; each entry is reduced to its
 *                                origin (scheme, host, port) and must be http(s) with no path,
 *                                query or credentials; at most 50. 422 {message, errors} otherwise.
 * Nodes cache the list for 30 seconds, so a change reaches running modules within that time.
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import type { CentralDb } from '../data/central-db';
import { invalid } from '../errors';

export const MAX_ORIGINS = 50;

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

function readOrigins(body: unknown): string[] {
  const list = (body as { fetch_origins?: unknown } | undefined)?.fetch_origins;
  if (!Array.isArray(list)) throw invalid('fetch_origins', 'The fetch_origins field must be an array of origins.');
  if (list.length > MAX_ORIGINS) throw invalid('fetch_origins', `At most ${MAX_ORIGINS} origins.`);
  const origins = list.map(toOrigin);
  const bad = origins.findIndex((o) => typeof o !== 'string');
  if (bad >= 0) throw invalid(`fetch_origins.${bad}`, `The origin ${(origins[bad] as { error: string }).error}.`);
  return [...new Set(origins as string[])];
}

/** The tenant's configured origins. */
export async function fetchOriginsOf(central: CentralDb, tenantId: string): Promise<string[]> {
  const tenant = await central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
  const list = (tenant?.settings as { modules?: { fetch_origins?: unknown } } | undefined)?.modules?.fetch_origins;
  return Array.isArray(list) ? list.filter((o): o is string => typeof o === 'string') : [];
}

export function registerFetchOriginRoutes(api: Router, deps: { central: CentralDb; authenticated: RequestHandler }): void {
  const manage = requirePermission('modules.manage');
  const tenantId = () => currentContext()!.tenant!.id;
  const current = (id: string) => fetchOriginsOf(deps.central, id);

  api.get('/modules/fetch-origins', deps.authenticated, manage, async (_req, res) => {
    res.json({ fetch_origins: await current(tenantId()) });
  });

  api.put('/modules/fetch-origins', deps.authenticated, manage, async (req, res) => {
    const origins = readOrigins(req.body);
    // One statement that touches only modules.fetch_origins, so settings written meanwhile survive.
    await deps.central.sequelize.query(
      `UPDATE tenants SET settings = jsonb_set(settings, '{modules}', COALESCE(settings->'modules', '{}'::jsonb) || jsonb_build_object('fetch_origins', $2::jsonb)), updated_at = now() WHERE id = $1`,
      { bind: [tenantId(), JSON.stringify(origins)] },
    );
    res.json({ fetch_origins: await current(tenantId()) });
  });
}
