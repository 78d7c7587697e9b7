/**
 * The platform as a list of parts (core/parts): each is declared beside its owner, names the parts
 * it needs, and the initializer starts them in dependency order and stops them in reverse, after
 * in-flight requests finish. `main.ts` and the tests both use this.
 */
import type http from 'node:http';
import type { Express } from 'express';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { startParts, type Part } from './parts';
import { givenPart, type PlatformParts } from './parts/platform-parts';
import type { DatabaseServer } from './data/database-server';
import type { CentralDb } from './data/central-db';
import type { TenantDatabases } from './data/tenant-databases';
import type { Drivers, Realtime } from './drivers';
import type { TenantService } from './tenancy/tenant-service';
import type { AuthService } from './auth/auth-service';
import type { Clock } from './clock';
import type { ModuleKernel } from './modules/kernel';
import type { Registry } from '../registry';
import type { Rings } from '../rings';
import type { Catalogs } from './catalogs';
import { centralPart, dbServerPart, tenantDbsPart } from './data/parts';
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

/** The platform's parts; startParts orders them by their deps (this order only breaks ties). */
export function platformParts(config: Config, logger: Logger, options: PlatformOptions = {}): Part<PlatformParts>[] {
  return [
    givenPart('config', config),
    givenPart('logger', logger),
    dbServerPart,
    centralPart,
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
    jobsPart,
    httpPart,
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
