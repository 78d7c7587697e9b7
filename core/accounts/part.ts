/** The accounts part (core/parts): sign-in, registration, invitations, sessions and the one mailer. */
import { authRef } from '../auth/part';
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { keysRef } from '../secrets/part';
import { tenantsRef } from '../tenancy/part';
import { createAccounts, type Accounts } from './index';

export const accountsRef = partRef<Accounts>('accounts');

export const accountsPart = definePart({
  ref: accountsRef,
  deps: { config: configRef, logger: loggerRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, drivers: driversRef, clock: clockRef },
  init: (deps) => createAccounts(deps),
});
