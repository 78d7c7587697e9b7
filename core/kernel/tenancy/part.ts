/** The tenancy part (core/kernel/parts): tenants and their domains, kept in step across nodes. */
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { definePart, partRef } from '../parts';
import { TenantService } from './tenant-service';

export const tenantsRef = partRef<TenantService>('tenants');

export const tenantsPart = definePart({
  ref: tenantsRef,
  deps: { central: centralRef, tenantDbs: tenantDbsRef, drivers: driversRef },
  init: async ({ central, tenantDbs, drivers }) => {
    const tenants = new TenantService(central, tenantDbs, drivers.pubsub);
    await tenants.start();
    return tenants;
  },
});
