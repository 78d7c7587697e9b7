/**
 * Tenant admins install and remove modules (permission `modules.manage`). Issue 4 turns these into
 * ring-aware lifecycle jobs; here they run inline.
 *   GET    /modules                   {installed: [{alias, version}], available: [{alias, versions}]}
 *   POST   /modules/{alias}/install   {version?} → 201 {alias, version}
 *   DELETE /modules/{alias}?purge=true
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { invalid } from '../errors';
import type { InProcessModuleSource, ModuleHost } from './module-host';

export function registerModuleAdminRoutes(api: Router, deps: { modules: ModuleHost; source: InProcessModuleSource; authenticated: RequestHandler }): void {
  const manage = requirePermission('modules.manage');

  api.get('/modules', deps.authenticated, manage, async (_req, res) => {
    const set = await deps.modules.modulesFor(currentContext()!.tenant!.id);
    res.json({
      installed: set.list.map((m) => ({ alias: m.alias, version: m.manifest.version, description: m.manifest.description ?? null })),
      available: deps.source.catalog(),
    });
  });

  api.post('/modules/:alias/install', deps.authenticated, manage, async (req, res) => {
    const version = (req.body as { version?: unknown } | undefined)?.version;
    if (version !== undefined && typeof version !== 'string') throw invalid('version', 'The version must be a string.');
    res.status(201).json(await deps.modules.install(currentContext()!.tenant!.id, String(req.params.alias), version));
  });

  api.delete('/modules/:alias', deps.authenticated, manage, async (req, res) => {
    await deps.modules.uninstall(currentContext()!.tenant!.id, String(req.params.alias), { purge: req.query.purge === 'true' });
    res.json({ message: 'Module uninstalled.' });
  });
}
