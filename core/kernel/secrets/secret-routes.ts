/**
 * Module secrets over the API: write-only for tenant admins (permission `modules.secrets.manage`),
 * and the key rotation for platform super admins. No route ever answers a secret's value.
 *
 *   GET    /modules/{alias}/secrets         → {secrets: [{name, description, set, hint, set_at}]}: the
 *                                            declared secrets, and any stored one no longer declared
 *   PUT    /modules/{alias}/secrets/{name}  {value} → {name, hint, set_at}; only declared names
 *   DELETE /modules/{alias}/secrets/{name}  → {message}; 404 when not set
 *   POST   /admin/secrets/rotate            ?batch_size=100&max_batches= → {key_id, done, rotated: {table: count},
 *                                            unreadable: [{table, row}]} (secret-rotation.ts)
 *
 * Writes and deletes go to the audit log with the secret's name, never its value.
 */
import type { RequestHandler, Router } from 'express';
import { SETTING_SECRET_PREFIX } from '../../../sdk/contracts/platform';
import { requirePermission, requireSuperAdmin } from '../auth/authenticate';
import type { AppKeys } from './app-key';
import type { AuditWriter } from '../bus/audit-writer';
import type { Clock } from '../clock';
import { currentContext } from '../context';
import type { CentralDb } from '../data/central-db';
import { invalid, notFound } from '../errors';
import type { Logger } from '../logger';
import type { ModuleHost } from '../modules/module-host';
import { secretErrors } from './errors';
import type { ModuleSecrets } from './module-secrets';
import { rotateSecrets } from './secret-rotation';

export interface SecretRouteDeps {
  store: ModuleSecrets;
  modules: ModuleHost;
  audit: AuditWriter;
  central: CentralDb;
  keys: AppKeys;
  clock: Clock;
  logger: Logger;
  authenticated: RequestHandler;
  adminAuthenticated: RequestHandler;
}

/** An optional positive integer query parameter up to max. */
function bounded(raw: unknown, field: string, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalid(field, `The ${field} must be an integer from 1 to ${max}.`);
  return n;
}

export function registerSecretRoutes(api: Router, deps: SecretRouteDeps): void {
  const { store, modules } = deps;
  const manage = requirePermission('modules.secrets.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  const installed = async (alias: string) => {
    const mod = (await modules.modulesFor(tenantId())).byAlias.get(alias);
    if (!mod) throw notFound(`Module "${alias}" is not installed in this tenant.`, { module: alias });
    return mod;
  };
  const audit = (action: string, alias: string, name: string) => {
    const user = currentContext()!.user!;
    deps.audit.write({
      tenant_id: tenantId(), actor_type: 'user', actor_id: String(user.id), action, target: `module:${alias}`,
      status: 'ok', details: { secret: name, via: 'http' }, created_at: new Date(deps.clock.now()),
    });
  };

  api.get('/modules/:alias/secrets', deps.authenticated, manage, async (req, res) => {
    const alias = String(req.params.alias);
    const declared = (await installed(alias)).manifest.secrets ?? [];
    const stored = new Map((await store.list(tenantId(), alias)).map((s) => [s.name, s]));
    const secrets = declared.map((d) => ({ name: d.name, description: d.description, set: stored.has(d.name), hint: stored.get(d.name)?.hint ?? null, set_at: stored.get(d.name)?.set_at ?? null }));
    for (const s of stored.values()) {
      // Secret settings are shown by GET /modules/{alias}/settings (core/kernel/module-settings).
      if (!declared.some((d) => d.name === s.name) && !s.name.startsWith(SETTING_SECRET_PREFIX)) secrets.push({ name: s.name, description: 'No longer declared by the module: delete it.', set: true, hint: s.hint, set_at: s.set_at });
    }
    res.json({ secrets });
  });

  api.put('/modules/:alias/secrets/:name', deps.authenticated, manage, async (req, res) => {
    const alias = String(req.params.alias);
    const name = String(req.params.name);
    const mod = await installed(alias);
    if (!mod.manifest.secrets?.some((s) => s.name === name)) throw secretErrors.notDeclared(alias, name);
    const value = (req.body as { value?: unknown } | undefined)?.value;
    if (typeof value !== 'string' || value === '') throw invalid('value', 'The value must be a non-empty string.');
    const hint = await store.write(tenantId(), alias, name, value);
    audit('secrets.set', alias, name);
    res.json(hint);
  });

  api.delete('/modules/:alias/secrets/:name', deps.authenticated, manage, async (req, res) => {
    const alias = String(req.params.alias);
    const name = String(req.params.name);
    await installed(alias);
    if (!(await store.remove(tenantId(), alias, name))) throw notFound(`Module "${alias}" has no secret "${name}" set in this tenant.`, { module: alias, name });
    audit('secrets.delete', alias, name);
    res.json({ message: `Secret "${name}" of module "${alias}" deleted.` });
  });

  api.post('/admin/secrets/rotate', deps.adminAuthenticated, requireSuperAdmin, async (req, res) => {
    const opts = { batchSize: bounded(req.query.batch_size, 'batch_size', 1000), maxBatches: bounded(req.query.max_batches, 'max_batches', 1_000_000) };
    res.json(await rotateSecrets({ central: deps.central, keys: deps.keys, logger: deps.logger.child({ part: 'secrets' }) }, opts));
  });
}
