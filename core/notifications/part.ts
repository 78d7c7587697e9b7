/** The notifications part (core/parts): in-app notifications, their realtime pushes and device push. */
import { authRef } from '../auth/part';
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { definePart, partRef } from '../parts';
import { realtimeRef } from '../realtime/part';
import { tenantsRef } from '../tenancy/part';
import { createNotifications, type Notifications } from './index';

export const notificationsRef = partRef<Notifications>('notifications');

export const notificationsPart = definePart({
  ref: notificationsRef,
  deps: {
    config: configRef, central: centralRef, tenantDbs: tenantDbsRef, tenants: tenantsRef, auth: authRef, drivers: driversRef, kernel: kernelRef, realtime: realtimeRef, clock: clockRef, logger: loggerRef,
  },
  init: ({ kernel, ...deps }) => createNotifications({ ...deps, bus: kernel.bus }),
});
