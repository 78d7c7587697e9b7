/**
 * A request body that cannot be read, as a typed error in the shape of the route's area (DESIGN.md,
 * Conventions). The body parser runs before routing; where a module's route may serve the path,
 * only that route knows its area (its manifest's `error_shape`, per tenant), so the error waits in
 * res.locals until the route has set its shape and raises it (a path no route serves stays a 404).
 */
import type { Response } from 'express';
import { MandiError } from '../errors';

const MALFORMED = 'The request body is not valid JSON.';

/** body-parser's failures as typed errors; undefined for anything else. */
export function bodyParserError(err: unknown): MandiError | undefined {
  const e = err as { type?: string; limit?: number; message?: string } | undefined;
  // The field errors give every area its input-error shape: {message, errors}, {success, message, errors}, {error, code, details}.
  if (e?.type === 'entity.parse.failed') return new MandiError('MALFORMED_JSON', MALFORMED, 400, { errors: { request: [MALFORMED] } });
  if (e?.type === 'entity.too.large') return new MandiError('PAYLOAD_TOO_LARGE', `The request body exceeds the limit of ${e.limit} bytes.`, 413, { limit: e.limit });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new MandiError('UNSUPPORTED_ENCODING', e.message ?? 'Unsupported body encoding.', 415);
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
