/**
 * The platform as a list of parts (core/parts): each names the parts it needs, the initializer
 * starts them in dependency order and stops them in reverse, after in-flight requests finish.
 * `main.ts` and the tests both use this.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { partsOf, startParts, type Part } from './parts';
import { openDatabaseServer, type DatabaseServer } from './data/database-server';
import { openCentralDb, type CentralDb } from './data/central-db';
import { TenantDatabases } from './data/tenant-databases';
import { createDrivers, createRealtime, rateLimit, type Drivers, type Realtime } from './drivers';
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
import { createAccounts, registerAccountRoutes, type Accounts } from './accounts';
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
import { createDocuments, type Documents } from './documents/documents';
import { registerGraphqlRoutes } from './graphql/graphql-routes';
import { PLATFORM_VERSION } from '../sdk/manifest';
import { createNotifications, registerNotificationRoutes, type Notifications } from './notifications';
import { defaultChannelPolicy } from './notifications/channel-policy';
import { registerClientReleaseRoutes } from './client-releases';
import { createCatalogs, type Catalogs } from './catalogs';
import { createBulk, type Bulk } from './bulk';
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

/** What each part of the platform gives the parts that name it (core/parts). */
export interface PlatformParts {
  config: Config;
  logger: Logger;
  dbServer: DatabaseServer;
  central: CentralDb;
  tenantDbs: TenantDatabases;
  drivers: Drivers;
  tenants: TenantService;
  auth: AuthService;
  clock: Clock;
  registry: Registry;
  kernel: ModuleKernel;
  realtime: Realtime;
  rings: Rings;
  notifications: Notifications;
  catalogs: Catalogs;
  documents: Documents;
  bulk: Bulk;
  accounts: Accounts;
  mail: void;
  jobs: { drain(): Promise<void> };
  http: Listening;
}

const { part } = partsOf<PlatformParts>();

/** The platform's parts; startParts orders them by their deps (this order only breaks ties). */
export function platformParts(config: Config, logger: Logger, options: PlatformOptions = {}): Part<PlatformParts>[] {
  return [
    part({ id: 'config', deps: [], init: () => config }),
    part({ id: 'logger', deps: [], init: () => logger }),
    part({ id: 'dbServer', deps: ['config', 'logger'], init: (d) => openDatabaseServer(d.config, d.logger), stop: (s) => s.stop() }),
    part({
      id: 'central',
      deps: ['dbServer', 'logger'],
      init: (d) => openCentralDb(d.dbServer.serverUrl, d.dbServer.centralDbName, d.logger),
      stop: (central) => central.close(),
    }),
    part({
      id: 'tenantDbs',
      deps: ['dbServer', 'config', 'logger'],
      init: ({ dbServer, config, logger }) =>
        new TenantDatabases({ serverUrl: dbServer.serverUrl, maxTotal: config.tenantPoolMaxTotal, maxPerTenant: config.tenantPoolMax, idleMs: config.tenantPoolIdleMs, logger }),
      stop: (tenantDbs) => tenantDbs.close(),
    }),
    part({
      id: 'drivers',
      deps: ['config', 'logger'],
      init: ({ config, logger }) =>
        createDrivers({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger, queue: { lockMs: config.queueLockMs, stalledCheckMs: config.queueStalledCheckMs } }),
      // Already closed by `jobs` on a full stop; this covers a start that failed before it.
      stop: (drivers) => drivers.close(),
    }),
    part({
      id: 'tenants',
      deps: ['central', 'tenantDbs', 'drivers'],
      init: async ({ central, tenantDbs, drivers }) => {
        const tenants = new TenantService(central, tenantDbs, drivers.pubsub);
        await tenants.start();
        return tenants;
      },
    }),
    part({
      id: 'auth',
      deps: ['central', 'config', 'drivers'],
      init: async ({ central, config, drivers }) => {
        const auth = new AuthService(central, config.tokenTtlSeconds, (change) => void drivers.pubsub.publish(AUTH_CHANNEL, change));
        await drivers.pubsub.subscribe(AUTH_CHANNEL, (change) => auth.dropCached(change as Invalidation));
        return auth;
      },
    }),
    part({ id: 'clock', deps: [], init: () => new Clock() }),
    part({
      id: 'registry',
      deps: ['central', 'config', 'logger'],
      init: ({ central, config, logger }) => createRegistry({ sequelize: central.sequelize, dataDir: config.dataDir, logger, maxMemoryMb: config.sandboxMaxMemoryMb }),
    }),
    part({
      id: 'kernel',
      deps: ['config', 'central', 'tenantDbs', 'drivers', 'logger', 'clock', 'registry'],
      init: async ({ registry, ...deps }) => {
        const kernel = await createModuleKernel({
          ...deps,
          registry: registry.source,
          onIsolateLost: (key) => options.onFatal?.(`the isolate of module ${key} was lost beyond recovery`),
        });
        for (const dir of deps.config.modulePaths) kernel.source.add(await loadModuleFromDir(dir));
        return kernel;
      },
      stop: (kernel) => kernel.close(),
    }),
    part({
      id: 'realtime',
      deps: ['config', 'logger', 'drivers', 'auth', 'tenants'],
      init: async ({ config, logger, drivers, auth, tenants }) => {
        const realtime = createRealtime(drivers, async (handshake) => {
          const { token, tenant } = (handshake.auth ?? {}) as { token?: unknown; tenant?: unknown };
          if (typeof token !== 'string' || typeof tenant !== 'string') return null;
          const [principal, ref] = await Promise.all([auth.authenticate(token), tenants.resolve(tenant)]);
          if (!principal || !ref || principal.tenantId !== ref.id) return null;
          const membership = await auth.membership(ref.id, principal.user.id);
          if (membership?.status !== 'active' && !principal.user.isSuperAdmin) return null;
          return { userId: principal.user.id, tenantId: ref.id };
        }, {
          authorize: defaultChannelPolicy(auth).authorize,
          // The socket's long-polling transport is plain HTTP: the same origins as the API (websocket is not bound by CORS).
          server: config.corsOrigins ? { cors: { origin: config.corsOrigins, credentials: false } } : {},
        });
        // Broadcasts from other nodes reach this one only once the Redis adapter has subscribed.
        await withTimeout(realtime.ready(), 5_000, () => logger.warn('realtime adapter not ready after 5 s; continuing'));
        return realtime;
      },
      stop: (realtime) => realtime.close(),
    }),
    part({
      id: 'rings',
      deps: ['central', 'kernel', 'registry', 'drivers', 'tenants', 'realtime', 'logger'],
      init: ({ realtime, ...deps }) => createRings({ ...deps, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload) }),
      stop: (rings) => rings.stop(),
    }),
    part({
      id: 'notifications',
      deps: ['config', 'central', 'tenantDbs', 'tenants', 'auth', 'drivers', 'kernel', 'realtime', 'clock', 'logger'],
      init: ({ kernel, ...deps }) => createNotifications({ ...deps, bus: kernel.bus }),
    }),
    part({
      id: 'catalogs',
      deps: ['rings', 'kernel', 'drivers', 'config', 'logger'],
      init: ({ rings, kernel, drivers, config, logger }) =>
        createCatalogs({
          releases: rings.service,
          modules: kernel.modules,
          isDevelopment: (alias) => kernel.source.isLocal(alias),
          bus: kernel.bus,
          cache: drivers.cache,
          rateLimiter: drivers.rateLimiter,
          workflowRateLimit: config.workflowRateLimit,
          screenDefinitionTtlSeconds: config.screenDefinitionTtlSeconds,
          logger,
        }),
    }),
    part({
      id: 'documents',
      deps: ['config', 'kernel'],
      init: ({ config, kernel }) => {
        const documents = createDocuments({ dataDir: config.dataDir, appUrl: config.appUrl });
        documents.registerOperations(kernel.bus);
        return documents;
      },
    }),
    part({
      id: 'bulk',
      deps: ['config', 'kernel', 'drivers', 'realtime', 'logger'],
      init: ({ config, kernel, drivers, realtime, logger }) =>
        createBulk({ dataDir: config.dataDir, bus: kernel.bus, queue: drivers.queue, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload), logger }),
      stop: (bulk) => bulk.stop(),
    }),
    part({
      id: 'accounts',
      deps: ['config', 'logger', 'central', 'tenantDbs', 'tenants', 'auth', 'drivers', 'clock'],
      init: (deps) => createAccounts(deps),
    }),
    // The accounts part owns the one mailer (its queue worker); modules reach it as mail.send.
    part({ id: 'mail', deps: ['accounts', 'kernel'], init: ({ accounts, kernel }) => registerMailSendOperation(kernel.bus, accounts.mailer) }),
    part({
      id: 'jobs',
      // Every part that handles queued jobs: this node's running jobs finish before any of them stops.
      deps: ['drivers', 'kernel', 'rings', 'notifications', 'bulk', 'accounts'],
      init: ({ drivers }) => ({ drain: () => drivers.close() }),
      stop: (jobs) => jobs.drain(),
    }),
    part({
      id: 'http',
      // `jobs`: requests queue jobs, so the queue stops only after the last request.
      deps: ['config', 'logger', 'dbServer', 'central', 'tenantDbs', 'drivers', 'tenants', 'auth', 'clock', 'kernel', 'registry', 'realtime', 'rings', 'notifications', 'catalogs', 'documents', 'bulk', 'accounts', 'jobs'],
      init: (d) => listen(d),
      stop: (listening) => listening.close(),
    }),
  ];
}

export async function startPlatform(config: Config, logger: Logger = createLogger(config.logLevel), options: PlatformOptions = {}): Promise<Platform> {
  const started = await startParts(platformParts(config, logger, options));
  const { values } = started;
  let stopping: Promise<void> | undefined;
  return {
    config, logger,
    dbServer: values.dbServer, central: values.central, tenantDbs: values.tenantDbs, drivers: values.drivers, tenants: values.tenants,
    auth: values.auth, clock: values.clock, kernel: values.kernel, registry: values.registry, rings: values.rings, catalogs: values.catalogs,
    app: values.http.app, server: values.http.server, realtime: values.realtime, url: values.http.url,
    stop: () => (stopping ??= started.stop()),
  };
}

interface Listening {
  app: Express;
  server: http.Server;
  url: string;
  /** Stops accepting and lets in-flight requests finish (bounded by SHUTDOWN_GRACE_MS). */
  close(): Promise<void>;
}

type HttpDeps = Omit<PlatformParts, 'mail' | 'http'>;

async function listen(d: HttpDeps): Promise<Listening> {
  const { config, logger, dbServer, central, tenantDbs, drivers, tenants, auth, clock, kernel, registry, realtime, rings, notifications, catalogs, documents, bulk, accounts } = d;
  const authenticated = authenticate(auth, tenants);
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
  realtime.serve(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    app,
    server,
    url: `http://${host}:${address.port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      // Sockets are connections server.close() waits for: they go first (the realtime part's own stop is then a no-op).
      await realtime.close();
      await closed;
      clearTimeout(grace);
    },
  };
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
