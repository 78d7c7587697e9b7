/** The accounts part (core/parts): sign-in, registration, invitations, sessions and the one mailer, and their routes. */
import { authRef } from '../auth/part';
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { keysRef } from '../secrets/part';
import { tenantsRef } from '../tenancy/part';
import { registerAccountStatusRoutes } from './account-status-routes';
import { createAccounts, registerAccountRoutes, type Accounts } from './index';

export const accountsRef = partRef<Accounts>('accounts');

export const accountsPart = definePart({
  ref: accountsRef,
  deps: {
    config: configRef, logger: loggerRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, drivers: driversRef, clock: clockRef, kernel: kernelRef, routes: routesRef,
  },
  init: ({ kernel, routes, ...deps }) => {
    const accounts = createAccounts(deps);
    const { central, auth } = deps;
    routes.add({ name: 'account-status', mount: (api, { authenticated }) => registerAccountStatusRoutes(api, { central, auth, authenticated, events: kernel.events }) });
    routes.add({ name: 'accounts', mount: (api, { authenticated }) => registerAccountRoutes(api, { accounts, authenticated }) });
    return accounts;
  },
});
