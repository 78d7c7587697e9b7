/** `npm start`: boot the platform from environment variables and stop cleanly on SIGINT/SIGTERM. */
import { loadConfig } from './config';
import { createLogger } from './logger';
import { startPlatform } from './platform';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const platform = await startPlatform(config, logger);
  const installed = await platform.central.models.PlatformSetting.findByPk('installed');
  logger.info({ url: platform.url, database: platform.dbServer.embedded ? 'embedded' : 'DATABASE_URL', redis: config.redisUrl ? 'REDIS_URL' : 'in-process' }, 'Mandi is listening');
  const lines = [`Mandi is listening on ${platform.url}  (health: ${platform.url}/api/v1/health)`];
  if (!installed) {
    lines.push(
      'Create the first tenant and its owner:',
      `  curl -X POST ${platform.url}/api/v1/install/owner -H 'Content-Type: application/json' \\`,
      `    -d '{"organization_name":"Acme","organization_slug":"acme","name":"Ada","email":"ada@example.com","password":"change-me-now"}'`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    platform.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Mandi failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
