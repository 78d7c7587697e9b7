/** `npm start`: boot the platform from environment variables and stop cleanly on SIGINT/SIGTERM. */
import { loadConfig } from './config';
import { createLogger } from './kernel/logger';
import { startPlatform, type Platform } from './platform';

async function main(): Promise<void> {
  const config = loadConfig();
  // Readable lines for a developer watching a terminal; JSON everywhere else (files, pipes, production).
  const logger = createLogger(config.logLevel, { pretty: config.env === 'development' && process.stdout.isTTY === true });

  // eslint-disable-next-line prefer-const -- declared before the signal handlers that read it, assigned once the platform starts
  let platform: Platform | undefined;
  let stopping = false;
  // After an isolate was lost, isolated-vm's exit hook waits for its thread forever: only SIGKILL
  // ends the process, and the supervisor (scripts/supervise.mjs) starts a fresh one.
  let lost = false;
  const exit = (code: number) => (lost ? process.kill(process.pid, 'SIGKILL') : process.exit(code));
  const stop = (running: Platform) =>
    running.stop().then(
      () => {
        logger.info('stopped');
        exit(0);
      },
      (err) => {
        logger.error({ err }, 'shutdown failed');
        exit(1);
      },
    );
  // The lost isolate's memory is never freed: stop taking work, let requests in flight finish, end.
  const replace = (reason: string) => {
    lost = true;
    logger.fatal({ reason }, 'this node must be replaced: draining, then exiting for the supervisor to restart it');
    setTimeout(() => exit(1), config.shutdownGraceMs + 15_000).unref();
    if (stopping) return;
    stopping = true;
    if (platform) void stop(platform);
  };
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    if (platform) void stop(platform); // else the start below finishes, then stops
  };
  // Listening before anything is printed: whoever reads the banner may signal at once, and a signal
  // with no listener yet would kill the process without a shutdown.
  // `on`, not `once`: Ctrl-C reaches npm and this process together, and npm passes it on, so it
  // arrives more than once; with no listener left, a repeat would end the process mid-shutdown.
  // (npm start runs `node --import tsx`, not the tsx command: that wrapper SIGKILLs a child that does
  // not acknowledge a relayed signal within 30 ms, which a loaded machine can miss.)
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  platform = await startPlatform(config, logger, { onFatal: replace });
  if (stopping) return void stop(platform);
  const installed = await platform.central.models.PlatformSetting.findByPk('installed');
  logger.info({ url: platform.url, database: platform.dbServer.embedded ? 'embedded' : 'DATABASE_URL', redis: config.redisUrl ? 'REDIS_URL' : 'in-process' }, 'Mandi is listening');
  const lines = [`Mandi is listening on ${platform.url}  (health: ${platform.url}/api/v1/health)`, `Web console: ${platform.url}/`];
  if (!installed) {
    lines.push(
      `Create the first tenant and its owner in the console (${platform.url}/), or:`,
      `  curl -X POST ${platform.url}/api/v1/install/owner -H 'Content-Type: application/json' \\`,
      `    -d '{"organization_name":"Acme","organization_slug":"acme","name":"Ada","email":"ada@example.com","password":"change-me-now"}'`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
}

/** The usual reasons a start fails, said plainly; anything else keeps its stack for a bug report. */
function startFailure(err: unknown): string {
  const e = err as NodeJS.ErrnoException & { port?: number; address?: string };
  if (e?.syscall === 'listen' && e.code === 'EADDRINUSE') {
    return `port ${e.port} on ${e.address} is already in use. Stop what listens there, or set PORT to another port (PORT=0 picks a free one).`;
  }
  if (e?.syscall === 'listen' && e.code === 'EACCES') return `no permission to listen on port ${e.port}. Set PORT to 1024 or above.`;
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

main().catch((err) => {
  process.stderr.write(`Mandi failed to start: ${startFailure(err)}\n`);
  process.exit(1);
});
