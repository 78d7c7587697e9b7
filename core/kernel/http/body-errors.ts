/**
 * A request body that cannot be read, as a typed error in the shape of the route's area (DESIGN.md,
 * Conventions). The body parser runs before routing; where a module's route may serve the path,
 * only that route knows its area (its manifest's `error_shape`, per tenant), so the error waits in
 * res.locals until the route has set its shape and raises it (a path no route serves stays a 404).
 */
import type { Response } from 'express';
import { MandiError } from '../errors';
import { httpErrors } from './errors';

/** body-parser's failures as typed errors; undefined for anything else. */
export function bodyParserError(err: unknown): MandiError | undefined {
  const e = err as { type?: string; limit?: number; message?: string } | undefined;
  if (e?.type === 'entity.parse.failed') return httpErrors.malformedJson();
  if (e?.type === 'entity.too.large') return httpErrors.bodyTooLarge(e.limit);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return httpErrors.unsupportedEncoding(e.message);
  return undefined;
}

export function deferBodyError(res: Response, err: MandiError): void {
  res.locals.bodyError = err;
}

/** Called by a route once its error shape is set: a body the parser refused ends the request here. */
export function raiseDeferredBodyError(res: Response): void {
  const err: unknown = res.locals.bodyError;
  if (err instanceof MandiError) throw err;
}
