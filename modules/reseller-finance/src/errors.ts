/**
 * Business errors of reseller-finance, one catalog (listed in docs/reference/error-codes.md). Routes
 * answer them in the reseller shape `{error, code, details}` (spec 3, Errors); `details.status` is the
 * HTTP status.
 */
import { defineErrors } from '../../../sdk';

export const financeErrors = defineErrors('reseller-finance', {
  notFound: { code: 'NOT_FOUND', status: 404, message: (what: string, id: string) => `${what} ${id} was not found.`, details: (_what, id) => ({ id }) },
  /** Spec 3, States: only a pending remittance may be processed. */
  invalidStatus: {
    code: 'INVALID_STATUS', status: 422,
    doc: 'Only a pending remittance can be processed; details.current_status names its status.',
    message: (id: string, current: string) => `Remittance ${id} is ${current}; only a pending remittance can be processed.`,
    details: (_id, current) => ({ current_status: current }),
  },
  /** Spec 3, Errors: INSUFFICIENT_BALANCE (details required, available). */
  insufficientBalance: {
    code: 'INSUFFICIENT_BALANCE', status: 422,
    doc: 'The wallet cannot cover the amount (available balance plus credit limit; a payout takes only the available balance); details.required and details.available give both.',
    message: (required: string, available: string) => `The wallet can cover ${available} (available balance plus credit limit); ${required} is required.`,
    details: (required, available) => ({ required, available }),
  },
  /** README, Payouts: a payout takes only what the wallet has available (no credit limit), else nothing is written. */
  payoutTooLarge: {
    code: 'INSUFFICIENT_BALANCE', status: 422,
    message: (required: string, available: string) => `The wallet has ${available} available; a payout of ${required} cannot be made.`,
    details: (required, available) => ({ required, available }),
  },
  /** README, Top-ups and payouts: one bank reference is one transfer; sent again with other details it is refused. */
  duplicateReference: {
    code: 'DUPLICATE_REFERENCE', status: 409,
    doc: 'A top-up or payout with that bank reference is recorded already with other details.',
    message: (kind: string, reference: string, _id: string) => `A ${kind} with bank reference ${reference} is already recorded with other details.`,
    details: (_kind, reference, id) => ({ bank_reference: reference, id }),
  },
  /** README, Statements: from ≤ to, whole UTC days, at most a year and a day. */
  invalidPeriod: {
    code: 'INVALID_PERIOD', status: 422,
    doc: 'The statement period is invalid: from after to, not whole UTC days, or longer than a year and a day.',
    message: (reason: string, _from: string, _to: string) => `The statement period is invalid: ${reason}.`,
    details: (_reason, from, to) => ({ from, to }),
  },
  /** A delivered order is reversed only while none of its remittances is being paid (README: returns and refunds). */
  reversalWaits: {
    code: 'REVERSAL_WAITS', status: 409,
    doc: 'A remittance of the chain order is being paid; the reversal runs once it is completed or released.',
    message: (chainRef: string) => `A remittance of chain order ${chainRef} is being paid; the reversal runs once it is completed or released.`,
    details: (chainRef) => ({ chain_ref: chainRef }),
  },
  remittanceCancelled: {
    code: 'REMITTANCE_CANCELLED', status: 422,
    doc: 'The remittance was cancelled: its order was returned or refunded.',
    message: (chainRef: string) => `The remittance of chain order ${chainRef} was cancelled: its order was returned or refunded.`,
    details: (chainRef) => ({ chain_ref: chainRef }),
  },
  amountMismatch: {
    code: 'AMOUNT_MISMATCH', status: 422,
    doc: 'A payment item names another amount than its remittance is for.',
    message: (expected: string, given: string) => `The remittance is for ${expected}, not ${given}.`,
  },
  notPayer: { code: 'FORBIDDEN', status: 403, message: (id: string) => `Remittance ${id} is paid by the other tenant; only the payer processes it.`, details: (id) => ({ id }) },
  onlyModule: { code: 'FORBIDDEN', status: 403, message: (operation: string) => `${operation} is called by the reseller_orders module only.` },
  onlyRelated: { code: 'FORBIDDEN', status: 403, message: (operation: string) => `${operation} is called by a related tenant's reseller_finance only.` },
  superAdminOnly: { code: 'FORBIDDEN', status: 403, message: () => 'This endpoint is for the super admin (the level-0 tenant) only.' },
  notDirectChild: {
    code: 'UNAUTHORIZED_CONTEXT', status: 403,
    message: (tenantId: string) => `Tenant ${tenantId} is not a direct sub-reseller of this tenant.`,
    details: (tenantId) => ({ target_tenant: tenantId }),
  },
  /** A wallet or remittance changed under us: the transaction is run again on fresh values. */
  contended: {
    code: 'FINANCE_CONTENDED', status: 409,
    doc: 'A wallet or remittance changed between its read and its write; retried inside the module, it reaches a caller only as FINANCE_BUSY.',
    message: () => 'The wallet changed meanwhile.',
  },
  busy: { code: 'FINANCE_BUSY', status: 409, doc: 'The wallet kept changing under concurrent writers; retry.', message: () => 'The wallet is being changed concurrently; retry.' },
});

export const {
  notFound, invalidStatus, insufficientBalance, payoutTooLarge, duplicateReference, invalidPeriod, reversalWaits, remittanceCancelled,
  notPayer, onlyModule, onlyRelated, superAdminOnly, contended, busy,
} = financeErrors;

/** The catalog's code for a lost compare-and-set, which the transaction is run again on. */
export const CONTENDED = contended().code;

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
export function messageOf(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string' ? (err as { message: string }).message : String(err);
}
