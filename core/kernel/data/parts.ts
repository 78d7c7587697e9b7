/** The data parts (core/kernel/parts): the database server, the central database and the tenant pools. */
import { configRef } from '../../config';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { openCentralDb, type CentralDb } from './central-db';
import { openDatabaseServer, type DatabaseServer } from './database-server';
import { TenantDatabases } from './tenant-databases';

export const dbServerRef = partRef<DatabaseServer>('dbServer');
export const centralRef = partRef<CentralDb>('central');
export const tenantDbsRef = partRef<TenantDatabases>('tenantDbs');

export const dbServerPart = definePart({
  ref: dbServerRef,
  deps: { config: configRef, logger: loggerRef },
  init: ({ config, logger }) => openDatabaseServer(config, logger),
  stop: (s) => s.stop(),
});

export const centralPart = definePart({
  ref: centralRef,
  deps: { dbServer: dbServerRef, logger: loggerRef },
  init: ({ dbServer, logger }) => openCentralDb(dbServer.serverUrl, dbServer.centralDbName, logger),
  stop: (central) => central.close(),
});

export const tenantDbsPart = definePart({
  ref: tenantDbsRef,
  deps: { dbServer: dbServerRef, config: configRef, logger: loggerRef },
  init: ({ dbServer, config, logger }) =>
    new TenantDatabases({ serverUrl: dbServer.serverUrl, maxTotal: config.tenantPoolMaxTotal, maxPerTenant: config.tenantPoolMax, idleMs: config.tenantPoolIdleMs, logger }),
  stop: (tenantDbs) => tenantDbs.close(),
});
