/**
 * The origins a tenant's modules may reach with `host.fetch`, each granted to one module
 * (./fetch-grants.ts), permission `modules.manage`:
 *   GET /modules/fetch-origins   → {fetch_origins: [{origin: "https://api.vendor.example", module: "ai"}, …]}
 *   PUT /modules/fetch-origins   {fetch_origins: [{origin, module}, …]} → the same; each origin is
 *                                reduced to scheme, host and port and must be http(s) with no path,
 *                                query or credentials; module is a module alias; at most 50 grants.
 *                                422 {message, errors} otherwise.
 * A change takes effect at once on this node, a removal at once everywhere, an addition on the other
 * nodes when the announcement arrives (./fetch-access.ts).
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import type { CentralDb } from '../data/central-db';
import { invalid } from '../errors';
import { MAX_GRANTS, fetchGrantsOf, toGrant, type FetchGrant } from './fetch-grants';

function readGrants(body: unknown): FetchGrant[] {
  const list = (body as { fetch_origins?: unknown } | undefined)?.fetch_origins;
  if (!Array.isArray(list)) throw invalid('fetch_origins', 'The fetch_origins field must be an array of {origin, module}.');
  if (list.length > MAX_GRANTS) throw invalid('fetch_origins', `At most ${MAX_GRANTS} grants.`);
  const grants = list.map(toGrant);
  const bad = grants.findIndex((g) => 'error' in g);
  if (bad >= 0) throw invalid(`fetch_origins.${bad}`, `The grant ${(grants[bad] as { error: string }).error}.`);
  const unique = new Map((grants as FetchGrant[]).map((g) => [`${g.module} ${g.origin}`, g]));
  return [...unique.values()];
}

export function registerFetchOriginRoutes(api: Router, deps: { central: CentralDb; authenticated: RequestHandler; changed: (tenantId: string) => Promise<void> }): void {
  const manage = requirePermission('modules.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  api.get('/modules/fetch-origins', deps.authenticated, manage, async (_req, res) => {
    res.json({ fetch_origins: await fetchGrantsOf(deps.central, tenantId()) });
  });

  api.put('/modules/fetch-origins', deps.authenticated, manage, async (req, res) => {
    const grants = readGrants(req.body);
    // One statement that touches only modules.fetch_origins, so settings written meanwhile survive.
    await deps.central.sequelize.query(
      `UPDATE tenants SET settings = jsonb_set(settings, '{modules}', COALESCE(settings->'modules', '{}'::jsonb) || jsonb_build_object('fetch_origins', $2::jsonb)), updated_at = now() WHERE id = $1`,
      { bind: [tenantId(), JSON.stringify(grants)] },
    );
    await deps.changed(tenantId());
    res.json({ fetch_origins: await fetchGrantsOf(deps.central, tenantId()) });
  });
}
