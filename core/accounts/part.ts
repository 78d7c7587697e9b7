/** The accounts part (core/parts): sign-in, registration, invitations, sessions and the one mailer. */
import { platformPart } from '../parts/platform-parts';
import { createAccounts } from './index';

export const accountsPart = platformPart({
  id: 'accounts',
  deps: ['config', 'logger', 'central', 'keys', 'tenantDbs', 'tenants', 'auth', 'drivers', 'clock'],
  init: (deps) => createAccounts(deps),
});
