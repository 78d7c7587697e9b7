/**
 * Typed errors. Every part of the platform throws these; the HTTP error handler (core/kernel/http/errors.ts)
 * renders them in the shape of the spec area that exposes them, and the bus carries them as
 * {code, message, details} across the sandbox boundary.
 */

import { buildErrors, type ErrorCatalog, type ErrorDefinitions, type ErrorFactories } from '../../sdk/runtime/errors';

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

const catalogs: ErrorCatalog[] = [];

/**
 * An area's errors, declared once on the SDK's catalog builder (sdk/runtime/errors.ts), which modules
 * use too: `defineErrors('bus', { notFound: { code: 'OPERATION_NOT_FOUND', status: 404, doc, message:
 * (op: string) => ... } })` gives `busErrors.notFound(op)`, a MandiError with that code, status and
 * message. Every catalog is listed by `errorCatalogs()` for the reference.
 */
export function defineErrors<A extends Record<string, unknown[]>>(area: string, definitions: ErrorDefinitions<A>): ErrorFactories<A, MandiError> {
  const { factories, catalog } = buildErrors(area, definitions, (code, message, status, details) => new MandiError(code, message, status, details));
  catalogs.push(catalog);
  return factories;
}

/**
 * Codes made otherwise than by a catalog's factory (an error class, or a table such as SQLSTATE
 * classes), listed for the reference all the same.
 */
export function describeErrors(area: string, entries: ErrorCatalog['entries']): void {
  catalogs.push({ area, entries });
}

describeErrors('platform', [
  { name: 'ValidationError', code: 'VALIDATION_FAILED', status: 422, doc: 'The input failed validation; errors maps each field to its messages.' },
  { name: 'RateLimitedError', code: 'RATE_LIMITED', status: 429, doc: 'Too many requests for this limit; retry after details.retry_after seconds (also the Retry-After header).' },
]);

/** Every catalog defined so far (their modules must have been imported). */
export const errorCatalogs = (): readonly ErrorCatalog[] => catalogs;

/** 422 with the validation shape of spec 1, Errors: {message, errors: {field: [messages]}}. */
export class ValidationError extends MandiError {
  constructor(readonly errors: FieldErrors, message = 'The given data was invalid.') {
    super('VALIDATION_FAILED', message, 422, { errors });
  }
}

const platformErrors = defineErrors('platform', {
  notFound: {
    code: 'NOT_FOUND', status: 404,
    doc: 'The resource does not exist in this tenant, or the caller may not know it exists.',
    message: (message: string = 'Not found.', _details?: Record<string, unknown>) => message,
    details: (_message?: string, details?: Record<string, unknown>) => details,
  },
  unauthenticated: {
    code: 'UNAUTHENTICATED', status: 401,
    doc: 'No valid credentials: the token is missing, expired or revoked.',
    message: (message: string = 'Unauthenticated.') => message,
  },
  forbidden: {
    code: 'FORBIDDEN', status: 403,
    doc: "The caller lacks the permission the operation (or route) requires; the error names it.",
    message: (message: string = 'This action is unauthorized.', _details?: Record<string, unknown>) => message,
    details: (_message?: string, details?: Record<string, unknown>) => details,
  },
  conflict: {
    code: 'CONFLICT', status: 409,
    doc: "The request conflicts with the resource's current state (a duplicate, or a change that happened first).",
    message: (message: string, _details?: Record<string, unknown>) => message,
    details: (_message: string, details?: Record<string, unknown>) => details,
  },
  badRequest: {
    code: 'BAD_REQUEST', status: 400,
    doc: 'The request cannot be read as asked (a malformed parameter or header).',
    message: (message: string, _details?: Record<string, unknown>) => message,
    details: (_message: string, details?: Record<string, unknown>) => details,
  },
});

export const { notFound, unauthenticated, forbidden, conflict, badRequest } = platformErrors;

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
