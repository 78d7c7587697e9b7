/** The activity part (core/kernel/parts): the tenant's activity log, read at GET /activity-log. */
import { tenantDbsRef } from '../../kernel/data/parts';
import { routesRef } from '../../kernel/http/routes';
import { definePart, partRef } from '../../kernel/parts';
import { registerActivityRoutes } from './activity-routes';

export const activityRef = partRef<void>('activity');

export const activityPart = definePart({
  ref: activityRef,
  deps: { routes: routesRef, tenantDbs: tenantDbsRef },
  init: ({ routes, tenantDbs }) => routes.add({ name: 'activity', mount: (api, { authenticated }) => void registerActivityRoutes(api, { tenantDbs, authenticated }) }),
});
