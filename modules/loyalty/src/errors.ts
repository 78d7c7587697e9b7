/**
 * Business errors of the loyalty module. The platform turns a thrown value carrying `code` into a
 * typed bus error {code, message, details} and answers HTTP with `details.status` (400 when absent).
 */
export class LoyaltyError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'LoyaltyError';
  }
}

export const insufficientPoints = (customerId: string, available: number, requested: number) =>
  new LoyaltyError('INSUFFICIENT_POINTS', `Customer ${customerId} has ${available} points; ${requested} are needed.`, {
    status: 422,
    available,
    requested,
  });

export const invalidOrder = (message: string, orderId?: string) =>
  new LoyaltyError('INVALID_ORDER', message, { status: 422, ...(orderId === undefined ? {} : { order_id: orderId }) });

/** Too many concurrent writers on one balance: the caller may simply retry. */
export const busy = (customerId: string) =>
  new LoyaltyError('LOYALTY_BUSY', `The balance of customer ${customerId} is being changed concurrently; retry.`, { status: 409 });

/** The code of a thrown value (host errors and ours carry one). */
export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
