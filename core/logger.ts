/** One pino logger for the process; parts take children with a `part` binding. */
import pino, { type Logger } from 'pino';

export type { Logger };

/** `destination`: where lines go instead of stdout (tests read them). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { app: 'mandi' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Secrets never reach the log, whoever logs a request or its headers.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie', '*.password', '*.token'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
