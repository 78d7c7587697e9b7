/**
 * Business errors of reseller-orders, one catalog (listed in docs/reference/error-codes.md), answered
 * as {error, code, details} (spec 3, Errors); `details.status` is the HTTP status.
 */
import { defineErrors } from '../../../sdk';

type Paid = { payment_status: string; amount_paid: string; total: string };

export const chainErrors = defineErrors('reseller-orders', {
  notFound: { code: 'NOT_FOUND', status: 404, message: (id: string) => `Chain order ${id} was not found.`, details: (id) => ({ id }) },
  propagationNotFound: { code: 'NOT_FOUND', status: 404, message: (id: string) => `Propagation ${id} was not found.`, details: (id) => ({ id }) },
  invoiceNotFound: { code: 'NOT_FOUND', status: 404, message: (id: string) => `Invoice ${id} was not found on this chain order.`, details: (id) => ({ id }) },
  /** Spec 3, Errors: INVALID_STATUS (details current_status). */
  invalidStatus: {
    code: 'INVALID_STATUS', status: 422,
    doc: 'The chain order is in a status the action does not apply to; details.current_status names it and details.allowed the statuses it must be in.',
    message: (action: string, current: string, allowed: readonly string[]) => `A chain order that is ${current} cannot be ${action}; it must be ${allowed.join(' or ')}.`,
    details: (_action, current, allowed) => ({ current_status: current, allowed }),
  },
  noParent: { code: 'NO_PARENT', status: 422, doc: 'The tenant is at the top of the chain: it accepts the order instead of forwarding it.', message: () => 'This tenant is at the top of the chain: accept the order instead of forwarding it.' },
  notTop: { code: 'NOT_TOP', status: 422, doc: 'Only the top of the chain (the level-0 tenant, which holds the stock) accepts orders.', message: () => 'Only the top of the chain (the level-0 tenant, which holds the stock) accepts orders; forward it.' },
  notCatalogOrder: {
    code: 'NOT_CATALOG_ORDER', status: 422,
    doc: 'An item of the order carries no master-product SKU; details.skus lists them.',
    message: (skus: string[]) => `Every item of a chain order must carry a master-product SKU; missing or unknown: ${skus.join(', ') || '(no SKU)'}.`,
    details: (skus) => ({ skus }),
  },
  currencyNotSettled: {
    code: 'CURRENCY_NOT_SETTLED', status: 422,
    doc: 'The order is in another currency than the reseller network settles in.',
    message: (currency: string, settlement: string) => `The reseller network settles in ${settlement}; an order in ${currency} cannot enter the chain.`,
    details: (currency, settlement) => ({ currency, settlement_currency: settlement }),
  },
  /** A prepaid order is delivered (and its money credited at the top) only once the origin records it paid (spec 3, Order payment). */
  paymentPending: {
    code: 'PAYMENT_PENDING', status: 422,
    doc: 'A prepaid chain order is delivered only once the origin records it paid in full; details give what is paid.',
    message: (paid: Paid) => `This prepaid order is ${paid.payment_status}: ${paid.amount_paid} of ${paid.total} paid at the origin; it is delivered once paid in full.`,
    details: (paid) => ({ ...paid }),
  },
  onlyRelated: { code: 'FORBIDDEN', status: 403, message: (op: string) => `${op} is called by a related tenant's reseller_orders only.` },
  forbidden: { code: 'FORBIDDEN', status: 403, message: (message: string) => message },
  invalidRefund: { code: 'VALIDATION_FAILED', status: 422, message: () => 'The refund must be a positive amount within the total refunded, itself within the customer total.' },
  notDelivered: {
    code: 'NOT_DELIVERED', status: 409,
    doc: 'The chain order is not delivered at this level, so it has no invoice yet.',
    message: (chainRef: string, current: string) => `Chain order ${chainRef} is ${current} here: it has no invoice yet.`,
    details: (_chainRef, current) => ({ current_status: current }),
  },
  originRefused: {
    code: 'ORIGIN_ORDER_REFUSED', status: 409,
    doc: "The origin's order refused the state the chain handed it (details.cause: its code and current_status).",
    message: (step: string, cause: { code: unknown; message: string; current_status: string | null }) => `The origin's order cannot be ${step}: ${cause.message}`,
    details: (_step, cause) => ({ cause: { code: cause.code, current_status: cause.current_status } }),
  },
  /** A retried propagation that still did not reach the level below: 502, the other tenant failed (details: the propagation as it is now, and why). */
  propagationFailed: {
    code: 'PROPAGATION_FAILED', status: 502,
    doc: 'A retried propagation still did not reach the level below; details give the propagation and the cause code.',
    message: (_propagation: Record<string, unknown>, cause: unknown) => `The state could not be handed to the level below: ${(cause as { message?: string })?.message ?? String(cause)}`,
    details: (propagation, cause) => ({ propagation, cause: { code: codeOf(cause) ?? null } }),
  },
});

export const { notFound, invalidStatus, noParent, notTop, notCatalogOrder, currencyNotSettled, paymentPending, onlyRelated, propagationNotFound, propagationFailed } = chainErrors;

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
