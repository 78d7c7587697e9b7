/** Operations the host itself provides on the bus. Public ones need no api.consumes entry. */
import type { Bus } from '../bus/bus';
import type { CentralDb } from '../data/central-db';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { notFound } from '../errors';
import { TenantNetwork } from '../tenancy/tenant-network';

export function registerPlatformOperations(bus: Bus, central: CentralDb): void {
  const network = new TenantNetwork(central);
  bus.registerCore({
    name: 'platform.get_tenant',
    description: "The current tenant: id, name, ring, its domains, and its level in the reseller network (0 for the super admin's tenant; null outside it).",
    input: { type: 'object', additionalProperties: false },
    public: true,
    handler: async (_input, ctx) => {
      const tenant = await central.models.Tenant.findByPk(ctx.tenantId);
      if (!tenant) throw notFound('Tenant not found.');
      const domains = await central.models.Domain.findAll({ where: { tenant_id: tenant.id }, order: [['id', 'ASC']] });
      // The level tells a module whether it runs in the super admin's tenant (spec 3: the master
      // catalog lives at level 0), which related_parent cannot: it is also null for a suspended link.
      const link = await network.link(tenant.id);
      return { id: tenant.id, name: tenant.name, ring: tenant.ring, domains: domains.map((d) => d.domain), reseller_level: link?.level ?? null };
    },
  });

  // Module code has no crypto of its own (nothing of Node reaches the sandbox); webhook routes need
  // to check senders' signatures, so the host computes and compares them.
  bus.registerCore({
    name: 'platform.hmac',
    description: 'HMAC of a message under a key; with `expected`, also a constant-time comparison.',
    input: {
      type: 'object',
      required: ['key', 'message'],
      additionalProperties: false,
      properties: {
        algorithm: { enum: ['sha1', 'sha256', 'sha512'], default: 'sha256' },
        key: { type: 'string', minLength: 1, maxLength: 4096 },
        message: { type: 'string', maxLength: 10_000_000 },
        encoding: { enum: ['hex', 'base64'], default: 'hex' },
        expected: { type: 'string', maxLength: 1024 },
      },
    },
    public: true,
    handler: async (input: { algorithm?: string; key: string; message: string; encoding?: 'hex' | 'base64'; expected?: string }) => {
      const digest = createHmac(input.algorithm ?? 'sha256', input.key).update(input.message).digest(input.encoding ?? 'hex');
      if (input.expected === undefined) return { digest };
      const a = Buffer.from(digest);
      const b = Buffer.from(input.expected);
      return { digest, matches: a.length === b.length && timingSafeEqual(a, b) };
    },
  });
}
