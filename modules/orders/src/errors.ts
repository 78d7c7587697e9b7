/**
 * Business errors of the orders module, one catalog (listed in docs/reference/error-codes.md). A thrown
 * one becomes a typed bus error {code, message, details}; `details.status` is the HTTP status (spec 3
 * leaves the orders error envelope unshown, so the platform shape {message, code, details} applies).
 */
import { defineErrors } from '../../../sdk';

type FieldErrors = Record<string, string[]>;
type ProviderKind = 'payment provider' | 'carrier';

export const ordersErrors = defineErrors('orders', {
  notFound: { code: 'NOT_FOUND', status: 404, message: (what: string, id: string) => `${what} ${id} was not found.`, details: (_what, id) => ({ id }) },
  /** Field-level validation, in the platform's 422 shape (errors keyed by field). */
  invalid: { code: 'VALIDATION_FAILED', status: 422, message: (_field: string, message: string) => message, details: (field, message) => ({ errors: { [field]: [message] } }) },
  invalidFields: { code: 'VALIDATION_FAILED', status: 422, message: (message: string, _errors: FieldErrors) => message, details: (_message, errors) => ({ errors }) },
  invalidStatus: {
    code: 'INVALID_STATUS', status: 409,
    doc: "The order (or import) is in a status the action does not apply to; details.current_status names it.",
    message: (message: string, _current: string, _extra: Record<string, unknown> = {}) => message,
    details: (_message, current, extra = {}) => ({ current_status: current, ...extra }),
  },
  unknownProvider: {
    code: 'UNKNOWN_PROVIDER', status: 422,
    doc: 'No payment provider module of that name is installed for the tenant, or orders may not call it.',
    message: (name: string) => unknownMessage('payment provider', name),
    details: (name) => ({ errors: { provider_module: [`unknown payment provider module "${name}"`] } }),
  },
  unknownCarrier: {
    code: 'UNKNOWN_CARRIER', status: 422,
    doc: 'No carrier module of that name is installed for the tenant, or orders may not call it.',
    message: (name: string) => unknownMessage('carrier', name),
    details: (name) => ({ errors: { carrier_module: [`unknown carrier module "${name}"`] } }),
  },
  providerFailed: {
    code: 'PROVIDER_ERROR', status: 502,
    doc: 'The payment provider or carrier module failed; details.provider_module names it.',
    message: (name: string, message: string) => `The ${name} module failed: ${message}`,
    details: (name) => ({ provider_module: name }),
  },
  modulesOnly: { code: 'FORBIDDEN', status: 403, message: (operation: string) => `${operation} is called by modules only: ship through a carrier module (POST /orders/{order}/ship).` },
  busy: {
    code: 'ORDERS_BUSY', status: 409,
    doc: 'The order (or webhook endpoint) kept changing under concurrent writers; retry.',
    message: (message: string = 'The order is being changed concurrently; retry.') => message,
  },
  invalidFile: {
    code: 'INVALID_FILE', status: 422,
    doc: 'The import CSV lacks required columns; details.missing names them.',
    message: (missing: string[], expected: readonly string[]) => `The CSV header lacks the required column(s) ${missing.join(', ')}; expected columns: ${expected.join(', ')}.`,
    details: (missing) => ({ missing }),
  },
  duplicateFieldKey: {
    code: 'DUPLICATE_FIELD_KEY', status: 409,
    doc: 'A custom field with that key exists already.',
    message: (key: string) => `A custom field with the key "${key}" already exists.`,
    details: () => ({ errors: { field_key: ['already taken'] } }),
  },
  duplicateOrderNumber: {
    code: 'DUPLICATE_ORDER_NUMBER', status: 409,
    doc: 'An order with that order_number exists already.',
    message: (number: string) => `An order numbered ${number} already exists.`,
    details: () => ({ errors: { order_number: ['already taken'] } }),
  },
  orderHasRecords: {
    code: 'ORDER_HAS_RECORDS', status: 409,
    doc: 'The order has payments, shipments or invoices and cannot be deleted; cancel it instead.',
    message: (orderNumber: string, model: string) => `Order ${orderNumber} has ${model.toLowerCase()}s and cannot be deleted; cancel it instead.`,
  },
  creditExceedsTotal: {
    code: 'CREDIT_EXCEEDS_TOTAL', status: 422,
    doc: 'A credit note for more than the order total not yet credited; details.creditable is the most.',
    message: (amount: string, open: string, orderNumber: string) => `A credit note of ${amount} is more than the ${open} of order ${orderNumber} not yet credited.`,
    details: (_amount, open) => ({ creditable: open, errors: { amount: [`at most ${open}`] } }),
  },
  duplicatePayment: {
    code: 'DUPLICATE_PAYMENT', status: 409,
    doc: "The provider's payment is recorded already; details.payment_id names it.",
    message: (externalId: string, provider: string, _paymentId: string) => `Payment ${externalId} of ${provider} is already recorded.`,
    details: (_externalId, _provider, paymentId) => ({ payment_id: paymentId }),
  },
  nothingDue: {
    code: 'NOTHING_DUE', status: 409,
    doc: 'The order has no balance due, so no payment link is made.',
    message: (orderNumber: string, _balanceDue: string) => `Order ${orderNumber} has no balance due.`,
    details: (_orderNumber, balanceDue) => ({ balance_due: balanceDue }),
  },
  refundExceedsPayment: {
    code: 'REFUND_EXCEEDS_PAYMENT', status: 422,
    doc: 'The refund is more than the payment has left to refund; details.refundable is the most.',
    message: (amount: string, refundable: string, paymentId: string) => `The refund of ${amount} is more than the ${refundable} left to refund on payment ${paymentId}.`,
    details: (_amount, refundable) => ({ refundable, errors: { amount: [`at most ${refundable}`] } }),
  },
  refundMismatch: {
    code: 'REFUND_MISMATCH', status: 409,
    doc: "The provider reported a refund under another external id than the one recorded.",
    message: (refundId: string, recorded: string | null, provider: string, reported: string | undefined) => `Refund ${refundId} is ${recorded} at ${provider}, not ${reported}.`,
    details: (refundId) => ({ refund_id: refundId }),
  },
  duplicateAwb: {
    code: 'DUPLICATE_AWB', status: 409,
    doc: "The carrier's AWB number is used by a shipment already.",
    message: (awb: string, carrier: string) => `AWB ${awb} of ${carrier} is already used by a shipment.`,
    details: () => ({ errors: { awb_number: ['already used'] } }),
  },
  itemsAlreadyShipped: {
    code: 'ITEMS_ALREADY_SHIPPED', status: 409,
    doc: 'Items named for a shipment are in another one already; details.order_item_ids lists them.',
    message: (ids: string[]) => `Items ${ids.join(', ')} are already in a shipment.`,
    details: (ids) => ({ order_item_ids: ids }),
  },
  /** A bulk action's per-order result when the order failed with no code of its own. */
  internal: {
    code: 'INTERNAL_ERROR', status: 500,
    doc: "One order of a bulk action failed unexpectedly (the order's result, the others go on).",
    message: (message: string) => message,
  },
  nothingToShip: {
    code: 'NOTHING_TO_SHIP', status: 409,
    doc: 'Every item of the order is shipped already.',
    message: (orderNumber: string) => `Every item of order ${orderNumber} is already shipped.`,
  },
});

function unknownMessage(kind: ProviderKind, name: string): string {
  return `No ${kind} module "${name}" is installed for this tenant (or orders may not call it).`;
}

export const { notFound, invalid, invalidStatus, providerFailed } = ordersErrors;

export const unknownProvider = (kind: ProviderKind, name: string) => (kind === 'carrier' ? ordersErrors.unknownCarrier(name) : ordersErrors.unknownProvider(name));

/** A compare-and-set lost to a concurrent writer: the transaction is run again. */
export class Retry extends Error {
  constructor() {
    super('concurrent update; retry');
  }
}

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
