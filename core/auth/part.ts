/** The auth part (core/parts): access tokens and memberships, their caches dropped on every node at once. */
import { configRef } from '../config';
import { centralRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { definePart, partRef } from '../parts';
import { AuthService, type Invalidation } from './auth-service';

const AUTH_CHANNEL = 'mandi:auth:invalidate';

export const authRef = partRef<AuthService>('auth');

export const authPart = definePart({
  ref: authRef,
  deps: { central: centralRef, config: configRef, drivers: driversRef },
  init: async ({ central, config, drivers }) => {
    const auth = new AuthService(central, config.tokenTtlSeconds, (change) => void drivers.pubsub.publish(AUTH_CHANNEL, change));
    await drivers.pubsub.subscribe(AUTH_CHANNEL, (change) => auth.dropCached(change as Invalidation));
    return auth;
  },
});
