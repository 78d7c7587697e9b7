/** Typed bus errors; the HTTP layer renders them in the shape of the area that exposes them. */
import { defineErrors, ValidationError } from '../errors';

export const busErrors = {
  ...defineErrors('bus', {
    notFound: {
      code: 'OPERATION_NOT_FOUND', status: 404,
      doc: "No operation of that name in the tenant's ring: its module is not installed there, or the name is misspelt.",
      message: (op: string) => `Operation "${op}" does not exist in this tenant's ring.`,
      details: (op: string) => ({ operation: op }),
    },
    notConsumed: {
      code: 'OPERATION_NOT_CONSUMED', status: 403,
      doc: 'A module called an operation its manifest does not list in api.consumes.',
      message: (alias: string, op: string) => `Module "${alias}" may not call "${op}": add it to api.consumes in its module.json.`,
      details: (alias: string, op: string) => ({ operation: op, module: alias }),
    },
    permission: {
      code: 'FORBIDDEN', status: 403,
      message: (op: string, permission: string) => `Operation "${op}" requires the permission "${permission}".`,
      details: (op: string, permission: string) => ({ operation: op, permission }),
    },
    /** The handler broke its own declared contract: the caller cannot trust the result, so it never sees it. */
    invalidOutput: {
      code: 'OUTPUT_INVALID', status: 500,
      doc: "An operation answered something its own output schema does not allow; the answer is withheld. A bug in the module that owns it.",
      message: (op: string, _module: string, errors: Record<string, string[]>) =>
        `Operation "${op}" returned a result its output schema does not allow (${Object.keys(errors).map((p) => p || '/').join(', ')}).`,
      details: (op: string, module: string, errors: Record<string, string[]>) => ({ operation: op, module, errors }),
    },
    /** A related-tenant call back into a tenant the call path already entered (core/kernel/tenancy/related-operations.ts). */
    relatedLoop: {
      code: 'CALL_DEPTH_EXCEEDED', status: 508,
      doc: 'Modules call each other in a loop: a call chain went too deep, or a related-tenant call came back into a tenant already on its path.',
      message: (op: string, tenant: string) =>
        `A related-tenant call back into tenant ${tenant}, already on this call path, at "${op}": modules are calling each other in a loop.`,
      details: (op: string, tenant: string) => ({ operation: op, target_tenant: tenant }),
    },
    tooDeep: {
      code: 'CALL_DEPTH_EXCEEDED', status: 508,
      doc: 'Modules call each other in a loop: a call chain went too deep, or a related-tenant call came back into a tenant already on its path.',
      message: (op: string, depth: number) => `Call chain too deep (${depth}) at "${op}": modules are calling each other in a loop.`,
      details: (op: string) => ({ operation: op }),
    },
    /** No installed module implements the contract (DESIGN.md, Host capabilities for modules). */
    providerMissing: {
      code: 'PROVIDER_MISSING', status: 422,
      doc: 'A contract operation (payment.*, shipping.*) was called and no installed module implements that contract.',
      message: (op: string, contract: string) =>
        `No installed module implements the ${contract} contract, so "${op}" has nowhere to go: install a ${contract} provider (one listing "${contract}@<version>" in api.implements).`,
      details: (op: string, contract: string) => ({ operation: op, contract }),
    },
    /** Several implement it and the tenant chose none: the call must not guess whose account to charge. */
    providerAmbiguous: {
      code: 'PROVIDER_AMBIGUOUS', status: 422,
      doc: 'Several installed modules implement the contract and the tenant chose none: choose one with PUT /api/v1/providers/{contract}.',
      message: (op: string, contract: string, candidates: string[]) =>
        `Several installed modules implement the ${contract} contract (${candidates.join(', ')}) and none is chosen, so "${op}" cannot be routed: choose one with PUT /api/v1/providers/${contract}.`,
      details: (op: string, contract: string, candidates: string[]) => ({ operation: op, contract, candidates }),
    },
    notStreamable: {
      code: 'NOT_STREAMABLE', status: 500,
      doc: "A streamed route points at a platform operation; only a module's own operations can stream.",
      message: (op: string) => `Operation "${op}" is the platform's own and cannot serve a streamed route; point the route at one of the module's operations.`,
      details: (op: string) => ({ operation: op }),
    },
    fetchBodyTooLarge: {
    code: 'FETCH_BODY_TOO_LARGE', status: 413,
    doc: "A module's host.fetch request body (its body_parts together) is over the upload limit.",
    message: (limit: number) => `host.fetch body_parts make more than ${limit} bytes.`,
    details: (limit: number) => ({ limit }),
  },
  eventNotDeclared: {
      code: 'EVENT_NOT_DECLARED', status: 403,
      doc: 'A module emitted an event its manifest does not list in events.publishes.',
      message: (alias: string, event: string) => `Module "${alias}" may not emit "${event}": add it to events.publishes in its module.json.`,
      details: (_alias: string, event: string) => ({ event }),
    },
  }),
  /** The 422 validation shape, so REST callers see {message, errors} like any other form error. */
  invalidInput: (errors: Record<string, string[]>) => new ValidationError(errors),
};

/** Errors of module jobs (core/kernel/modules/module-jobs.ts). */
export const jobErrors = defineErrors('jobs', {
  undeclared: {
    code: 'JOB_NOT_DECLARED', status: 422,
    doc: 'A module enqueued a job kind its manifest does not declare under jobs (a module enqueues only its own jobs).',
    message: (alias: string, job: string) => `Module "${alias}" declares no job "${job}": add it under jobs in its module.json (a module enqueues only its own jobs).`,
    details: (_alias: string, job: string) => ({ job }),
  },
  notFound: {
    code: 'JOB_NOT_FOUND', status: 404,
    doc: "No job with that id belongs to this module in this tenant.",
    message: (id: string) => `No job "${id}" of this module in this tenant.`,
    details: (id: string) => ({ id }),
  },
  tooLarge: {
    code: 'JOB_PAYLOAD_TOO_LARGE', status: 413,
    doc: "A job's data or progress is over the size limit: store large data with host.db and pass its id.",
    message: (field: 'data' | 'progress', max: number) => `The job's ${field} is larger than ${max} bytes of JSON: store large data with host.db and pass its id.`,
    details: (field: 'data' | 'progress', max: number) => ({ field, max_bytes: max }),
  },
  twoTimes: {
    code: 'VALIDATION_FAILED', status: 422,
    message: () => 'Give delay_seconds or run_at, not both.',
    details: () => ({ errors: { run_at: ['not with delay_seconds'] } }),
  },
  tooFar: {
    code: 'VALIDATION_FAILED', status: 422,
    message: (maxSeconds: number) => `A job runs at most ${maxSeconds} seconds from now.`,
    details: (maxSeconds: number) => ({ errors: { run_at: [`at most ${maxSeconds} seconds ahead`] } }),
  },
  tooMany: {
    code: 'TOO_MANY_JOBS', status: 429,
    doc: 'The module already has its maximum of pending jobs in this tenant: wait for them, or enqueue with a key so repeats share one job.',
    message: (alias: string, max: number) =>
      `Module "${alias}" already has ${max} pending jobs in this tenant; wait for them to run, or enqueue with a key so repeats share one job.`,
    details: (_alias: string, max: number) => ({ max_pending: max }),
  },
  notInJob: {
    code: 'NOT_IN_JOB', status: 409,
    doc: "jobs.progress was called outside a running job's own call.",
    message: () => "jobs.progress reports from inside a running job's own call only.",
  },
  timeout: {
    code: 'JOB_TIMEOUT', status: 504,
    doc: 'A job ran longer than its declared timeout and was stopped.',
    message: (job: string, ms: number) => `The job "${job}" ran longer than its ${ms / 1000} s timeout.`,
    details: (job: string) => ({ job }),
  },
});

/** Errors of module schedules (core/kernel/modules/module-scheduler.ts) and what they start. */
export const scheduleErrors = defineErrors('schedules', {
  scheduleOnly: {
    code: 'SCHEDULE_ONLY', status: 403,
    doc: "The operation runs only from its module's schedule, started by the platform's scheduler: no member, edge or module may call it.",
    message: (op: string) =>
      `Operation "${op}" runs only from its module's schedule (schedules[].operation), started by the platform's scheduler: no member, edge or module may call it.`,
    details: (op: string) => ({ operation: op }),
  },
  slotNotCurrent: {
    code: 'SCHEDULE_SLOT_NOT_CURRENT', status: 422,
    doc: 'A schedule call named a time slot other than the current one of its schedule.',
    message: (op: string, scheduledAt: unknown) =>
      `Operation "${op}" fires the current time slot of the schedule that runs it, and ${JSON.stringify(scheduledAt)} is not that slot.`,
    details: (op: string, scheduledAt: unknown) => ({ operation: op, scheduled_at: scheduledAt ?? null }),
  },
});

/** A module's code failing in its sandbox, as callers see it (core/kernel/bus/sandbox-invoker.ts); `what` names the module and handler. */
export const sandboxErrors = defineErrors('sandbox', {
  timeout: {
    code: 'MODULE_TIMEOUT', status: 504,
    doc: "A module's handler ran past its time limit (the manifest's limits, or the platform's default) and was stopped.",
    message: (what: string, reason: string, _alias: string) => `${what} did not finish in time: ${reason}`,
    details: (_what: string, _reason: string, alias: string) => ({ module: alias }),
  },
  memory: {
    code: 'MODULE_MEMORY_LIMIT', status: 503,
    doc: "A module's handler ran out of its isolate's memory; the isolate is rebuilt.",
    message: (what: string, reason: string, _alias: string) => `${what} ran out of memory: ${reason}`,
    details: (_what: string, _reason: string, alias: string) => ({ module: alias }),
  },
  outputTooLarge: {
    code: 'MODULE_OUTPUT_TOO_LARGE', status: 502,
    doc: "A module's handler answered more data than a call may carry.",
    message: (what: string, reason: string, _alias: string) => `${what} returned too much data: ${reason}`,
    details: (_what: string, _reason: string, alias: string) => ({ module: alias }),
  },
  handlerMissing: {
    code: 'HANDLER_NOT_FOUND', status: 501,
    doc: "The manifest declares an operation or event handler that the module's code does not export.",
    message: (what: string, _alias: string) => `${what} has no handler in the module's code.`,
    details: (_what: string, alias: string) => ({ module: alias }),
  },
  quarantined: {
    code: 'MODULE_QUARANTINED', status: 503,
    doc: 'The module crashed its sandbox beyond recovery: it is quarantined (an admin releases it) and the node restarts.',
    message: (what: string, _alias: string) => `${what} crashed the sandbox beyond recovery; the module is quarantined and this node restarts.`,
    details: (_what: string, alias: string) => ({ module: alias }),
  },
  restarted: {
    code: 'MODULE_RESTARTED', status: 503,
    doc: 'The call was interrupted because the module restarted (an upgrade, or its isolate was rebuilt); retry.',
    message: (what: string, _alias: string) => `${what} was interrupted because the module restarted; retry.`,
    details: (_what: string, alias: string) => ({ module: alias }),
  },
  invalidInput: {
    code: 'INVALID_INPUT', status: 422,
    doc: 'What was passed into the sandbox cannot be carried there (not plain JSON data).',
    message: (reason: string, _alias: string) => reason,
    details: (_reason: string, alias: string) => ({ module: alias }),
  },
  failed: {
    code: 'MODULE_ERROR', status: 500,
    doc: "A module's handler threw without a code of its own: a bug in the module (its log has the stack).",
    message: (what: string, reason: string, _alias: string) => `${what} failed: ${reason}`,
    details: (_what: string, _reason: string, alias: string) => ({ module: alias }),
  },
  broken: {
    code: 'MODULE_BROKEN', status: 500,
    doc: "The module's code could not run at all (it failed to load or compile).",
    message: (what: string, reason: string, _alias: string) => `${what} could not run: ${reason}`,
    details: (_what: string, _reason: string, alias: string) => ({ module: alias }),
  },
});
