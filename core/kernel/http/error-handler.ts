/**
 * Renders every error as JSON in the shape of the spec area that exposes it (DESIGN.md,
 * Conventions). Routes pick a shape with `useErrorShape`; the default is the platform shape.
 * Stacks appear only when DEBUG_ERRORS is on outside production.
 */
import type { ErrorRequestHandler, RequestHandler, Response, Router } from 'express';
import type { Logger } from '../logger';
import { MandiError, publicDetails, RateLimitedError, ValidationError } from '../errors';
import { isObject } from '../is-object';
import { allowedMethods } from './allowed-methods';
import { bodyParserError } from './body-errors';
import { httpErrors } from './errors';

export type ErrorShape = 'platform' | 'workflows' | 'reseller' | 'graphql';

/** Paths whose errors keep their area's shape even when they fail before routing (malformed JSON, 405). */
const pathShapes = new Map<string, { shape: ErrorShape; subpaths: boolean }>();
/** `subpaths`: every path under `path` too (e.g. every node of /workflow-nodes). */
export function useErrorShapeForPath(path: string, shape: ErrorShape, subpaths = false): void {
  pathShapes.set(path, { shape, subpaths });
}
export function shapeOfPath(path: string): ErrorShape | undefined {
  for (const [prefix, { shape, subpaths }] of pathShapes) if (path === prefix || (subpaths && path.startsWith(`${prefix}/`))) return shape;
  return undefined;
}

/**
 * Paths where a body over the size limit is an input error of the area rather than 413 (spec 2,
 * Errors: a too-large trigger payload is 422). The body parser fails before any router sees the
 * request, so the mapping is registered here, by path.
 */
const tooLargeAs: Array<{ path: RegExp; error: () => MandiError }> = [];
export function useTooLargeErrorForPath(path: RegExp, error: () => MandiError): void {
  tooLargeAs.push({ path, error });
}

export function useErrorShape(shape: ErrorShape): RequestHandler {
  return (_req, res, next) => {
    res.locals.errorShape = shape;
    next();
  };
}

/** Turns body-parser and other framework errors into typed ones. */
function normalise(err: unknown): MandiError | undefined {
  if (err instanceof MandiError) return err;
  const parsed = bodyParserError(err);
  if (parsed) return parsed;
  const e = err as { status?: number; expose?: boolean; message?: string };
  // The router's failure to decode a path parameter (e.g. "%E0%A4%A").
  if (err instanceof URIError) return httpErrors.badPath();
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    return httpErrors.refused(e.message, e.status);
  }
  return undefined;
}

const WORKFLOW_MESSAGES: Record<number, string> = { 401: 'Unauthenticated', 403: 'Insufficient permissions', 500: 'An error occurred' };

function body(err: MandiError, shape: ErrorShape): Record<string, unknown> {
  // GraphQL-over-HTTP: request errors are a GraphQL response with `errors` only.
  if (shape === 'graphql') return { errors: [{ message: err.message, extensions: { code: err.code, ...stripErrors(err) } }] };
  if (shape === 'reseller') return { error: err.message, code: err.code, details: stripErrors(err) ?? {} };
  if (shape === 'workflows') {
    if (err instanceof ValidationError) return { success: false, message: err.message, errors: err.errors };
    // Spec 2, Errors: a workflow that fails activation's checks is 422 with a list of readable strings.
    if (err.status === 422 && Array.isArray(err.details?.errors)) return { success: false, message: err.message, errors: err.details.errors };
    // Spec 2, Errors: a request that cannot be read is 400 "Invalid request" with what was wrong in errors.
    if (err.status === 400) {
      const given = err.details?.errors;
      return { success: false, message: 'Invalid request', code: err.code, errors: isObject(given) ? given : { request: [err.message] } };
    }
    // Spec 2, Errors fixes these messages; what went wrong stays readable in errors.
    const fixed = WORKFLOW_MESSAGES[err.status];
    if (fixed) return { success: false, message: fixed, code: err.code, ...(fixed === err.message.replace(/\.$/, '') ? {} : { errors: { request: [err.message] } }) };
    return { success: false, message: err.message, code: err.code };
  }
  if (err instanceof ValidationError) return { message: err.message, errors: err.errors };
  if (err instanceof RateLimitedError) return { message: err.message, retry_after: err.retryAfterSeconds };
  const details = stripErrors(err);
  if (!details) return { message: err.message, code: err.code };
  // A 422 raised by a module or core check, or a 400 for a body that cannot be read, carries its
  // field errors in details; they are also lifted to the top so that every input error has the
  // validation shape {message, errors} that clients key on (spec 1, Errors).
  const fieldErrors = err.status === 422 || err.status === 400 ? details.errors : undefined;
  return isObject(fieldErrors) ? { message: err.message, code: err.code, errors: fieldErrors, details } : { message: err.message, code: err.code, details };
}

function stripErrors(err: MandiError): Record<string, unknown> | undefined {
  if (err instanceof ValidationError) return { errors: err.errors };
  return publicDetails(err.details);
}

export function sendError(res: Response, err: MandiError): void {
  if (err instanceof RateLimitedError) res.set('Retry-After', String(err.retryAfterSeconds));
  // RFC 6750 3: a 401 names the scheme the client should authenticate with.
  if (err.status === 401) res.set('WWW-Authenticate', 'Bearer realm="mandi"');
  res.status(err.status).json(body(err, (res.locals.errorShape as ErrorShape) ?? 'platform'));
}

export function errorHandler(logger: Logger, debugErrors: boolean): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    const path = req.originalUrl.split('?')[0];
    res.locals.errorShape ??= shapeOfPath(path);
    const overLimit = (err as { type?: string })?.type === 'entity.too.large';
    // The rest of the body was never read: the connection closes after the answer, so a client's
    // next request does not land on a socket still full of this one's bytes (RFC 9110 15.5.14).
    if (overLimit) res.set('Connection', 'close');
    const tooLarge = overLimit ? tooLargeAs.find((t) => t.path.test(path)) : undefined;
    const known = tooLarge ? tooLarge.error() : normalise(err);
    if (known) return sendError(res, known);
    logger.error({ err, reqId: req.id, method: req.method, path }, 'unhandled error');
    const shape = (res.locals.errorShape as ErrorShape | undefined) ?? 'platform';
    const payload = body(httpErrors.internal(shape === 'workflows' ? WORKFLOW_MESSAGES[500] : 'Server Error.'), shape);
    // Spec 2: error details in debug mode only; the GraphQL and reseller shapes have no place for them.
    if (debugErrors && err instanceof Error && (shape === 'platform' || shape === 'workflows')) payload.stack = err.stack?.split('\n');
    res.status(500).json(payload);
  };
}

/** Last handler: 405 with Allow when `api` (mounted at `apiPrefix`) serves the path with other methods, else 404. */
export function notFoundHandler(api: Router, apiPrefix: string): RequestHandler {
  // Named so tests that insert routes can find this layer in the app's stack.
  const notFoundRoute: RequestHandler = (req, res) => {
    res.locals.errorShape ??= shapeOfPath(req.path);
    const inApi = req.path === apiPrefix || req.path.startsWith(`${apiPrefix}/`);
    // Module routes (core/kernel/modules/module-routes.ts) leave their methods at the path and a hint in res.locals.
    const moduleMethods = (res.locals.allowedMethods as string[] | undefined) ?? [];
    const allowed = inApi ? [...new Set([...allowedMethods(api, req.path.slice(apiPrefix.length) || '/'), ...moduleMethods])].sort() : [];
    if (allowed.length && !allowed.includes(req.method)) {
      res.set('Allow', allowed.join(', '));
      return sendError(res, httpErrors.methodNotAllowed(req.path, req.method, allowed));
    }
    const hint = inApi && typeof res.locals.notFoundHint === 'string' ? ` ${res.locals.notFoundHint}` : '';
    sendError(res, httpErrors.routeNotFound(req.method, req.path, hint));
  };
  return notFoundRoute;
}
