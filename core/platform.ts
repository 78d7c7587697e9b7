/**
 * The platform as a list of parts (core/parts): each is declared by its ref beside its owner and
 * names the refs it needs; the initializer starts them in dependency order, and on stop drains them
 * (in-flight requests, workflow runs, queued jobs) before it stops them in reverse. `main.ts` and
 * the tests both use this.
 */
import type http from 'node:http';
import type { Express } from 'express';
import { configRef, type Config } from './config';
import { createLogger, loggerRef, withSafeUrls, type Logger } from './logger';
import { givenPart, startParts, type Part, type PartRef, type PartValues } from './parts';
import { centralPart, centralRef, dbServerPart, dbServerRef, tenantDbsPart, tenantDbsRef } from './data/parts';
import { keysPart, keysRef } from './secrets/part';
import { driversPart, driversRef } from './drivers/parts';
import { realtimePart, realtimeRef } from './realtime/part';
import { tenantsPart, tenantsRef } from './tenancy/part';
import { adminAuthPart, authPart, authRef } from './auth/part';
import { clockPart, clockRef } from './clock-part';
import { registryPart, registryRef } from '../registry/part';
import { kernelPart, kernelRef } from './modules/part';
import { ringsPart, ringsRef } from '../rings/part';
import { notificationsPart } from './notifications/part';
import { catalogsPart, catalogsRef } from './catalogs/part';
import { documentsPart } from './documents/part';
import { bulkPart } from './bulk/part';
import { accountsPart } from './accounts/part';
import { mailPart } from './mail/part';
import { httpPart, httpRef } from './http/part';
import { routesPart } from './http/routes';
import { workflowsPart, workflowsRef } from './workflows/part';
import { tenancyRoutesPart } from './tenancy/routes-part';
import { authRoutesPart } from './auth/routes-part';
import { activityPart } from './activity/part';
import { clientReleasesPart } from './client-releases/part';
import { consolePart } from './console/part';
import { graphqlPart } from './graphql/part';
import { secretRoutesPart } from './secrets/routes-part';
import { moduleRoutesPart } from './modules/routes-part';

/** The parts a running platform shows its callers (main.ts, tests), typed by their refs. */
const EXPOSED = {
  config: configRef, logger: loggerRef, dbServer: dbServerRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, drivers: driversRef, tenants: tenantsRef,
  auth: authRef, clock: clockRef, kernel: kernelRef, registry: registryRef, rings: ringsRef, catalogs: catalogsRef, realtime: realtimeRef, workflows: workflowsRef,
};

export type Platform = PartValues<typeof EXPOSED> & {
  app: Express;
  server: http.Server;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  stop(): Promise<void>;
};

export interface PlatformOptions {
  /** This process can no longer be trusted (an isolate was lost beyond recovery): drain and replace it. */
  onFatal?: (reason: string) => void;
}

/** The platform's parts; startParts orders them by their deps (this order only breaks ties). */
export function platformParts(config: Config, logger: Logger, options: PlatformOptions = {}): Part[] {
  return [
    givenPart(configRef, config),
    givenPart(loggerRef, withSafeUrls(logger)),
    dbServerPart,
    centralPart,
    keysPart,
    tenantDbsPart,
    driversPart,
    tenantsPart,
    authPart,
    adminAuthPart,
    routesPart,
    clockPart,
    registryPart,
    kernelPart(options.onFatal),
    realtimePart,
    ringsPart,
    notificationsPart,
    catalogsPart,
    documentsPart,
    bulkPart,
    accountsPart,
    mailPart,
    workflowsPart,
    tenancyRoutesPart,
    authRoutesPart,
    activityPart,
    clientReleasesPart,
    consolePart,
    graphqlPart,
    secretRoutesPart,
    moduleRoutesPart,
    httpPart,
  ];
}

export async function startPlatform(config: Config, logger: Logger = createLogger(config.logLevel), options: PlatformOptions = {}): Promise<Platform> {
  const started = await startParts(platformParts(config, logger, options));
  let stopping: Promise<void> | undefined;
  const exposed = Object.fromEntries(Object.entries(EXPOSED).map(([key, ref]: [string, PartRef<unknown>]) => [key, started.get(ref)])) as PartValues<typeof EXPOSED>;
  const { app, server, url } = started.get(httpRef);
  return { ...exposed, app, server, url, stop: () => (stopping ??= started.stop()) };
}
