/**
 * The secrets routes part (core/kernel/parts): modules' secrets and the platform key rotation. Apart from
 * the keys part, since these routes need the module kernel, which needs the keys.
 */
import { clockRef } from '../clock-part';
import { centralRef } from '../data/parts';
import { routesRef } from '../http/routes';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { keysRef } from './part';
import { registerSecretRoutes } from './secret-routes';

export const secretRoutesRef = partRef<void>('secretRoutes');

export const secretRoutesPart = definePart({
  ref: secretRoutesRef,
  deps: { routes: routesRef, kernel: kernelRef, central: centralRef, keys: keysRef, clock: clockRef, logger: loggerRef },
  init: ({ routes, kernel, central, keys, clock, logger }) =>
    routes.add({
      name: 'secrets',
      mount: (api, { authenticated, adminAuthenticated }) =>
        registerSecretRoutes(api, { store: kernel.secrets, modules: kernel.modules, audit: kernel.audit, central, keys, clock, logger, authenticated, adminAuthenticated }),
    }),
});
