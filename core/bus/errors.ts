/** Typed bus errors; the HTTP layer renders them in the shape of the area that exposes them. */
import { MandiError, ValidationError } from '../errors';

export const busErrors = {
  notFound: (op: string) => new MandiError('OPERATION_NOT_FOUND', `Operation "${op}" does not exist in this tenant's ring.`, 404, { operation: op }),
  notConsumed: (alias: string, op: string) =>
    new MandiError('OPERATION_NOT_CONSUMED', `Module "${alias}" may not call "${op}": add it to api.consumes in its module.json.`, 403, {
      operation: op,
      module: alias,
    }),
  permission: (op: string, permission: string) =>
    new MandiError('FORBIDDEN', `Operation "${op}" requires the permission "${permission}".`, 403, { operation: op, permission }),
  /** The 422 validation shape, so REST callers see {message, errors} like any other form error. */
  invalidInput: (errors: Record<string, string[]>) => new ValidationError(errors),
  /** The handler broke its own declared contract: the caller cannot trust the result, so it never sees it. */
  invalidOutput: (op: string, module: string, errors: Record<string, string[]>) =>
    new MandiError('OUTPUT_INVALID', `Operation "${op}" returned a result its output schema does not allow (${Object.keys(errors).map((p) => p || '/').join(', ')}).`, 500, {
      operation: op,
      module,
      errors,
    }),
  tooDeep: (op: string, depth: number) =>
    new MandiError('CALL_DEPTH_EXCEEDED', `Call chain too deep (${depth}) at "${op}": modules are calling each other in a loop.`, 508, { operation: op }),
  notStreamable: (op: string) =>
    new MandiError('NOT_STREAMABLE', `Operation "${op}" is the platform's own and cannot serve a streamed route; point the route at one of the module's operations.`, 500, { operation: op }),
  eventNotDeclared: (alias: string, event: string) =>
    new MandiError('EVENT_NOT_DECLARED', `Module "${alias}" may not emit "${event}": add it to events.publishes in its module.json.`, 403, { event }),
};
