/**
 * Module settings over the API, for tenant admins (permission `modules.settings.manage`;
 * docs/decisions/module-settings.md):
 *
 *   GET   /modules/{alias}/settings  → {values, updated_at}: every declared setting, stored or its
 *                                     default (null when neither); a secret as {set: true|false}
 *   PUT   /modules/{alias}/settings  {values} → the same: replaces the stored values (secrets left out are kept)
 *   PATCH /modules/{alias}/settings  {values} → the same: merges; null removes a setting
 *
 * Writes are validated by the manifest's schema (422 with field errors), capped at 64 KB (413), and
 * audited with the names changed, never a value.
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../auth/authenticate';
import type { AuditWriter } from '../bus/audit-writer';
import type { Clock } from '../clock';
import { currentContext } from '../context';
import { invalid, notFound } from '../errors';
import type { ModuleHost } from '../modules/module-host';
import { settingsErrors } from './errors';
import type { ModuleSettings } from './module-settings';

export function registerSettingsRoutes(api: Router, deps: { store: ModuleSettings; modules: ModuleHost; audit: AuditWriter; clock: Clock; authenticated: RequestHandler }): void {
  const { store, modules } = deps;
  const manage = requirePermission('modules.settings.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  const schemaOf = async (alias: string) => {
    const mod = (await modules.modulesFor(tenantId())).byAlias.get(alias);
    if (!mod) throw notFound(`Module "${alias}" is not installed in this tenant.`, { module: alias });
    if (!mod.manifest.settings) throw settingsErrors.notDeclared(alias);
    return mod.manifest.settings;
  };

  api.get('/modules/:alias/settings', deps.authenticated, manage, async (req, res) => {
    const alias = String(req.params.alias);
    res.json(await store.view(tenantId(), alias, await schemaOf(alias)));
  });

  for (const [method, replace] of [['put', true], ['patch', false]] as const) {
    api[method]('/modules/:alias/settings', deps.authenticated, manage, async (req, res) => {
      const alias = String(req.params.alias);
      const schema = await schemaOf(alias);
      const values = (req.body as { values?: unknown } | undefined)?.values;
      if (typeof values !== 'object' || values === null || Array.isArray(values)) throw invalid('values', 'The values must be an object of settings.');
      const { changed } = await store.write(tenantId(), alias, schema, { values: values as Record<string, unknown>, replace });
      deps.audit.write({
        tenant_id: tenantId(), actor_type: 'user', actor_id: String(currentContext()!.user!.id), action: replace ? 'settings.replace' : 'settings.update',
        target: `module:${alias}`, status: 'ok', details: { settings: changed, via: 'http' }, created_at: new Date(deps.clock.now()),
      });
      res.json(await store.view(tenantId(), alias, schema));
    });
  }
}
