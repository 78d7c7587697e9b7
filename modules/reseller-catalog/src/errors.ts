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
