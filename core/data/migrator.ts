/**
 * Runs ordered schema migrations with umzug, recording what ran in a table of the same database.
 * Migration lists are explicit imports (not a glob) so the compiled and the tsx-run code agree.
 */
import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface, Sequelize } from 'sequelize';
import * as central0001 from './migrations/central/0001-initial';
import * as central0002 from './migrations/central/0002-module-installs';
import * as tenant0001 from './migrations/tenant/0001-core';

interface MigrationModule {
  up: (p: { context: QueryInterface }) => Promise<void>;
  down: (p: { context: QueryInterface }) => Promise<void>;
}

const CENTRAL: Array<[string, MigrationModule]> = [
  ['0001-initial', central0001],
  ['0002-module-installs', central0002],
];
const TENANT: Array<[string, MigrationModule]> = [['0001-core', tenant0001]];

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
