/**
 * The platform as a list of parts (core/kernel/parts): each is declared by its ref beside its owner and
 * names the refs it needs; the initializer starts them in dependency order, and on stop drains them
 * (in-flight requests, workflow runs, queued jobs) before it stops them in reverse. `main.ts` and
 * the tests both use this.
 */
import type http from 'node:http';
import type { Express } from 'express';
import { configRef, type Config } from './config';
import { createLogger, loggerRef, withSafeUrls, type Logger } from './kernel/logger';
import { givenPart, startParts, type Part, type PartRef, type PartValues } from './kernel/parts';
import { centralPart, centralRef, dbServerPart, dbServerRef, tenantDbsPart, tenantDbsRef } from './kernel/data/parts';
import { keysPart, keysRef } from './kernel/secrets/part';
import { driversPart, driversRef } from './kernel/drivers/parts';
import { realtimePart, realtimeRef } from './kernel/realtime/part';
import { tenantsPart, tenantsRef } from './kernel/tenancy/part';
import { adminAuthPart, authPart, authRef } from './kernel/auth/part';
import { clockPart, clockRef } from './kernel/clock-part';
import { registryPart, registryRef } from '../registry/part';
import { kernelPart, kernelRef } from './kernel/modules/part';
import { ringsPart, ringsRef } from '../rings/part';
import { notificationsPart } from './services/notifications/part';
import { catalogsPart, catalogsRef } from './services/contributions/part';
import { documentsPart } from './services/documents/part';
import { bulkPart } from './services/bulk/part';
import { accountsPart } from './services/accounts/part';
import { mailPart } from './services/mail/part';
import { webhooksPart } from './services/webhooks/part';
import { httpPart, httpRef } from './kernel/http/part';
import { routesPart } from './kernel/http/routes';
import { workflowsPart, workflowsRef } from './services/workflows/part';
import { tenancyRoutesPart } from './kernel/tenancy/routes-part';
import { activityPart } from './services/activity/part';
import { clientReleasesPart } from './services/client-releases/part';
import { consolePart } from './console/part';
import { graphqlPart } from './services/graphql/part';
import { secretRoutesPart } from './kernel/secrets/routes-part';
import { moduleSettingsPart } from './kernel/module-settings/part';
import { moduleRoutesPart } from './kernel/modules/routes-part';
import { fileTransfersPart } from './kernel/modules/file-transfers';

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
    webhooksPart,
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
    activityPart,
    clientReleasesPart,
    consolePart,
    graphqlPart,
    secretRoutesPart,
    moduleSettingsPart,
    fileTransfersPart,
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
