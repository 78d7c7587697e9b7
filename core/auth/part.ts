/** The auth part (core/parts): access tokens and memberships, their caches dropped on every node at once. */
import { platformPart } from '../parts/platform-parts';
import { AuthService, type Invalidation } from './auth-service';

const AUTH_CHANNEL = 'mandi:auth:invalidate';

export const authPart = platformPart({
  id: 'auth',
  deps: ['central', 'config', 'drivers'],
  init: async ({ central, config, drivers }) => {
    const auth = new AuthService(central, config.tokenTtlSeconds, (change) => void drivers.pubsub.publish(AUTH_CHANNEL, change));
    await drivers.pubsub.subscribe(AUTH_CHANNEL, (change) => auth.dropCached(change as Invalidation));
    return auth;
  },
});
