/**
 * (a) The platform as `npm start` runs it: configuration from the environment the parent sets
 * (DATABASE_URL of a central database made for the run, NODE_ENV, LOG_LEVEL, API_RATE_LIMIT, ...).
 */
import { loadConfig } from '../../core/config';
import { createLogger } from '../../core/kernel/logger';
import { startPlatform } from '../../core/platform';
import { serveInChild } from './serve-in-child';

serveInChild(async () => {
  const config = loadConfig(process.env);
  const platform = await startPlatform(config, createLogger(config.logLevel));
  return { url: platform.url, stop: () => platform.stop() };
});
