/** Operations the host itself provides on the bus. Public ones need no api.consumes entry. */
import type { Bus } from '../bus/bus';
import type { CentralDb } from '../data/central-db';
import { notFound } from '../errors';

export function registerPlatformOperations(bus: Bus, central: CentralDb): void {
  bus.registerCore({
    name: 'platform.get_tenant',
    description: 'The current tenant: id, name, ring and its domains.',
    input: { type: 'object', additionalProperties: false },
    public: true,
    handler: async (_input, ctx) => {
      const tenant = await central.models.Tenant.findByPk(ctx.tenantId);
      if (!tenant) throw notFound('Tenant not found.');
      const domains = await central.models.Domain.findAll({ where: { tenant_id: tenant.id }, order: [['id', 'ASC']] });
      return { id: tenant.id, name: tenant.name, ring: tenant.ring, domains: domains.map((d) => d.domain) };
    },
  });
}
