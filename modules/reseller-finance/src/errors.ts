/**
 * Business errors of reseller-finance. Routes answer them in the reseller shape
 * `{error, code, details}` (spec 3, Errors); `details.status` is the HTTP status.
 */
export class FinanceError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'FinanceError';
  }
}

export const notFound = (what: string, id: string) => new FinanceError('NOT_FOUND', `${what} ${id} was not found.`, { status: 404, id });

/** Spec 3, States: only a pending remittance may be processed. */
export const invalidStatus = (id: string, current: string) =>
  new FinanceError('INVALID_STATUS', `Remittance ${id} is ${current}; only a pending remittance can be processed.`, { status: 422, current_status: current });

/** Spec 3, Errors: INSUFFICIENT_BALANCE (details required, available). */
export const insufficientBalance = (required: string, available: string) =>
  new FinanceError('INSUFFICIENT_BALANCE', `The wallet can cover ${available} (available balance plus credit limit); ${required} is required.`, {
    status: 422,
    required,
    available,
  });

/** README, Payouts: a payout takes only what the wallet has available (no credit limit), else nothing is written. */
export const payoutTooLarge = (required: string, available: string) =>
  new FinanceError('INSUFFICIENT_BALANCE', `The wallet has ${available} available; a payout of ${required} cannot be made.`, { status: 422, required, available });

/** README, Top-ups and payouts: one bank reference is one transfer; sent again with other details it is refused. */
export const duplicateReference = (kind: string, reference: string, id: string) =>
  new FinanceError('DUPLICATE_REFERENCE', `A ${kind} with bank reference ${reference} is already recorded with other details.`, { status: 409, bank_reference: reference, id });

/** README, Statements: from ≤ to, whole UTC days, at most a year and a day. */
export const invalidPeriod = (reason: string, from: string, to: string) =>
  new FinanceError('INVALID_PERIOD', `The statement period is invalid: ${reason}.`, { status: 422, from, to });

/** A delivered order is reversed only while none of its remittances is being paid (README: returns and refunds). */
export const reversalWaits = (chainRef: string) =>
  new FinanceError('REVERSAL_WAITS', `A remittance of chain order ${chainRef} is being paid; the reversal runs once it is completed or released.`, { status: 409, chain_ref: chainRef });

export const remittanceCancelled = (chainRef: string) =>
  new FinanceError('REMITTANCE_CANCELLED', `The remittance of chain order ${chainRef} was cancelled: its order was returned or refunded.`, { status: 422, chain_ref: chainRef });

export const notPayer = (id: string) =>
  new FinanceError('FORBIDDEN', `Remittance ${id} is paid by the other tenant; only the payer processes it.`, { status: 403, id });

export const onlyModule = (operation: string) =>
  new FinanceError('FORBIDDEN', `${operation} is called by the reseller_orders module only.`, { status: 403 });

export const onlyRelated = (operation: string) =>
  new FinanceError('FORBIDDEN', `${operation} is called by a related tenant's reseller_finance only.`, { status: 403 });

export const superAdminOnly = () =>
  new FinanceError('FORBIDDEN', 'This endpoint is for the super admin (the level-0 tenant) only.', { status: 403 });

/** A wallet or remittance changed under us: the transaction is run again on fresh values. */
export const CONTENDED = 'FINANCE_CONTENDED';
export const contended = () => new FinanceError(CONTENDED, 'The wallet changed meanwhile.', { status: 409 });
export const busy = () => new FinanceError('FINANCE_BUSY', 'The wallet is being changed concurrently; retry.', { status: 409 });

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
export function messageOf(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string' ? (err as { message: string }).message : String(err);
}
