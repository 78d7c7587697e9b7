/**
 * The central tenant setting `webhooks.allow_private_networks`: whether the platform's outbound calls
 * for this tenant (webhooks, host.fetch, client-release sources, web push; core/kernel/net/outbound-policy.ts)
 * may reach private and loopback addresses. Only a platform super admin sets it, never a tenant:
 *   PATCH /admin/tenants/{id or alias}/private-networks {allow_private_networks: boolean}
 *     → 200 {tenant_id, allow_private_networks}; 404 unknown tenant; 422 {message, errors} bad body.
 * Link-local and cloud metadata addresses stay out of reach whatever it says. host.fetch applies a
 * change at once on the node that answered, turning it off at once on every node, and turning it on
 * on the others when the change's announcement arrives (core/kernel/modules/fetch-access.ts); the other
 * outbound callers read the setting for each call.
 */
import type { RequestHandler, Router } from 'express';
import { requireSuperAdmin } from '../auth/authenticate';
import type { CentralDb } from '../data/central-db';
import { invalid, notFound } from '../errors';
import type { TenantService } from './tenant-service';

/** The setting read from a tenant's settings object (for callers that already hold it). */
export function privateNetworksAllowed(settings: unknown): boolean {
  return (settings as { webhooks?: { allow_private_networks?: unknown } } | null | undefined)?.webhooks?.allow_private_networks === true;
}

export async function allowsPrivateNetworks(central: CentralDb, tenantId: string): Promise<boolean> {
  const tenant = await central.models.Tenant.findByPk(tenantId, { attributes: ['settings'] });
  return privateNetworksAllowed(tenant?.settings);
}

export function registerPrivateNetworkRoute(api: Router, deps: { central: CentralDb; tenants: TenantService; authenticated: RequestHandler; changed: (tenantId: string) => Promise<void> }): void {
  api.patch('/admin/tenants/:id/private-networks', deps.authenticated, requireSuperAdmin, async (req, res) => {
    const allow = (req.body as { allow_private_networks?: unknown } | undefined)?.allow_private_networks;
    if (typeof allow !== 'boolean') throw invalid('allow_private_networks', 'The allow_private_networks field must be true or false.');
    const tenant = await deps.tenants.resolve(String(req.params.id));
    if (!tenant) throw notFound('Tenant not found.');
    // One statement that touches only this key, so settings written meanwhile survive.
    await deps.central.sequelize.query(
      `UPDATE tenants SET settings = jsonb_set(settings, '{webhooks}', COALESCE(settings->'webhooks', '{}'::jsonb) || jsonb_build_object('allow_private_networks', $2::boolean)), updated_at = now() WHERE id = $1`,
      { bind: [tenant.id, allow] },
    );
    // host.fetch sees it before this answers (core/kernel/modules/fetch-access.ts).
    await deps.changed(tenant.id);
    res.json({ tenant_id: tenant.id, allow_private_networks: await allowsPrivateNetworks(deps.central, tenant.id) });
  });
}
