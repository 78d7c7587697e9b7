/**
 * GraphQL errors as clients see them: {message, locations?, path?, extensions: {code, ...}}.
 * Typed platform errors keep their code, message and details (bus errors, rate limits, module
 * business errors); anything unexpected becomes "Internal server error." with code INTERNAL and is
 * logged with the request id, so stacks and internals never reach the client.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { MandiError, publicDetails, ValidationError } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';

function extensionsOf(err: MandiError): Record<string, unknown> {
  const details = err instanceof ValidationError ? { errors: err.errors } : publicDetails(err.details);
  return { ...details, code: err.code };
}

/** A request-level error (nothing ran) as a formatted GraphQL error. */
export function formatRequestError(err: MandiError | GraphQLError): GraphQLFormattedError {
  if (err instanceof MandiError) return { message: err.message, extensions: extensionsOf(err) };
  const formatted = err.toJSON();
  return { ...formatted, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...formatted.extensions } };
}

/** An error raised while executing, located at its field. */
export function formatExecutionError(err: GraphQLError, logger: Logger, requestId: string | undefined): GraphQLFormattedError {
  const original = err.originalError;
  const where = { ...(err.locations ? { locations: err.locations } : {}), ...(err.path ? { path: err.path } : {}) };
  if (original instanceof MandiError) {
    // A 500 carries what failed inside (a module's own error text): the client gets the code only.
    if (original.status !== 500) return { message: original.message, ...where, extensions: extensionsOf(original) };
    logger.error({ err: original, reqId: requestId, path: err.path }, 'GraphQL field failed');
    return { message: 'Internal server error.', ...where, extensions: { code: original.code } };
  }
  // graphql-js reports a null in a non-null field with a plain Error; its message names only the field.
  const nullViolation = original && !(original instanceof GraphQLError) && original.message.startsWith('Cannot return null for non-nullable field');
  if (!original || original instanceof GraphQLError || nullViolation) {
    // graphql-js's own errors (e.g. a value that does not fit its declared type): safe to show.
    return { message: err.message, ...where, extensions: { code: 'GRAPHQL_EXECUTION_FAILED', ...err.extensions } };
  }
  logger.error({ err: original, reqId: requestId, path: err.path }, 'GraphQL resolver failed');
  return { message: 'Internal server error.', ...where, extensions: { code: 'INTERNAL' } };
}
