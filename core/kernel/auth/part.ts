/** The auth part (core/kernel/parts): access tokens and memberships, their caches dropped on every node at once. */
import { configRef } from '../../config';
import { centralRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { definePart, partRef } from '../parts';
import { createAdminAuth, type AdminAuth } from './admin-auth';
import { AuthService, type Invalidation } from './auth-service';

const AUTH_CHANNEL = 'mandi:auth:invalidate';

export const authRef = partRef<AuthService>('auth');
export const adminAuthRef = partRef<AdminAuth>('adminAuth');

export const authPart = definePart({
  ref: authRef,
  deps: { central: centralRef, config: configRef, drivers: driversRef },
  init: async ({ central, config, drivers }) => {
    const auth = new AuthService(central, config.tokenTtlSeconds, (change) => void drivers.pubsub.publish(AUTH_CHANNEL, change));
    await drivers.pubsub.subscribe(AUTH_CHANNEL, (change) => auth.dropCached(change as Invalidation));
    return auth;
  },
});

/** The admin API's authentication, which parts with tokens of their own contribute to (admin-auth.ts). */
export const adminAuthPart = definePart({ ref: adminAuthRef, deps: { auth: authRef }, init: ({ auth }) => createAdminAuth(auth) });
