/** One pino logger for the process; parts take children with a `part` binding. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { app: 'mandi' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Secrets never reach the log, whoever logs a request or its headers.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
  });
}
