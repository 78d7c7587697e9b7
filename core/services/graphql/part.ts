/** The GraphQL part (core/kernel/parts): the gateway over the installed modules, its persisted queries and settings. */
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { centralRef, tenantDbsRef } from '../../kernel/data/parts';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { registerGraphqlRoutes } from './graphql-routes';

export const graphqlRef = partRef<void>('graphql');

export const graphqlPart = definePart({
  ref: graphqlRef,
  deps: { routes: routesRef, config: configRef, central: centralRef, tenantDbs: tenantDbsRef, drivers: driversRef, kernel: kernelRef, clock: clockRef, logger: loggerRef },
  init: ({ routes, config, central, tenantDbs, drivers, kernel, clock, logger }) =>
    routes.add({ name: 'graphql', mount: (api, { authenticated }) => void registerGraphqlRoutes(api, { config, central, tenantDbs, pubsub: drivers.pubsub, kernel, clock, logger, authenticated }) }),
});
