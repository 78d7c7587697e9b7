/** The data parts (core/parts): the database server, the central database and the tenant pools. */
import { platformPart } from '../parts/platform-parts';
import { openCentralDb } from './central-db';
import { openDatabaseServer } from './database-server';
import { TenantDatabases } from './tenant-databases';

export const dbServerPart = platformPart({ id: 'dbServer', deps: ['config', 'logger'], init: (d) => openDatabaseServer(d.config, d.logger), stop: (s) => s.stop() });

export const centralPart = platformPart({
  id: 'central',
  deps: ['dbServer', 'logger'],
  init: (d) => openCentralDb(d.dbServer.serverUrl, d.dbServer.centralDbName, d.logger),
  stop: (central) => central.close(),
});

export const tenantDbsPart = platformPart({
  id: 'tenantDbs',
  deps: ['dbServer', 'config', 'logger'],
  init: ({ dbServer, config, logger }) =>
    new TenantDatabases({ serverUrl: dbServer.serverUrl, maxTotal: config.tenantPoolMaxTotal, maxPerTenant: config.tenantPoolMax, idleMs: config.tenantPoolIdleMs, logger }),
  stop: (tenantDbs) => tenantDbs.close(),
});
