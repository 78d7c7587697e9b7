/**
 * The platform's parts as a typed map (id to value), and the `platformPart` each owner declares its
 * part with, beside its own factory (core/data/parts.ts, core/auth/part.ts, ...). core/platform.ts is
 * the list of them.
 */
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { DatabaseServer } from '../data/database-server';
import type { CentralDb } from '../data/central-db';
import type { TenantDatabases } from '../data/tenant-databases';
import type { Drivers, Realtime } from '../drivers';
import type { TenantService } from '../tenancy/tenant-service';
import type { AuthService } from '../auth/auth-service';
import type { Clock } from '../clock';
import type { Registry } from '../../registry';
import type { ModuleKernel } from '../modules/kernel';
import type { Rings } from '../../rings';
import type { Notifications } from '../notifications';
import type { Catalogs } from '../catalogs';
import type { Documents } from '../documents/documents';
import type { Bulk } from '../bulk';
import type { Accounts } from '../accounts';
import type { AppKeys } from '../accounts/app-key';
import type { Listening } from '../http/part';
import type { WorkflowPart } from '../workflows';
import { partsOf } from './index';

/** What each part of the platform gives the parts that name it. */
export interface PlatformParts {
  config: Config;
  logger: Logger;
  dbServer: DatabaseServer;
  central: CentralDb;
  /** The platform key ring (core/secrets/key-source.ts). */
  keys: AppKeys;
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
  workflows: WorkflowPart;
  jobs: { drain(): Promise<void> };
  http: Listening;
}

export const { part: platformPart } = partsOf<PlatformParts>();

/** A part whose value the platform is given ready-made (the config and the logger). */
export const givenPart = <Id extends keyof PlatformParts & string>(id: Id, value: PlatformParts[Id]) => platformPart({ id, deps: [], init: () => value });
