/** The GraphQL part (core/parts): the gateway over the installed modules, its persisted queries and settings. */
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { registerGraphqlRoutes } from './graphql-routes';

export const graphqlRef = partRef<void>('graphql');

export const graphqlPart = definePart({
  ref: graphqlRef,
  deps: { routes: routesRef, config: configRef, central: centralRef, tenantDbs: tenantDbsRef, drivers: driversRef, kernel: kernelRef, clock: clockRef, logger: loggerRef },
  init: ({ routes, config, central, tenantDbs, drivers, kernel, clock, logger }) =>
    routes.add({ name: 'graphql', mount: (api, { authenticated }) => void registerGraphqlRoutes(api, { config, central, tenantDbs, pubsub: drivers.pubsub, kernel, clock, logger, authenticated }) }),
});
