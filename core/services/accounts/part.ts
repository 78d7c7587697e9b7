/**
 * The accounts part (core/kernel/parts): sign-in, registration, invitations, sessions and the one mailer,
 * and their routes: sign-in and the signed-in user, onboarding, members, account status.
 */
import { authRef } from '../../kernel/auth/part';
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { centralRef, tenantDbsRef } from '../../kernel/data/parts';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { keysRef } from '../../kernel/secrets/part';
import { tenantsRef } from '../../kernel/tenancy/part';
import { registerAccountStatusRoutes } from './account-status-routes';
import { registerAuthRoutes } from './auth-routes';
import { registerMemberRoutes } from './member-routes';
import { registerOnboardingRoutes } from './onboarding-routes';
import { createAccounts, registerAccountRoutes, type Accounts } from './index';

export const accountsRef = partRef<Accounts>('accounts');

export const accountsPart = definePart({
  ref: accountsRef,
  deps: {
    config: configRef, logger: loggerRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, drivers: driversRef, clock: clockRef, kernel: kernelRef, routes: routesRef,
  },
  init: ({ kernel, routes, ...deps }) => {
    const accounts = createAccounts(deps);
    const { central, auth, tenants } = deps;
    routes.add({ name: 'auth', mount: (api, { authenticated }) => registerAuthRoutes(api, { central, auth, authenticated, accounts, modules: kernel.modules }) });
    routes.add({ name: 'onboarding', mount: (api, { authenticated }) => registerOnboardingRoutes(api, { central, tenants, auth, authenticated, accounts }) });
    routes.add({ name: 'members', mount: (api, { authenticated }) => registerMemberRoutes(api, { central, auth, authenticated, invitations: accounts.invitations, events: kernel.events }) });
    routes.add({ name: 'account-status', mount: (api, { authenticated }) => registerAccountStatusRoutes(api, { central, auth, authenticated, events: kernel.events }) });
    routes.add({ name: 'accounts', mount: (api, { authenticated }) => registerAccountRoutes(api, { accounts, authenticated }) });
    return accounts;
  },
});
