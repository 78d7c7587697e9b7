/**
 * The auth routes part (core/parts): sign-in, sign-out and the signed-in user. Apart from the auth
 * part, since these routes need the accounts and the module host, which need auth.
 */
import { accountsRef } from '../accounts/part';
import { centralRef } from '../data/parts';
import { routesRef } from '../http/routes';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { registerAuthRoutes } from './auth-routes';
import { authRef } from './part';

export const authRoutesRef = partRef<void>('authRoutes');

export const authRoutesPart = definePart({
  ref: authRoutesRef,
  deps: { routes: routesRef, central: centralRef, auth: authRef, accounts: accountsRef, kernel: kernelRef },
  init: ({ routes, central, auth, accounts, kernel }) =>
    routes.add({ name: 'auth', mount: (api, { authenticated }) => registerAuthRoutes(api, { central, auth, authenticated, accounts, modules: kernel.modules }) }),
});
