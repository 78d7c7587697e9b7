/**
 * Typed errors. Every part of the platform throws these; the HTTP error handler (core/http/errors.ts)
 * renders them in the shape of the spec area that exposes them, and the bus carries them as
 * {code, message, details} across the sandbox boundary.
 */

export type FieldErrors = Record<string, string[]>;

export class MandiError extends Error {
  constructor(
    /** Stable machine-readable code, e.g. NOT_FOUND, VALIDATION_FAILED, RATE_LIMITED. */
    readonly code: string,
    message: string,
    /** HTTP status when this error reaches a client. */
    readonly status: number,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'MandiError';
  }
}

/** 422 with the validation shape of spec 1, Errors: {message, errors: {field: [messages]}}. */
export class ValidationError extends MandiError {
  constructor(readonly errors: FieldErrors, message = 'The given data was invalid.') {
    super('VALIDATION_FAILED', message, 422, { errors });
  }
}

export const notFound = (message = 'Not found.', details?: Record<string, unknown>) =>
  new MandiError('NOT_FOUND', message, 404, details);
export const unauthenticated = (message = 'Unauthenticated.') => new MandiError('UNAUTHENTICATED', message, 401);
export const forbidden = (message = 'This action is unauthorized.', details?: Record<string, unknown>) =>
  new MandiError('FORBIDDEN', message, 403, details);
export const conflict = (message: string, details?: Record<string, unknown>) =>
  new MandiError('CONFLICT', message, 409, details);
export const badRequest = (message: string, details?: Record<string, unknown>) =>
  new MandiError('BAD_REQUEST', message, 400, details);

export class RateLimitedError extends MandiError {
  constructor(readonly retryAfterSeconds: number, message = 'Too many requests.') {
    super('RATE_LIMITED', message, 429, { retry_after: retryAfterSeconds });
  }
}

/**
 * What of an error's details a client may see: everything but the fields that steer the platform.
 * A module names its HTTP status in `details.status` (the bus answers with it) and a stack is never
 * a client's business (DESIGN.md, Conventions), so neither appears in any answer's details.
 */
export function publicDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!details) return undefined;
  const { status: _status, stack: _stack, ...rest } = details;
  return Object.keys(rest).length ? rest : undefined;
}

/** Single-field validation failure, the most common case. */
export function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ [field]: [message] });
}
