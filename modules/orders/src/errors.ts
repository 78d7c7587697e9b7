/**
 * Business errors of the orders module. A thrown value carrying `code` becomes a typed bus error
 * {code, message, details}; `details.status` is the HTTP status (spec 3 leaves the orders error
 * envelope unshown, so the platform shape {message, code, details} applies).
 */
export class OrdersError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'OrdersError';
  }
}

export const notFound = (what: string, id: string) =>
  new OrdersError('NOT_FOUND', `${what} ${id} was not found.`, { status: 404, id });

/** Field-level validation, in the platform's 422 shape (errors keyed by field). */
export const invalid = (field: string, message: string) =>
  new OrdersError('VALIDATION_FAILED', message, { status: 422, errors: { [field]: [message] } });

export const invalidStatus = (message: string, current: string, extra: Record<string, unknown> = {}) =>
  new OrdersError('INVALID_STATUS', message, { status: 409, current_status: current, ...extra });

export const unknownProvider = (kind: 'payment provider' | 'carrier', name: string) =>
  new OrdersError(kind === 'carrier' ? 'UNKNOWN_CARRIER' : 'UNKNOWN_PROVIDER', `No ${kind} module "${name}" is installed for this tenant (or orders may not call it).`, {
    status: 422,
    errors: { [kind === 'carrier' ? 'carrier_module' : 'provider_module']: [`unknown ${kind} module "${name}"`] },
  });

export const providerFailed = (name: string, message: string) =>
  new OrdersError('PROVIDER_ERROR', `The ${name} module failed: ${message}`, { status: 502, provider_module: name });

/** A compare-and-set lost to a concurrent writer: the transaction is run again. */
export class Retry extends Error {
  constructor() {
    super('concurrent update; retry');
  }
}

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
