/**
 * The one way a test boots a platform: a fresh central database on the test PostgreSQL server, the
 * drivers REDIS_URL selects, a real HTTP listener on a free port and a data folder of its own (mail
 * outbox, uploads, registry blobs). createTestHost (sdk/testing) builds on it, and so do the
 * project's own suites (test/support/test-platform.ts). `close()` stops the platform and drops every database it made.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { createLogger, type Logger } from '../kernel/logger';
import { startPlatform, type Platform } from '../platform';
import { databaseUrl, dropDatabase } from '../kernel/data/pg-admin';
import { tenantDbName } from '../kernel/data/tenant-databases';
import { readOutbox } from '../services/mail/outbox';
import { testControls, type TestControls } from './controls';

export interface BootOptions {
  /** Settings on top of the test defaults (see docs/reference/environment.md). */
  env?: Record<string, string>;
  /** An existing central database to start on (kept by close()); a fresh one otherwise. */
  centralDb?: string;
  /** Prefix of the fresh central database's name, which also names the data folder and Redis prefix. */
  prefix?: string;
  logger?: Logger;
}

export interface BootedPlatform {
  platform: Platform;
  config: Config;
  /** Every mail the platform wrote to its outbox so far, oldest first (none when SMTP_URL is set). */
  mails(): Promise<Array<{ to: string | string[]; subject: string; text: string; html: string }>>;
  /** Schedules, jobs, events, modules and stand-ins, driven through the platform's own parts (./controls.ts). */
  controls: TestControls;
  close(): Promise<void>;
}

/** The PostgreSQL server tests run on: the project's jest global setup (MANDI_TEST_PG_URL), else DATABASE_URL. */
export function testServerUrl(): string {
  const url = process.env.MANDI_TEST_PG_URL || process.env.DATABASE_URL;
  if (!url) throw new Error('Tests need PostgreSQL: run under the project jest setup (MANDI_TEST_PG_URL) or set DATABASE_URL.');
  return url;
}

export async function bootTestPlatform(opts: BootOptions = {}): Promise<BootedPlatform> {
  const server = testServerUrl();
  const dbName = opts.centralDb ?? `${opts.prefix ?? 'mandi_t'}_${randomBytes(5).toString('hex')}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl(server, dbName),
    REDIS_URL: process.env.REDIS_URL ?? '',
    REDIS_PREFIX: `mandi-test-${dbName}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: path.join(os.tmpdir(), `mandi-test-${dbName}`),
    ...opts.env,
  });
  let platform: Platform;
  try {
    platform = await startPlatform(config, opts.logger ?? createLogger(config.logLevel));
  } catch (err) {
    if (!opts.centralDb) await dropDatabase(server, dbName).catch(() => undefined);
    throw err;
  }
  const close = async () => {
    const tenantIds = (await platform.central.models.Tenant.findAll({ attributes: ['id'] }).catch(() => [])).map((t) => t.id);
    await platform.stop();
    for (const id of tenantIds) await dropDatabase(server, tenantDbName(id));
    if (!opts.centralDb) await dropDatabase(server, dbName);
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  };
  return { platform, config, mails: () => readOutbox(path.join(config.dataDir, 'outbox')), controls: testControls(platform, config.eventDelivery), close };
}
