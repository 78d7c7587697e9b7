/**
 * GET /ai/agent/tools (spec 2, AI: Agent; permission ai.view): {data: [{name, module, description}]},
 * the tools of the modules the tenant's ring releases and it has installed, less those the user
 * could not use (ai-tools.ts). Errors in the platform shape: 401, 403 without ai.view.
 */
import type { RequestHandler, Router } from 'express';
import { hasPermission, requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import type { TenantCatalogs } from './tenant-catalogs';

export function registerAiToolRoutes(api: Router, deps: { catalogs: TenantCatalogs; authenticated: RequestHandler }): void {
  api.get('/ai/agent/tools', deps.authenticated, requirePermission('ai.view'), async (_req, res) => {
    const { catalog, ringKey } = await deps.catalogs.forTenant(currentContext()!.tenant!);
    res.set('X-Catalog-Key', ringKey);
    res.json({ data: catalog.tools.filter((t) => t.needs.every(hasPermission)).map((t) => t.tool) });
  });
}
