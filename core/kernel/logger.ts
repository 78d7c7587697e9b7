/**
 * One pino logger for the process; parts take children with a `part` binding. JSON lines by default
 * (for log shippers); `pretty` (development on a terminal, core/main.ts) writes readable coloured
 * lines through pino-pretty instead, in-process, so a crash never loses the last lines to a worker.
 */
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';
import { logSafeUrl } from './log-safe-url';
import { partRef } from './parts';

export type { Logger };

/**
 * `pretty`: readable lines instead of JSON; `destination`: where JSON lines go instead of stdout
 * (tests read them).
 */
export function createLogger(level: string, opts: { pretty?: boolean; destination?: pino.DestinationStream } = {}): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { app: 'mandi' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Secrets never reach the log, whoever logs a request or its headers.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (!opts.pretty) return pino(options);
  return pino(options, pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,app', singleLine: true, sync: true }));
}

/**
 * logger, writing every `url` with its secrets masked (core/kernel/log-safe-url.ts): the platform logs
 * through it whatever logger it is given, so no invitation, verification, webhook or public-route
 * token reaches a line, and no route has to mask its own.
 */
export function withSafeUrls(logger: Logger): Logger {
  return logger.child({}, { serializers: { url: (url: unknown) => (typeof url === 'string' ? logSafeUrl(url) : url) } });
}

/** The platform logger as a part (core/kernel/parts), handed to the platform ready-made (`givenPart`). */
export const loggerRef = partRef<Logger>('logger');
