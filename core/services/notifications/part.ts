/** The notifications part (core/kernel/parts): in-app notifications, their realtime pushes and device push, and their routes. */
import { authRef } from '../../kernel/auth/part';
import { clockRef } from '../../kernel/clock-part';
import { configRef } from '../../config';
import { centralRef, tenantDbsRef } from '../../kernel/data/parts';
import { driversRef } from '../../kernel/drivers/parts';
import { routesRef } from '../../kernel/http/routes';
import { loggerRef } from '../../kernel/logger';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { realtimeRef } from '../../kernel/realtime/part';
import { tenantsRef } from '../../kernel/tenancy/part';
import { createNotifications, registerNotificationRoutes, type Notifications } from './index';

export const notificationsRef = partRef<Notifications>('notifications');

export const notificationsPart = definePart({
  ref: notificationsRef,
  deps: {
    config: configRef, central: centralRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, drivers: driversRef, kernel: kernelRef, realtime: realtimeRef, clock: clockRef, logger: loggerRef, routes: routesRef,
  },
  init: ({ kernel, routes, ...deps }) => {
    const notifications = createNotifications({ ...deps, bus: kernel.bus });
    routes.add({ name: 'notifications', mount: (api, { authenticated }) => registerNotificationRoutes(api, { notifications, authenticated, config: deps.config }) });
    return notifications;
  },
});
