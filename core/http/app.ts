/**
 * The express application: request id and logging, body parsing with limits, tenant context,
 * the /api/v1 router that features register into, and JSON for every error and unknown route.
 */
import { randomUUID } from 'node:crypto';
import express, { type Express, type Router } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger';
import { runWithContext } from '../context';
import { errorHandler, notFoundRoute } from './error-handler';

export interface AppOptions {
  logger: Logger;
  bodyLimit: string;
  debugErrors: boolean;
  /** Registers the /api/v1 routes. */
  mountApi: (api: Router) => void;
}

export function buildApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  app.set('query parser', 'extended');

  app.use(
    pinoHttp({
      logger: opts.logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    }),
  );
  // Everything after this point runs inside the request's AsyncLocalStorage context.
  app.use((req, _res, next) => runWithContext({ requestId: String(req.id) }, next));
  // The raw bytes are kept for webhook routes that verify a sender's signature over them.
  app.use(express.json({ limit: opts.bodyLimit, strict: false, verify: (req, _res, buf) => ((req as { rawBody?: Buffer }).rawBody = buf) }));

  const api = express.Router();
  opts.mountApi(api);
  app.use('/api/v1', api);
  app.use(notFoundRoute);
  app.use(errorHandler(opts.logger, opts.debugErrors));
  return app;
}
