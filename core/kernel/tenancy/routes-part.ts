/**
 * The tenancy routes part (core/kernel/parts): sub-resellers, reseller applications and private networks.
 * Apart from the tenants part, since these routes need the module kernel, which needs the tenants.
 * (Onboarding and members are the accounts' routes: they create users and invitations.)
 */
import { centralRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { tenantsRef } from './part';
import { registerPrivateNetworkRoute } from './private-networks';
import { registerResellerApplicationRoutes } from './reseller-application-routes';
import { registerSubResellerRoutes } from './sub-reseller-routes';

export const tenancyRoutesRef = partRef<void>('tenancyRoutes');

export const tenancyRoutesPart = definePart({
  ref: tenancyRoutesRef,
  deps: { routes: routesRef, central: centralRef, tenants: tenantsRef, kernel: kernelRef, drivers: driversRef },
  init: ({ routes, central, tenants, kernel, drivers }) => {
    const { rateLimiter } = drivers;
    routes.add({ name: 'sub-resellers', mount: (api, { authenticated }) => registerSubResellerRoutes(api, { tenants, authenticated, rateLimiter }) });
    routes.add({ name: 'reseller-applications', mount: (api, { authenticated }) => registerResellerApplicationRoutes(api, { tenants, authenticated, rateLimiter }) });
    routes.add({ name: 'private-networks', mount: (api, { authenticated }) => registerPrivateNetworkRoute(api, { central, tenants, authenticated, changed: kernel.fetchGrantsChanged }) });
  },
});
