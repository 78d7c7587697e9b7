/**
 * The tenancy routes part (core/parts): onboarding, members, sub-resellers, reseller applications
 * and private networks. Apart from the tenants part, since these routes need the accounts and the
 * module kernel, which need the tenants.
 */
import { accountsRef } from '../accounts/part';
import { authRef } from '../auth/part';
import { centralRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { registerMemberRoutes } from './member-routes';
import { registerOnboardingRoutes } from './onboarding-routes';
import { tenantsRef } from './part';
import { registerPrivateNetworkRoute } from './private-networks';
import { registerResellerApplicationRoutes } from './reseller-application-routes';
import { registerSubResellerRoutes } from './sub-reseller-routes';

export const tenancyRoutesRef = partRef<void>('tenancyRoutes');

export const tenancyRoutesPart = definePart({
  ref: tenancyRoutesRef,
  deps: { routes: routesRef, central: centralRef, tenants: tenantsRef, auth: authRef, accounts: accountsRef, kernel: kernelRef, drivers: driversRef },
  init: ({ routes, central, tenants, auth, accounts, kernel, drivers }) => {
    const { rateLimiter } = drivers;
    routes.add({ name: 'onboarding', mount: (api, { authenticated }) => registerOnboardingRoutes(api, { central, tenants, auth, authenticated, accounts }) });
    routes.add({ name: 'members', mount: (api, { authenticated }) => registerMemberRoutes(api, { central, auth, authenticated, invitations: accounts.invitations, events: kernel.events }) });
    routes.add({ name: 'sub-resellers', mount: (api, { authenticated }) => registerSubResellerRoutes(api, { tenants, authenticated, rateLimiter }) });
    routes.add({ name: 'reseller-applications', mount: (api, { authenticated }) => registerResellerApplicationRoutes(api, { tenants, authenticated, rateLimiter }) });
    routes.add({ name: 'private-networks', mount: (api, { authenticated }) => registerPrivateNetworkRoute(api, { central, tenants, authenticated, changed: kernel.fetchGrantsChanged }) });
  },
});
