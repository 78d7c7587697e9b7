/** The notifications part (core/parts): in-app notifications, their realtime pushes and device push, and their routes. */
import { authRef } from '../auth/part';
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { routesRef } from '../http/routes';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { realtimeRef } from '../realtime/part';
import { tenantsRef } from '../tenancy/part';
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
