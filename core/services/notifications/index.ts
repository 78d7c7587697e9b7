/**
 * Notifications assembled (spec 1, Notification, Notifications, Events): storage, the public bus
 * operation notifications.send, the queued realtime broadcast, push to devices, channel
 * authorisation for sockets, and the HTTP endpoints.
 *
 * Wiring in core/services/notifications/part.ts: createNotifications once the bus and realtime exist, and
 * registerNotificationRoutes as its route group (core/kernel/http/routes.ts). Realtime authorises channels with defaultChannelPolicy.
 */
import type { RequestHandler, Router } from 'express';
import type { AuthService } from '../../kernel/auth/auth-service';
import type { Bus } from '../../kernel/bus/bus';
import type { Clock } from '../../kernel/clock';
import type { Config } from '../../config';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import type { Drivers, Realtime } from '../../kernel/drivers';
import type { Logger } from '../../kernel/logger';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import { registerNotificationRoutes as registerListRoutes } from './notification-routes';
import { NotificationService } from './notification-service';
import { NotificationStore } from './notification-store';
import { registerDeviceRoutes } from './push/device-routes';
import { DeviceStore } from './push/device-store';
import { HttpPushAdapter } from './push/http-push-adapter';
import { PushDispatcher } from './push/push-dispatcher';
import { vapidKeysFrom } from './push/vapid';
import { WebPushAdapter } from './push/web-push-adapter';
import { registerSendOperation } from './send-operation';
import { isViewing, trackViewing } from './viewing';
import { httpsPolicy } from '../../kernel/net/outbound-policy';
import { allowsPrivateNetworks } from '../../kernel/tenancy/private-networks';

export interface NotificationsDeps {
  config: Pick<Config, 'env' | 'push'>;
  central: CentralDb;
  tenantDbs: TenantDatabases;
  tenants: TenantService;
  auth: AuthService;
  drivers: Drivers;
  bus: Bus;
  realtime: Realtime;
  clock: Clock;
  logger: Logger;
}

export interface Notifications {
  service: NotificationService;
  store: NotificationStore;
  devices: DeviceStore;
  vapidPublicKey: string | undefined;
  clock: Clock;
}

export function createNotifications(deps: NotificationsDeps): Notifications {
  const { config, drivers, clock, realtime } = deps;
  const logger = deps.logger.child({ part: 'notifications' });
  const store = new NotificationStore(deps.tenantDbs);
  const devices = new DeviceStore(deps.tenantDbs);

  const vapid = config.push.vapidPrivateKey ? vapidKeysFrom(config.push.vapidPrivateKey) : undefined;
  const push = new PushDispatcher({
    queue: drivers.queue,
    devices,
    mobile: config.push.url ? new HttpPushAdapter({ url: config.push.url, token: config.push.token }) : undefined,
    web: vapid ? new WebPushAdapter({ keys: vapid, subject: config.push.vapidSubject, now: () => clock.now(), policyFor: async (tenantId) => httpsPolicy(config.env, await allowsPrivateNetworks(deps.central, tenantId)) }) : undefined,
    viewing: (tenantId, userId, path) => isViewing(realtime, tenantId, userId, path),
    logger,
  });
  const service = new NotificationService({ ...deps, queue: drivers.queue, store, push, logger });
  registerSendOperation(deps.bus, service);
  trackViewing(realtime);
  service.start();

  return {
    service,
    store,
    devices,
    vapidPublicKey: vapid?.publicKey,
    clock,
  };
}

export function registerNotificationRoutes(api: Router, deps: { notifications: Notifications; authenticated: RequestHandler; config: Pick<Config, 'env'> }): void {
  const { notifications: n, authenticated } = deps;
  registerListRoutes(api, { store: n.store, authenticated, clock: n.clock });
  registerDeviceRoutes(api, {
    devices: n.devices,
    authenticated,
    clock: n.clock,
    endpointPolicy: httpsPolicy(deps.config.env, false),
    vapidPublicKey: n.vapidPublicKey,
  });
}
