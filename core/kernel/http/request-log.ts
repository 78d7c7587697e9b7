/**
 * Request ids and one log line per finished request. Lighter than pino-http: no child logger per
 * request and no header serialisation, and nothing at all is built when info is not enabled.
 * Headers are never logged (they carry bearer tokens); the platform's logger masks the secrets a URL
 * carries (core/kernel/logger.ts, withSafeUrls).
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';

const GIVEN_ID = /^[\w.-]{1,100}$/;

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const started = performance.now();
    res.on('finish', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({ reqId: id, method: req.method, url: req.originalUrl, status, ms: Math.round((performance.now() - started) * 100) / 100 }, 'request');
    });
    next();
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- express's own augmentation point
  namespace Express {
    interface Request {
      /** The request id (X-Request-Id), set by requestLog. */
      id: string;
    }
  }
}
