/**
 * The HTTP part (core/parts): the API's routes from every part that has some, served on PORT, with
 * realtime sockets on the same server. Its drain lets in-flight requests finish before any part stops.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express, RequestHandler } from 'express';
import { rateLimit } from '../drivers';
import { resolveTenant } from '../tenancy/resolve-tenant';
import { authenticate } from '../auth/authenticate';
import { apiClientKey } from '../auth/api-client-key';
import { buildApp } from './app';
import { registerHealthRoutes } from './health-routes';
import { registerAuthRoutes } from '../auth/auth-routes';
import { registerOnboardingRoutes } from '../tenancy/onboarding-routes';
import { registerMemberRoutes } from '../tenancy/member-routes';
import { registerAccountStatusRoutes } from '../accounts/account-status-routes';
import { registerSubResellerRoutes } from '../tenancy/sub-reseller-routes';
import { registerResellerApplicationRoutes } from '../tenancy/reseller-application-routes';
import { registerActivityRoutes } from '../activity/activity-routes';
import { registerAccountRoutes } from '../accounts';
import { registerModuleAdminRoutes } from '../modules/module-admin-routes';
import { registerQuarantineRoutes } from '../modules/quarantine-routes';
import { registerFetchOriginRoutes } from '../modules/fetch-origins-routes';
import { registerProviderRoutes } from '../modules/provider-routes';
import { registerSecretRoutes } from '../secrets/secret-routes';
import { registerPrivateNetworkRoute } from '../tenancy/private-networks';
import { moduleRoutes } from '../modules/module-routes';
import { publicModuleRoutes } from '../modules/public-routes';
import { StreamSlots } from '../modules/stream-slots';
import { registerGraphqlRoutes } from '../graphql/graphql-routes';
import { PLATFORM_VERSION } from '../../sdk/manifest';
import { registerNotificationRoutes } from '../notifications';
import { registerClientReleaseRoutes } from '../client-releases';
import { accountsRef } from '../accounts/part';
import { adminAuthRef, authRef } from '../auth/part';
import { bulkRef } from '../bulk/part';
import { catalogsRef } from '../catalogs/part';
import { clockRef } from '../clock-part';
import { configRef } from '../config';
import { centralRef, dbServerRef, tenantDbsRef } from '../data/parts';
import { documentsRef } from '../documents/part';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { kernelRef } from '../modules/part';
import { notificationsRef } from '../notifications/part';
import { definePart, partRef, type PartValues } from '../parts';
import { realtimeRef } from '../realtime/part';
import { registryRef } from '../../registry/part';
import { ringsRef } from '../../rings/part';
import { keysRef } from '../secrets/part';
import { tenantsRef } from '../tenancy/part';
import { workflowsRef } from '../workflows/part';
import { consoleRoutes } from '../console/console-routes';
import { registerSeedRoute } from '../console/seed-route';

export const httpRef = partRef<Listening>('http');

const httpDeps = {
  config: configRef, logger: loggerRef, dbServer: dbServerRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, drivers: driversRef, tenants: tenantsRef, auth: authRef, adminAuth: adminAuthRef,
  clock: clockRef, kernel: kernelRef, registry: registryRef, realtime: realtimeRef, rings: ringsRef, notifications: notificationsRef, catalogs: catalogsRef, documents: documentsRef,
  bulk: bulkRef, accounts: accountsRef, workflows: workflowsRef,
};

export const httpPart = definePart({
  ref: httpRef,
  deps: httpDeps,
  init: async (d, lifecycle) => {
    const listening = await listen(d);
    // It needs every part with work to drain, so it starts after them and drains first: in-flight
    // requests finish while the workflow workers, the queue and all the requests use still run.
    lifecycle.onDrain(() => listening.close());
    return listening;
  },
});

export interface Listening {
  app: Express;
  server: http.Server;
  url: string;
  /** Stops accepting and lets in-flight requests finish (bounded by SHUTDOWN_GRACE_MS). */
  close(): Promise<void>;
}

type HttpDeps = PartValues<typeof httpDeps>;

async function listen(d: HttpDeps): Promise<Listening> {
  const { config, logger, dbServer, central, keys, tenantDbs, drivers, tenants, auth, adminAuth, clock, kernel, registry, realtime, rings, notifications, catalogs, documents, bulk, accounts, workflows } = d;
  const authenticated = authenticate(auth, tenants);
  const streams = new StreamSlots(config.moduleStreamsPerTenant);
  let selfUrl = '';
  const app = buildApp({
    logger,
    bodyLimit: config.bodyLimit,
    debugErrors: config.debugErrors,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    // The workflow webhook trigger (spec 2) is the engine's own public route; the rest belong to modules.
    publicRoutes: firstOf(workflows.webhook, publicModuleRoutes({ central, tenants, modules: kernel.modules, bus: kernel.bus, rateLimiter: drivers.rateLimiter, missRateLimit: config.publicMissRateLimit, logger, streams })),
    webConsole: consoleRoutes({ rootDomain: config.rootDomain, env: config.env, logger }),
    mountApi: (api) => {
      registerHealthRoutes(api, { central, redisHealth: async () => (await drivers.health()).redis, embeddedDb: dbServer.embedded, version: PLATFORM_VERSION });
      api.use(
        rateLimit(drivers.rateLimiter, { name: 'api', ...config.apiRateLimit, key: apiClientKey(auth) }),
      );
      api.use(resolveTenant(tenants, config.rootDomain));
      registerOnboardingRoutes(api, { central, tenants, auth, authenticated, accounts });
      registerAuthRoutes(api, { central, auth, authenticated, accounts, modules: kernel.modules });
      registerMemberRoutes(api, { central, auth, authenticated, invitations: accounts.invitations, events: kernel.events });
      registerAccountStatusRoutes(api, { central, auth, authenticated, events: kernel.events });
      registerSubResellerRoutes(api, { tenants, authenticated, rateLimiter: drivers.rateLimiter });
      registerResellerApplicationRoutes(api, { tenants, authenticated, rateLimiter: drivers.rateLimiter });
      registerAccountRoutes(api, { accounts, authenticated });
      registerNotificationRoutes(api, { notifications, authenticated, config });
      registerClientReleaseRoutes(api, { config, central, keys, cache: drivers.cache, clock, logger, authenticated });
      registerActivityRoutes(api, { tenantDbs, authenticated });
      registerModuleAdminRoutes(api, { lifecycle: rings.moduleLifecycle, authenticated });
      registerSeedRoute(api, { env: config.env, authenticated, selfUrl: () => selfUrl });
      registerFetchOriginRoutes(api, { central, authenticated, changed: kernel.fetchGrantsChanged });
      registerProviderRoutes(api, { modules: kernel.modules, providers: kernel.providers, authenticated });
      registerPrivateNetworkRoute(api, { central, tenants, authenticated, changed: kernel.fetchGrantsChanged });
      const adminAuthenticated = adminAuth.authenticated;
      registry.registerRoutes(api, adminAuthenticated);
      registerQuarantineRoutes(api, { quarantine: kernel.quarantine, adminAuthenticated });
      registerSecretRoutes(api, { store: kernel.secrets, modules: kernel.modules, audit: kernel.audit, central, keys, clock, logger, authenticated, adminAuthenticated });
      rings.registerRoutes(api, adminAuthenticated);
      registerGraphqlRoutes(api, { config, central, tenantDbs, pubsub: drivers.pubsub, kernel, clock, logger, authenticated });
      documents.registerRoutes(api, authenticated);
      catalogs.registerRoutes(api, authenticated);
      workflows.registerRoutes(api, authenticated);
      api.use(
        moduleRoutes({ modules: kernel.modules, bus: kernel.bus, authenticated, rateLimiter: drivers.rateLimiter, bulk, streams }),
      );
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
  selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    app,
    server,
    url: selfUrl,
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

/** `a`, and `b` for what `a` passes on. */
function firstOf(a: RequestHandler, b: RequestHandler): RequestHandler {
  return (req, res, next) => {
    // Either handler may be async: a rejection must reach the error handler, or the request hangs.
    const run = (h: RequestHandler, then: (err?: unknown) => void) => Promise.resolve(h(req, res, then)).catch(next);
    return run(a, (err?: unknown) => (err ? next(err) : void run(b, next)));
  };
}
