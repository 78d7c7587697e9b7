/**
 * The HTTP part (core/kernel/parts): the server on PORT, with realtime sockets on the same server, serving
 * the route groups every part added to the routes part (core/kernel/http/routes.ts), mounted in their
 * documented order. Its own are the health probe and the API's rate limit and tenant resolution.
 * Its drain lets in-flight requests finish before any part stops.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { rateLimit } from '../drivers';
import { resolveTenant } from '../tenancy/resolve-tenant';
import { apiClientKey } from '../auth/api-client-key';
import { buildApp } from './app';
import { registerHealthRoutes } from './health-routes';
import { routesRef } from './routes';
import { PLATFORM_VERSION } from '../../../sdk/manifest';
import { authRef } from '../auth/part';
import { configRef } from '../../config';
import { centralRef, dbServerRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { definePart, partRef, type PartValues } from '../parts';
import { realtimeRef } from '../realtime/part';
import { tenantsRef } from '../tenancy/part';

export const httpRef = partRef<Listening>('http');

const httpDeps = {
  config: configRef, logger: loggerRef, routes: routesRef, realtime: realtimeRef, dbServer: dbServerRef, central: centralRef, drivers: driversRef, auth: authRef, tenants: tenantsRef,
};

export const httpPart = definePart({
  ref: httpRef,
  deps: httpDeps,
  // It starts after every part that adds routes, so it mounts them all. Every part with work to
  // drain adds routes or is needed by one that does, so it drains first: in-flight requests finish
  // while the workflow workers, the queue and all the requests use still run (platform-parts.test.ts).
  collects: routesRef,
  init: async (d, lifecycle) => {
    const listening = await listen(d);
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
  const { config, logger, routes, realtime, dbServer, central, drivers, auth, tenants } = d;
  routes.add({
    name: 'health',
    mount: (api) => registerHealthRoutes(api, { central, redisHealth: async () => (await drivers.health()).redis, embeddedDb: dbServer.embedded, version: PLATFORM_VERSION }),
  });
  routes.add({
    name: 'api-guards',
    mount: (api) => {
      api.use(rateLimit(drivers.rateLimiter, { name: 'api', ...config.apiRateLimit, key: apiClientKey(auth) }));
      api.use(resolveTenant(tenants, config.rootDomain));
    },
  });
  const app = buildApp({
    logger,
    bodyLimit: config.bodyLimit,
    debugErrors: config.debugErrors,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    mountApi: (api) => routes.mount('api', api),
    mountPublic: (router) => routes.mount('public', router),
    mountSite: (site) => routes.mount('site', site),
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
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  routes.listeningAt(url);
  return {
    app,
    server,
    url,
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
