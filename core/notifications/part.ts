/** The notifications part (core/parts): in-app notifications, their realtime pushes and device push. */
import { platformPart } from '../parts/platform-parts';
import { createNotifications } from './index';

export const notificationsPart = platformPart({
  id: 'notifications',
  deps: ['config', 'central', 'tenantDbs', 'tenants', 'auth', 'drivers', 'kernel', 'realtime', 'clock', 'logger'],
  init: ({ kernel, ...deps }) => createNotifications({ ...deps, bus: kernel.bus }),
});
