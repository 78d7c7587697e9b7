/**
 * Runs ordered schema migrations with umzug, recording what ran in a table of the same database.
 * Migration lists are explicit imports (not a glob) so the compiled and the tsx-run code agree.
 */
import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface, Sequelize } from 'sequelize';
import * as central0001 from './migrations/central/0001-initial';
import * as central0002 from './migrations/central/0002-module-installs';
import * as central0010 from './migrations/central/0010-registry';
import * as central0011 from './migrations/central/0011-rings';
import * as tenant0001 from './migrations/tenant/0001-core';
import * as tenant0002 from './migrations/tenant/0002-persisted-queries';
import * as central0003 from './migrations/central/0003-two-factor';
import * as central0004 from './migrations/central/0004-invitations';
import * as tenant0003 from './migrations/tenant/0003-login-history';
import * as central0020 from './migrations/central/0020-cli-release-channels';
import * as central0030 from './migrations/central/0030-module-public-tokens';
import * as central0031 from './migrations/central/0031-tenant-links';
import * as central0032 from './migrations/central/0032-module-secrets';
import * as central0033 from './migrations/central/0033-module-jobs';
import * as central0034 from './migrations/central/0034-fetch-origins-per-module';
import * as central0035 from './migrations/central/0035-reseller-applications';
import * as central0036 from './migrations/central/0036-public-ownership';
import * as tenant0005 from './migrations/tenant/0005-notifications';
import * as tenant0006 from './migrations/tenant/0006-push-devices';
import * as tenant0007 from './migrations/tenant/0007-workflows';
import * as tenant0008 from './migrations/tenant/0008-workflow-log-order';
import * as tenant0009 from './migrations/tenant/0009-workflow-paused-reason';
import * as tenant0010 from './migrations/tenant/0010-workflow-run-chains';
import * as tenant0011 from './migrations/tenant/0011-workflow-run-leases';
import * as tenant0012 from './migrations/tenant/0012-workflow-versions';
import * as tenant0013 from './migrations/tenant/0013-module-settings';
import * as central0037 from './migrations/central/0037-module-settings-permission';

interface MigrationModule {
  up: (p: { context: QueryInterface }) => Promise<void>;
  down: (p: { context: QueryInterface }) => Promise<void>;
}

const CENTRAL: Array<[string, MigrationModule]> = [
  ['0001-initial', central0001],
  ['0002-module-installs', central0002],
  ['0003-two-factor', central0003],
  ['0004-invitations', central0004],
  ['0010-registry', central0010],
  ['0011-rings', central0011],
  ['0020-cli-release-channels', central0020],
  ['0030-module-public-tokens', central0030],
  ['0031-tenant-links', central0031],
  ['0032-module-secrets', central0032],
  ['0033-module-jobs', central0033],
  ['0034-fetch-origins-per-module', central0034],
  ['0035-reseller-applications', central0035],
  ['0036-public-ownership', central0036],
  ['0037-module-settings-permission', central0037],
];
const TENANT: Array<[string, MigrationModule]> = [
  ['0001-core', tenant0001],
  ['0002-persisted-queries', tenant0002],
  ['0003-login-history', tenant0003],
  ['0005-notifications', tenant0005],
  ['0006-push-devices', tenant0006],
  ['0007-workflows', tenant0007],
  ['0008-workflow-log-order', tenant0008],
  ['0009-workflow-paused-reason', tenant0009],
  ['0010-workflow-run-chains', tenant0010],
  ['0011-workflow-run-leases', tenant0011],
  ['0012-workflow-versions', tenant0012],
  ['0013-module-settings', tenant0013],
];

function migrator(sequelize: Sequelize, list: Array<[string, MigrationModule]>, table: string) {
  return new Umzug({
    migrations: list.map(([name, m]) => ({ name, up: m.up, down: m.down })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: table }),
    logger: undefined,
  });
}

// Two nodes booting at once must not run the same migration twice: serialise on an advisory lock.
async function locked(sequelize: Sequelize, key: number, fn: () => Promise<unknown>): Promise<void> {
  const t = await sequelize.transaction();
  try {
    await sequelize.query('SELECT pg_advisory_xact_lock($1)', { bind: [key], transaction: t });
    await fn();
    await t.commit();
  } catch (err) {
    await t.rollback();
    throw err;
  }
}

export async function migrateCentral(sequelize: Sequelize): Promise<void> {
  await locked(sequelize, 727001, () => migrator(sequelize, CENTRAL, 'schema_migrations').up());
}

export async function migrateTenant(sequelize: Sequelize): Promise<void> {
  await locked(sequelize, 727002, () => migrator(sequelize, TENANT, 'core_schema_migrations').up());
}
