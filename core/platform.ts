/**
 * The platform's lifecycle in one place: open the database server, the central database, the
 * tenant pools and the drivers; build the HTTP app; listen; and on stop, shut everything down in
 * reverse order after in-flight requests finish. `main.ts` and the tests both use this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { openDatabaseServer, type DatabaseServer } from './data/database-server';
import { openCentralDb, type CentralDb } from './data/central-db';
import { TenantDatabases } from './data/tenant-databases';
import { attachRealtime, createDrivers, rateLimit, type Drivers, type Realtime } from './drivers';
import { TenantService } from './tenancy/tenant-service';
import { resolveTenant } from './tenancy/resolve-tenant';
import { AuthService, type Invalidation } from './auth/auth-service';
import { authenticate } from './auth/authenticate';
import { apiClientKey } from './auth/api-client-key';
import { buildApp } from './http/app';
import { registerHealthRoutes } from './http/health-routes';
import { registerAuthRoutes } from './auth/auth-routes';
import { registerOnboardingRoutes } from './tenancy/onboarding-routes';
import { registerMemberRoutes } from './tenancy/member-routes';
import { registerActivityRoutes } from './activity/activity-routes';
import { createAccounts, registerAccountRoutes } from './accounts';
import type { Express } from 'express';
import { Clock } from './clock';
import { createModuleKernel, type ModuleKernel } from './modules/kernel';
import { loadModuleFromDir } from './modules/loaded-module';
import { registerModuleAdminRoutes } from './modules/module-admin-routes';
import { registerQuarantineRoutes } from './modules/quarantine-routes';
import { registerFetchOriginRoutes } from './modules/fetch-origins-routes';
import { registerPrivateNetworkRoute } from './tenancy/private-networks';
import { adminAuthenticate, createRegistry, type Registry } from '../registry';
import { createRings, type Rings } from '../rings';
import { moduleRoutes } from './modules/module-routes';
import { createDocuments } from './documents/documents';
import { registerGraphqlRoutes } from './graphql/graphql-routes';
import { PLATFORM_VERSION } from '../sdk/manifest';
import { createNotifications, registerNotificationRoutes } from './notifications';
import { registerClientReleaseRoutes } from './client-releases';
import { createCatalogs, type Catalogs } from './catalogs';
import { createBulk } from './bulk';
import { registerMailSendOperation } from './mail/send-operation';


const AUTH_CHANNEL = 'mandi:auth:invalidate';

export interface Platform {
  config: Config;
  logger: Logger;
  dbServer: DatabaseServer;
  central: CentralDb;
  tenantDbs: TenantDatabases;
  drivers: Drivers;
  tenants: TenantService;
  auth: AuthService;
  clock: Clock;
  kernel: ModuleKernel;
  registry: Registry;
  rings: Rings;
  catalogs: Catalogs;
  app: Express;
  server: http.Server;
  realtime: Realtime;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  stop(): Promise<void>;
}

export interface PlatformOptions {
  /** This process can no longer be trusted (an isolate was lost beyond recovery): drain and replace it. */
  onFatal?: (reason: string) => void;
}

export async function startPlatform(config: Config, logger: Logger = createLogger(config.logLevel), options: PlatformOptions = {}): Promise<Platform> {
  const dbServer = await openDatabaseServer(config, logger);
  try {
    return await assemble(config, logger, dbServer, options);
  } catch (err) {
    // A failed start (port taken, a bad MODULE_PATHS folder, ...) must not leave the embedded PostgreSQL running.
    await dbServer.stop().catch(() => undefined);
    throw err;
  }
}

async function assemble(config: Config, logger: Logger, dbServer: DatabaseServer, options: PlatformOptions): Promise<Platform> {
  const central = await openCentralDb(dbServer.serverUrl, dbServer.centralDbName, logger);
  const tenantDbs = new TenantDatabases({
    serverUrl: dbServer.serverUrl,
    maxTotal: config.tenantPoolMaxTotal,
    maxPerTenant: config.tenantPoolMax,
    idleMs: config.tenantPoolIdleMs,
    logger,
  });
  const drivers = createDrivers({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger, queue: { lockMs: config.queueLockMs, stalledCheckMs: config.queueStalledCheckMs } });
  const tenants = new TenantService(central, tenantDbs, drivers.pubsub);
  await tenants.start();
  const auth = new AuthService(central, config.tokenTtlSeconds, (change) => void drivers.pubsub.publish(AUTH_CHANNEL, change));
  await drivers.pubsub.subscribe(AUTH_CHANNEL, (change) => auth.dropCached(change as Invalidation));

  const clock = new Clock();
  const kernel = await createModuleKernel({
    config, central, tenantDbs, drivers, logger, clock,
    onIsolateLost: (key) => options.onFatal?.(`the isolate of module ${key} was lost beyond recovery`),
  });
  for (const dir of config.modulePaths) kernel.source.add(await loadModuleFromDir(dir));
  const registry = createRegistry({ sequelize: central.sequelize, dataDir: config.dataDir, logger, maxMemoryMb: config.sandboxMaxMemoryMb });
  kernel.source.attachRegistry(registry.source);
  const rings = await createRings({ central, kernel, registry, drivers, tenants, logger });
  const notifications = createNotifications({ config, central, tenantDbs, tenants, auth, drivers, bus: kernel.bus, clock, logger });
  const catalogs = await createCatalogs({
    releases: rings.service,
    modules: kernel.modules,
    isDevelopment: (alias) => kernel.source.isLocal(alias),
    bus: kernel.bus,
    cache: drivers.cache,
    rateLimiter: drivers.rateLimiter,
    workflowRateLimit: config.workflowRateLimit,
    screenDefinitionTtlSeconds: config.screenDefinitionTtlSeconds,
    logger,
  });

  const authenticated = authenticate(auth, tenants);
  const documents = createDocuments({ dataDir: config.dataDir, appUrl: config.appUrl });
  const bulk = createBulk({ dataDir: config.dataDir, bus: kernel.bus, queue: drivers.queue, logger });
  documents.registerOperations(kernel.bus);
  const app = buildApp({
    logger,
    bodyLimit: config.bodyLimit,
    debugErrors: config.debugErrors,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    mountApi: (api) => {
      registerHealthRoutes(api, { central, redisHealth: async () => (await drivers.health()).redis, embeddedDb: dbServer.embedded, version: PLATFORM_VERSION });
      api.use(
        rateLimit(drivers.rateLimiter, { name: 'api', ...config.apiRateLimit, key: apiClientKey(auth) }),
      );
      api.use(resolveTenant(tenants, config.rootDomain));
      const accounts = createAccounts({ config, logger, central, tenantDbs, tenants, auth, drivers, clock });
      // The accounts part owns the one mailer (its queue worker); modules reach it as mail.send.
      registerMailSendOperation(kernel.bus, accounts.mailer);
      registerOnboardingRoutes(api, { central, tenants, auth, authenticated, accounts });
      registerAuthRoutes(api, { central, auth, authenticated, accounts });
      registerMemberRoutes(api, { central, auth, authenticated, invitations: accounts.invitations });
      registerAccountRoutes(api, { accounts, authenticated });
      registerNotificationRoutes(api, { notifications, authenticated, config });
      registerClientReleaseRoutes(api, { config, central, cache: drivers.cache, clock, logger, authenticated });
      registerActivityRoutes(api, { tenantDbs, authenticated });
      registerModuleAdminRoutes(api, { lifecycle: rings.moduleLifecycle, authenticated });
      registerFetchOriginRoutes(api, { central, authenticated });
      registerPrivateNetworkRoute(api, { central, tenants, authenticated });
      const adminAuthenticated = adminAuthenticate({ auth, publishers: registry.publishers });
      registry.registerRoutes(api, adminAuthenticated);
      registerQuarantineRoutes(api, { quarantine: kernel.quarantine, adminAuthenticated });
      rings.registerRoutes(api, adminAuthenticated);
      registerGraphqlRoutes(api, { config, central, tenantDbs, pubsub: drivers.pubsub, kernel, clock, logger, authenticated });
      documents.registerRoutes(api, authenticated);
      catalogs.registerRoutes(api, authenticated);
      api.use(moduleRoutes({ modules: kernel.modules, bus: kernel.bus, authenticated, rateLimiter: drivers.rateLimiter, bulk }));
    },
  });

  const server = http.createServer(app);
  // Keep-alive sockets must not outlive a shutdown: close idle ones promptly.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const realtime = attachRealtime(server, drivers, async (handshake) => {
    const { token, tenant } = (handshake.auth ?? {}) as { token?: unknown; tenant?: unknown };
    if (typeof token !== 'string' || typeof tenant !== 'string') return null;
    const [principal, ref] = await Promise.all([auth.authenticate(token), tenants.resolve(tenant)]);
    if (!principal || !ref || principal.tenantId !== ref.id) return null;
    const membership = await auth.membership(ref.id, principal.user.id);
    if (membership?.status !== 'active' && !principal.user.isSuperAdmin) return null;
    return { userId: principal.user.id, tenantId: ref.id };
  }, {
    authorize: notifications.channels.authorize,
    // The socket's long-polling transport is plain HTTP: the same origins as the API (websocket is not bound by CORS).
    server: config.corsOrigins ? { cors: { origin: config.corsOrigins, credentials: false } } : {},
  });
  notifications.attachRealtime(realtime);
  rings.setBroadcast((tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload));
  bulk.setBroadcast((tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload));
  // Broadcasts from other nodes reach this one only once the Redis adapter has subscribed.
  await withTimeout(realtime.ready(), 5_000, () => logger.warn('realtime adapter not ready after 5 s; continuing'));
  const address = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${address.port}`;

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop accepting, let in-flight requests finish (bounded), then close what they used.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      await realtime.close();
      bulk.stop();
      await closed;
      clearTimeout(grace);
      await drivers.close();
      rings.stop();
      await kernel.close();
      await tenantDbs.close();
      await central.close();
      await dbServer.stop();
    })());

  return { config, logger, dbServer, central, tenantDbs, drivers, tenants, auth, clock, kernel, registry, rings, catalogs, app, server, realtime, url, stop };
}

async function withTimeout(p: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      onTimeout();
      resolve();
    }, ms);
  });
  await Promise.race([p.then(() => undefined), timeout]);
  clearTimeout(timer);
}
