/**
 * Business errors of the reseller catalog. A thrown value carrying `code` becomes a typed bus error
 * {code, message, details}; `details.status` is the HTTP status. Every route of the module declares
 * error_shape "reseller", so the platform answers them as {error, code, details} (spec 3, Errors).
 */
export class CatalogError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CatalogError';
  }
}

/** Field-level validation: 422 with the field's messages under details.errors. */
export const invalid = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new CatalogError('VALIDATION_FAILED', message, { status: 422, errors: { [field]: [message] }, ...extra });

export const notFound = (what: string, id: string) => new CatalogError('NOT_FOUND', `${what} ${id} was not found.`, { status: 404, id });

/** Master products belong to the super admin's tenant (spec 3, Authentication 2). */
export const superAdminOnly = () =>
  new CatalogError('FORBIDDEN', "Master products are managed in the super admin's tenant (level 0 of the reseller network) only.", { status: 403 });

export const forbidden = (message: string, extra: Record<string, unknown> = {}) => new CatalogError('FORBIDDEN', message, { status: 403, ...extra });

export const insufficientStock = (items: Array<{ sku: string; master_product_id: string; requested: number; available: number }>) =>
  new CatalogError('INSUFFICIENT_STOCK', `Not enough stock for ${items.map((i) => i.sku).join(', ')}.`, { status: 422, items });

/**
 * Spec 3, Reseller product pricing: is_available false on a price row means the sub-reseller may not
 * buy the product; a chain order of it is refused where it would enter or move on in the chain.
 * `tenant_id` and `level` name the buyer it is unavailable to.
 */
export const productUnavailable = (buyer: { tenant_id: string; level: number | null }, products: Array<{ product_id: string; sku: string }>) =>
  new CatalogError('PRODUCT_UNAVAILABLE', `Not available to the reseller at level ${buyer.level}: ${products.map((p) => p.sku).join(', ')}.`, { status: 422, ...buyer, products });

/** Spec 3, Master product: open chain orders (stock reserved, not yet delivered or cancelled) hold it. */
export const productInUse = (product: { id: string; sku: string }, orders: Array<{ reference: string; order_number: string | null; quantity: number; reserved_at: string }>) =>
  new CatalogError('PRODUCT_IN_USE', `Master product ${product.sku} is held by ${orders.length} open chain order(s); set its status to inactive to withdraw it, and delete it once they are delivered or cancelled.`, {
    status: 409,
    product_id: product.id,
    sku: product.sku,
    orders,
  });

export const conflict = (message: string, extra: Record<string, unknown> = {}) => new CatalogError('CONFLICT', message, { status: 409, ...extra });

/** A compare-and-set lost to a concurrent writer: the transaction runs again on fresh values. */
export class Retry extends Error {
  constructor() {
    super('concurrent update; retry');
  }
}

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
