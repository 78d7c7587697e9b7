/** The central database: created if missing, migrated, and its models bound. */
import { Sequelize } from 'sequelize';
import type { Logger } from '../logger';
import { defineCentralModels, type CentralModels } from './central-models';
import { migrateCentral } from './migrator';
import { databaseUrl, ensureDatabase } from './pg-admin';

export interface CentralDb {
  sequelize: Sequelize;
  models: CentralModels;
  close(): Promise<void>;
}

export async function openCentralDb(serverUrl: string, dbName: string, logger: Logger, poolMax = 10): Promise<CentralDb> {
  if (await ensureDatabase(serverUrl, dbName)) logger.info({ db: dbName }, 'created central database');
  const sequelize = new Sequelize(databaseUrl(serverUrl, dbName), {
    dialect: 'postgres',
    logging: false,
    pool: { max: poolMax, min: 0, idle: 10_000 },
  });
  const models = defineCentralModels(sequelize);
  await migrateCentral(sequelize);
  return { sequelize, models, close: () => sequelize.close() };
}
