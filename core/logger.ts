/** One pino logger for the process; parts take children with a `part` binding. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({ level, base: { app: 'mandi' }, timestamp: pino.stdTimeFunctions.isoTime });
}
