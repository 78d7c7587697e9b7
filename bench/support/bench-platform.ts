/**
 * A platform for benchmarks that measure it in this process: a fresh central database on the bench
 * PostgreSQL server, a temporary data directory, production mode; when the run ends, successful or
 * not, the platform is stopped and the central database, every tenant database the run made and the
 * data directory are removed (a benchmark must leave the shared server as it found it).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../../core/config';
import { databaseUrl, dropDatabase } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { startPlatform, type Platform } from '../../core/platform';
import { openBenchPostgres, type BenchPostgres } from './postgres-server';

export interface BenchPlatform {
  platform: Platform;
  config: Config;
  pg: BenchPostgres;
  dataDir: string;
  /** Registers a tenant the run created, so its database is dropped at the end; returns the id. */
  track(tenantId: string): string;
  /** Which PostgreSQL and drivers the run used, for a report's notes. */
  setup: string;
}

export interface BenchPlatformOptions {
  /** Short name (letters, digits, underscores) in the database and directory names. */
  name: string;
  log(message: string): void;
  /** Settings over the common ones (LOG_LEVEL defaults to warn), e.g. rate limits. */
  env?: Record<string, string>;
}

export async function withBenchPlatform<T>(opts: BenchPlatformOptions, run: (bench: BenchPlatform) => Promise<T>): Promise<T> {
  const pg = await openBenchPostgres(opts.log);
  const central = `mandi_bench_${opts.name}_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `mandi-bench-${opts.name}-`));
  const tenantIds = new Set<string>();
  let platform: Platform | undefined;
  try {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(pg.serverUrl, central),
      DATA_DIR: dataDir,
      REDIS_URL: process.env.REDIS_URL ?? '',
      REDIS_PREFIX: central,
      LOG_LEVEL: 'warn',
      ...opts.env,
    });
    platform = await startPlatform(config);
    return await run({
      platform,
      config,
      pg,
      dataDir,
      track: (id) => (tenantIds.add(id), id),
      setup: `PostgreSQL: ${pg.embedded ? 'embedded' : 'DATABASE_URL'}; drivers: ${config.redisUrl ? 'Redis' : 'in-process'}`,
    });
  } finally {
    await platform?.stop();
    for (const id of tenantIds) await dropDatabase(pg.serverUrl, tenantDbName(id)).catch(() => undefined);
    await dropDatabase(pg.serverUrl, central).catch(() => undefined);
    await pg.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
