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
  /** No installed module implements the contract (DESIGN.md, Host capabilities for modules). */
  providerMissing: (op: string, contract: string) =>
    new MandiError(
      'PROVIDER_MISSING',
      `No installed module implements the ${contract} contract, so "${op}" has nowhere to go: install a ${contract} provider (one listing "${contract}@<version>" in api.implements).`,
      422,
      { operation: op, contract },
    ),
  /** Several implement it and the tenant chose none: the call must not guess whose account to charge. */
  providerAmbiguous: (op: string, contract: string, candidates: string[]) =>
    new MandiError(
      'PROVIDER_AMBIGUOUS',
      `Several installed modules implement the ${contract} contract (${candidates.join(', ')}) and none is chosen, so "${op}" cannot be routed: choose one with PUT /api/v1/providers/${contract}.`,
      422,
      { operation: op, contract, candidates },
    ),
  eventNotDeclared: (alias: string, event: string) =>
    new MandiError('EVENT_NOT_DECLARED', `Module "${alias}" may not emit "${event}": add it to events.publishes in its module.json.`, 403, { event }),
};
