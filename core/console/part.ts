/** The console part (core/kernel/parts): the web console's page and assets at /, and its first-run seed route. */
import { configRef } from '../config';
import { routesRef } from '../kernel/http/routes';
import { loggerRef } from '../kernel/logger';
import { definePart, partRef } from '../kernel/parts';
import { consoleRoutes } from './console-routes';
import { registerSeedRoute } from './seed-route';

export const consoleRef = partRef<void>('console');

export const consolePart = definePart({
  ref: consoleRef,
  deps: { routes: routesRef, config: configRef, logger: loggerRef },
  init: ({ routes, config, logger }) => {
    routes.add({ name: 'seed', mount: (api, { authenticated, selfUrl }) => registerSeedRoute(api, { env: config.env, authenticated, selfUrl }) });
    routes.add({ name: 'console', mount: (site) => void site.use(consoleRoutes({ rootDomain: config.rootDomain, env: config.env, logger })) });
  },
});
