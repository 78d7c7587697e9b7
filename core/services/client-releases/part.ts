/** The client releases part (core/kernel/parts): the CLI's releases, their downloads and each user's channel. */
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { centralRef } from '../../kernel/data/parts';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { definePart, partRef } from '../../kernel/parts';
import { keysRef } from '../../kernel/secrets/part';
import { registerClientReleaseRoutes } from './index';

export const clientReleasesRef = partRef<void>('clientReleases');

export const clientReleasesPart = definePart({
  ref: clientReleasesRef,
  deps: { routes: routesRef, config: configRef, central: centralRef, keys: keysRef, drivers: driversRef, clock: clockRef, logger: loggerRef },
  init: ({ routes, config, central, keys, drivers, clock, logger }) =>
    routes.add({ name: 'client-releases', mount: (api, { authenticated }) => void registerClientReleaseRoutes(api, { config, central, keys, cache: drivers.cache, clock, logger, authenticated }) }),
});
