/**
 * Business errors of the loyalty module, one catalog (listed in docs/reference/error-codes.md). A
 * thrown one becomes a typed bus error {code, message, details} and the platform answers HTTP with
 * `details.status`.
 */
import { defineErrors } from '../../../sdk';

export const loyaltyErrors = defineErrors('loyalty', {
  insufficientPoints: {
    code: 'INSUFFICIENT_POINTS', status: 422,
    doc: 'The customer has fewer points than the redemption needs; details.available and details.requested give both.',
    message: (customerId: string, available: number, requested: number) => `Customer ${customerId} has ${available} points; ${requested} are needed.`,
    details: (_customerId, available, requested) => ({ available, requested }),
  },
  invalidOrder: {
    code: 'INVALID_ORDER', status: 422,
    doc: 'The order cannot earn or pay points (missing, of another customer, or not in a status that earns).',
    message: (message: string, _orderId?: string) => message,
    details: (_message, orderId) => (orderId === undefined ? {} : { order_id: orderId }),
  },
  /** A balance changed between its read and its write: the transaction runs again. */
  contended: {
    code: 'LOYALTY_CONTENDED', status: 409,
    doc: 'A balance changed between its read and its write; retried inside the module, it reaches a caller only as LOYALTY_BUSY.',
    message: () => 'the balance changed meanwhile',
  },
  /** Too many concurrent writers on one balance: the caller may simply retry. */
  busy: {
    code: 'LOYALTY_BUSY', status: 409,
    doc: "The customer's balance kept changing under concurrent writers; retry.",
    message: (customerId: string) => `The balance of customer ${customerId} is being changed concurrently; retry.`,
  },
});

export const { insufficientPoints, invalidOrder, busy } = loyaltyErrors;

/** The code of a thrown value (host errors and ours carry one). */
export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
