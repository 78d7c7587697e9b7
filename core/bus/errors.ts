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
  /** A related-tenant call back into a tenant the call path already entered (core/tenancy/related-operations.ts). */
  relatedLoop: (op: string, tenant: string) =>
    new MandiError('CALL_DEPTH_EXCEEDED', `A related-tenant call back into tenant ${tenant}, already on this call path, at "${op}": modules are calling each other in a loop.`, 508, {
      operation: op,
      target_tenant: tenant,
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
  notStreamable: (op: string) =>
    new MandiError('NOT_STREAMABLE', `Operation "${op}" is the platform's own and cannot serve a streamed route; point the route at one of the module's operations.`, 500, { operation: op }),
  eventNotDeclared: (alias: string, event: string) =>
    new MandiError('EVENT_NOT_DECLARED', `Module "${alias}" may not emit "${event}": add it to events.publishes in its module.json.`, 403, { event }),
};

/** Errors of module jobs (core/modules/module-jobs.ts). */
export const jobErrors = {
  undeclared: (alias: string, job: string) =>
    new MandiError('JOB_NOT_DECLARED', `Module "${alias}" declares no job "${job}": add it under jobs in its module.json (a module enqueues only its own jobs).`, 422, { job }),
  notFound: (id: string) => new MandiError('JOB_NOT_FOUND', `No job "${id}" of this module in this tenant.`, 404, { id }),
  tooLarge: (field: 'data' | 'progress', max: number) =>
    new MandiError('JOB_PAYLOAD_TOO_LARGE', `The job's ${field} is larger than ${max} bytes of JSON: store large data with host.db and pass its id.`, 413, { field, max_bytes: max }),
  twoTimes: () => new MandiError('VALIDATION_FAILED', 'Give delay_seconds or run_at, not both.', 422, { errors: { run_at: ['not with delay_seconds'] } }),
  tooFar: (maxSeconds: number) =>
    new MandiError('VALIDATION_FAILED', `A job runs at most ${maxSeconds} seconds from now.`, 422, { errors: { run_at: [`at most ${maxSeconds} seconds ahead`] } }),
  tooMany: (alias: string, max: number) =>
    new MandiError('TOO_MANY_JOBS', `Module "${alias}" already has ${max} pending jobs in this tenant; wait for them to run, or enqueue with a key so repeats share one job.`, 429, { max_pending: max }),
  notInJob: () => new MandiError('NOT_IN_JOB', "jobs.progress reports from inside a running job's own call only.", 409),
  timeout: (job: string, ms: number) => new MandiError('JOB_TIMEOUT', `The job "${job}" ran longer than its ${ms / 1000} s timeout.`, 504, { job }),
};

/** Errors of module schedules (core/modules/module-scheduler.ts) and what they start. */
export const scheduleErrors = {
  scheduleOnly: (op: string) =>
    new MandiError('SCHEDULE_ONLY', `Operation "${op}" runs only from its module's schedule (schedules[].operation), started by the platform's scheduler: no member, edge or module may call it.`, 403, { operation: op }),
  slotNotCurrent: (op: string, scheduledAt: unknown) =>
    new MandiError('SCHEDULE_SLOT_NOT_CURRENT', `Operation "${op}" fires the current time slot of the schedule that runs it, and ${JSON.stringify(scheduledAt)} is not that slot.`, 422, { operation: op, scheduled_at: scheduledAt ?? null }),
};
