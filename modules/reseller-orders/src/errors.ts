/** Business errors of reseller-orders, answered as {error, code, details} (spec 3, Errors). */
export class ChainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ChainError';
  }
}

export const notFound = (id: string) => new ChainError('NOT_FOUND', `Chain order ${id} was not found.`, { status: 404, id });

/** Spec 3, Errors: INVALID_STATUS (details current_status). */
export const invalidStatus = (action: string, current: string, allowed: readonly string[]) =>
  new ChainError('INVALID_STATUS', `A chain order that is ${current} cannot be ${action}; it must be ${allowed.join(' or ')}.`, {
    status: 422,
    current_status: current,
    allowed,
  });

export const noParent = () => new ChainError('NO_PARENT', 'This tenant is at the top of the chain: accept the order instead of forwarding it.', { status: 422 });
export const notTop = () => new ChainError('NOT_TOP', 'Only the top of the chain (the level-0 tenant, which holds the stock) accepts orders; forward it.', { status: 422 });
export const notCatalogOrder = (skus: string[]) =>
  new ChainError('NOT_CATALOG_ORDER', `Every item of a chain order must carry a master-product SKU; missing or unknown: ${skus.join(', ') || '(no SKU)'}.`, { status: 422, skus });
export const currencyNotSettled = (currency: string, settlement: string) =>
  new ChainError('CURRENCY_NOT_SETTLED', `The reseller network settles in ${settlement}; an order in ${currency} cannot enter the chain.`, { status: 422, currency, settlement_currency: settlement });
/** A prepaid order is delivered (and its money credited at the top) only once the origin records it paid (spec 3, Order payment). */
export const paymentPending = (paid: { payment_status: string; amount_paid: string; total: string }) =>
  new ChainError('PAYMENT_PENDING', `This prepaid order is ${paid.payment_status}: ${paid.amount_paid} of ${paid.total} paid at the origin; it is delivered once paid in full.`, { status: 422, ...paid });
export const onlyRelated = (op: string) => new ChainError('FORBIDDEN', `${op} is called by a related tenant's reseller_orders only.`, { status: 403 });

export const propagationNotFound = (id: string) => new ChainError('NOT_FOUND', `Propagation ${id} was not found.`, { status: 404, id });
/** A retried propagation that still did not reach the level below: 502, the other tenant failed (details: the propagation as it is now, and why). */
export const propagationFailed = (propagation: Record<string, unknown>, cause: unknown) =>
  new ChainError('PROPAGATION_FAILED', `The state could not be handed to the level below: ${(cause as { message?: string })?.message ?? String(cause)}`, { status: 502, propagation, cause: { code: codeOf(cause) ?? null } });

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
