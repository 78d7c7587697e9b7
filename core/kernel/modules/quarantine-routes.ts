/**
 * Platform super admins see and lift module quarantines (module-quarantine.ts). Same authorization
 * as the registry admin API (registry/admin-auth.ts); errors in the platform shape.
 *
 *   GET    /registry/quarantine            → {quarantined: [{module, reason, since, until}]}
 *   DELETE /registry/quarantine/{module}   → {message} (module is `alias@version`); 404 NOT_QUARANTINED
 */
import type { RequestHandler, Router } from 'express';
import { requireSuperAdmin } from '../auth/authenticate';
import { moduleErrors } from './errors';
import type { ModuleQuarantine } from './module-quarantine';

export function registerQuarantineRoutes(api: Router, deps: { quarantine: ModuleQuarantine; adminAuthenticated: RequestHandler }): void {
  const { quarantine, adminAuthenticated } = deps;

  api.get('/registry/quarantine', adminAuthenticated, requireSuperAdmin, async (_req, res) => {
    res.json({ quarantined: await quarantine.list() });
  });

  api.delete('/registry/quarantine/:module', adminAuthenticated, requireSuperAdmin, async (req, res) => {
    const moduleKey = String(req.params.module);
    if (!(await quarantine.lift(moduleKey))) {
      throw moduleErrors.notQuarantined(moduleKey);
    }
    res.json({ message: `Module ${moduleKey} may be called again.` });
  });
}
