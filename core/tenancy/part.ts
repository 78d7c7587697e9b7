/** The tenancy part (core/parts): tenants and their domains, kept in step across nodes. */
import { platformPart } from '../parts/platform-parts';
import { TenantService } from './tenant-service';

export const tenantsPart = platformPart({
  id: 'tenants',
  deps: ['central', 'tenantDbs', 'drivers'],
  init: async ({ central, tenantDbs, drivers }) => {
    const tenants = new TenantService(central, tenantDbs, drivers.pubsub);
    await tenants.start();
    return tenants;
  },
});
