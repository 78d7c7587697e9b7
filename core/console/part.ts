/** The console part (core/kernel/parts): the web console's page and assets at /, the modules' console pages (page-routes.ts), and its first-run seed route. */
import { configRef } from '../config';
import { routesRef } from '../kernel/http/routes';
import { loggerRef } from '../kernel/logger';
import { kernelRef } from '../kernel/modules/part';
import { definePart, partRef } from '../kernel/parts';
import { consoleRoutes } from './console-routes';
import { registerConsolePageRoutes } from './page-routes';
import { registerSeedRoute } from './seed-route';

export const consoleRef = partRef<void>('console');

export const consolePart = definePart({
  ref: consoleRef,
  deps: { routes: routesRef, config: configRef, logger: loggerRef, kernel: kernelRef },
  init: ({ routes, config, logger, kernel }) => {
    routes.add({ name: 'seed', mount: (api, { authenticated, selfUrl }) => registerSeedRoute(api, { env: config.env, authenticated, selfUrl }) });
    routes.add({ name: 'console-pages', mount: (api, { authenticated }) => registerConsolePageRoutes(api, { modules: kernel.modules, authenticated }) });
    routes.add({ name: 'console', mount: (site) => void site.use(consoleRoutes({ rootDomain: config.rootDomain, env: config.env, logger })) });
  },
});
