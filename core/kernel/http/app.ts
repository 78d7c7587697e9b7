/**
 * The express application: request id and logging, CORS, body parsing with limits, tenant context,
 * headers that keep every /api answer from running as a page (api-answer-headers.ts), the /api/v1
 * router that features register into (and the one public link outside it), modules'
 * public routes under /api/<prefix> (spec 2: /api/widget/..., /api/webhooks/workflows/...), the web
 * console at / (core/console), and JSON for every error and unknown route.
 */
import express, { type Express, type Router } from 'express';
import { requestLog } from './request-log';
import type { Logger } from '../logger';
import { runWithContext } from '../context';
import { apiAnswerHeaders } from './api-answer-headers';
import { corsMiddleware, type CorsOrigins } from './cors';
import { allowedMethods } from './allowed-methods';
import { bodyParserError, deferBodyError } from './body-errors';
import { errorHandler, notFoundHandler, shapeOfPath } from './error-handler';
import type { TrustProxy } from './trust-proxy';

export interface AppOptions {
  logger: Logger;
  bodyLimit: string;
  debugErrors: boolean;
  corsOrigins: CorsOrigins;
  trustProxy: TrustProxy;
  /** Registers the /api/v1 routes. */
  mountApi: (api: Router) => void;
  /** Registers the public routes outside /api/v1, tried at /api for those paths only (core/kernel/modules/public-routes.ts). */
  mountPublic: (router: Router) => void;
  /** Registers the pages outside /api (the web console, core/console/console-routes.ts), before the 404 handler. */
  mountSite: (app: Router) => void;
}

/** Paths under /api/ outside /api/v1 (any case, as express routes): modules' public routes, which answer CORS per route. */
const modulePublicPath = (path: string) => /^\/api\/(?!v1(?:\/|$))[^/]/i.test(path);

export function buildApp(opts: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy);
  app.set('query parser', 'extended');

  app.use(requestLog(opts.logger));
  const cors = corsMiddleware(opts.corsOrigins);
  // The core's answer (any origin by default) must not stand in for a module's own per-route decision.
  if (cors) app.use((req, res, next) => (modulePublicPath(req.path) ? next() : cors(req, res, next)));
  // Everything after this point runs inside the request's AsyncLocalStorage context.
  app.use((req, _res, next) => runWithContext({ requestId: String(req.id) }, next));
  // Before body parsing, so that a refused body's error carries them too.
  app.use('/api', apiAnswerHeaders);
  const api = express.Router();
  // A path whose area only a module's route knows: not a core route, nor a path of a fixed area.
  const moduleMayServe = (path: string) =>
    !shapeOfPath(path) && (/^\/api\/v1(?:\/|$)/i.test(path) ? allowedMethods(api, path.slice('/api/v1'.length) || '/').length === 0 : modulePublicPath(path));
  // The raw bytes are kept for webhook routes that verify a sender's signature over them.
  const json = express.json({ limit: opts.bodyLimit, strict: false, verify: (req, _res, buf) => ((req as { rawBody?: Buffer }).rawBody = buf) });
  app.use((req, res, next) =>
    json(req, res, (err?: unknown) => {
      const refused = err ? bodyParserError(err) : undefined;
      // The module's route raises it in its own area's shape (./body-errors.ts).
      if (refused && moduleMayServe(req.path)) {
        deferBodyError(res, refused);
        return next();
      }
      next(err);
    }),
  );

  opts.mountApi(api);
  // Spec 1, Email verification: mails link to `<app_url>/email/verify/...`, outside /api/v1; it is the API's route.
  app.get('/email/verify/:id/:hash', (req, _res, next) => {
    req.url = `/api/v1${req.url}`;
    next();
  });
  const publicRoutes = express.Router();
  opts.mountPublic(publicRoutes);
  app.use('/api', (req, res, next) => (modulePublicPath(req.baseUrl + req.path) ? publicRoutes(req, res, next) : next()));
  app.use('/api/v1', api);
  opts.mountSite(app);
  app.use(notFoundHandler(api, '/api/v1'));
  app.use(errorHandler(opts.logger, opts.debugErrors));
  return app;
}
