/**
 * The platform as a list of parts (core/parts): each is declared beside its owner, names the parts
 * it needs, and the initializer starts them in dependency order and stops them in reverse, after
 * in-flight requests finish. `main.ts` and the tests both use this.
 */
import type http from 'node:http';
import type { Express } from 'express';
import type { Config } from './config';
import { createLogger, withSafeUrls, type Logger } from './logger';
import { startParts, type Part } from './parts';
import { givenPart, type PlatformParts } from './parts/platform-parts';
import { centralPart, dbServerPart, tenantDbsPart } from './data/parts';
import { keysPart } from './secrets/part';
import { driversPart, jobsPart, realtimePart } from './drivers/parts';
import { tenantsPart } from './tenancy/part';
import { authPart } from './auth/part';
import { clockPart } from './clock-part';
import { registryPart } from '../registry/part';
import { kernelPart } from './modules/part';
import { ringsPart } from '../rings/part';
import { notificationsPart } from './notifications/part';
import { catalogsPart } from './catalogs/part';
import { documentsPart } from './documents/part';
import { bulkPart } from './bulk/part';
import { accountsPart } from './accounts/part';
import { mailPart } from './mail/part';
import { httpPart } from './http/part';
import { workflowsPart } from './workflows/part';

/** The parts a running platform shows its callers (main.ts, tests), typed by the parts themselves. */
const EXPOSED = ['config', 'logger', 'dbServer', 'central', 'keys', 'tenantDbs', 'drivers', 'tenants', 'auth', 'clock', 'kernel', 'registry', 'rings', 'catalogs', 'realtime', 'workflows'] as const;

export type Platform = Pick<PlatformParts, (typeof EXPOSED)[number]> & {
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
export function platformParts(config: Config, logger: Logger, options: PlatformOptions = {}): Part<PlatformParts>[] {
  return [
    givenPart('config', config),
    givenPart('logger', withSafeUrls(logger)),
    dbServerPart,
    centralPart,
    keysPart,
    tenantDbsPart,
    driversPart,
    tenantsPart,
    authPart,
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
    jobsPart,
    httpPart,
  ];
}

export async function startPlatform(config: Config, logger: Logger = createLogger(config.logLevel), options: PlatformOptions = {}): Promise<Platform> {
  const started = await startParts(platformParts(config, logger, options));
  const { values } = started;
  let stopping: Promise<void> | undefined;
  const exposed = Object.fromEntries(EXPOSED.map((id) => [id, values[id]])) as Pick<PlatformParts, (typeof EXPOSED)[number]>;
  return { ...exposed, app: values.http.app, server: values.http.server, url: values.http.url, stop: () => (stopping ??= started.stop()) };
}
