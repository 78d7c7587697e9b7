/** Operations the host itself provides on the bus. Public ones need no api.consumes entry. */
import { platformGetMember, platformGetTenant, platformHmac, platformRandomToken } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { CentralDb } from '../data/central-db';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { notFound } from '../errors';
import { TenantNetwork } from '../tenancy/tenant-network';
import { tenantUrl } from '../tenancy/tenant-url';

export function registerPlatformOperations(bus: Bus, central: CentralDb, site: { appUrl: string; rootDomain: string }): void {
  const network = new TenantNetwork(central);
  bus.registerCore(defineCoreOperation(platformGetTenant, async (_input, ctx) => {
    const tenant = await central.models.Tenant.findByPk(ctx.tenantId);
    if (!tenant) throw notFound('Tenant not found.');
    const domains = await central.models.Domain.findAll({ where: { tenant_id: tenant.id }, order: [['id', 'ASC']] });
    // The level tells a module whether it runs in the super admin's tenant (spec 3: the master
    // catalog lives at level 0), which related_parent cannot: it is also null for a suspended link.
    const link = await network.link(tenant.id);
    return {
      id: tenant.id,
      name: tenant.name,
      ring: tenant.ring,
      domains: domains.map((d) => d.domain),
      // Links a module hands out (a widget's embed code) must reach this platform from anywhere.
      url: tenantUrl(site.appUrl, site.rootDomain, domains),
      reseller_level: link?.level ?? null,
    };
  }));

  // A module that keeps people of the tenant (live chat's agents) must know they are members: only
  // of the calling tenant, and only whether they are active (and their name while they are).
  bus.registerCore(defineCoreOperation(platformGetMember, async (input, ctx) => {
    const membership = await central.models.Membership.findOne({ where: { tenant_id: ctx.tenantId, user_id: input.user_id }, attributes: ['status'] });
    const user = membership?.status === 'active' ? await central.models.User.findByPk(input.user_id, { attributes: ['name', 'status'] }) : null;
    const active = user?.status === 'active';
    return { user_id: input.user_id, active, name: active ? user.name : null };
  }));

  // Module code has no crypto of its own (nothing of Node reaches the sandbox); webhook routes need
  // to check senders' signatures, so the host computes and compares them.
  bus.registerCore(defineCoreOperation(platformHmac, async (input) => {
    const digest = createHmac(input.algorithm ?? 'sha256', input.key).update(input.message).digest(input.encoding ?? 'hex');
    if (input.expected === undefined) return { digest };
    const a = Buffer.from(digest);
    const b = Buffer.from(input.expected);
    return { digest, matches: a.length === b.length && timingSafeEqual(a, b) };
  }));

  // Nor has it a secure random source (Math.random is predictable): session ids a visitor must not
  // guess (spec 2, Live chat: Visitor.session_id) come from the host's.
  bus.registerCore(defineCoreOperation(platformRandomToken, async (input) => ({ token: randomBytes(input.bytes ?? 24).toString('base64url') })));
}
