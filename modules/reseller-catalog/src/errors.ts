/**
 * Business errors of the reseller catalog, one catalog (listed in docs/reference/error-codes.md). A
 * thrown one becomes a typed bus error {code, message, details}; `details.status` is the HTTP status.
 * Every route of the module declares error_shape "reseller", so the platform answers them as
 * {error, code, details} (spec 3, Errors).
 */
import { defineErrors } from '../../../sdk';

type Extra = Record<string, unknown>;
type Short = { sku: string; master_product_id: string; requested: number; available: number };
type Holding = { reference: string; order_number: string | null; quantity: number; reserved_at: string };

export const catalogErrors = defineErrors('reseller-catalog', {
  /** Field-level validation: 422 with the field's messages under details.errors. */
  invalid: {
    code: 'VALIDATION_FAILED', status: 422,
    message: (_field: string, message: string, _extra: Extra = {}) => message,
    details: (field, message, extra = {}) => ({ errors: { [field]: [message] }, ...extra }),
  },
  notFound: { code: 'NOT_FOUND', status: 404, message: (what: string, id: string) => `${what} ${id} was not found.`, details: (_what, id) => ({ id }) },
  unknownSkus: { code: 'NOT_FOUND', status: 404, message: (skus: string[]) => `Unknown product SKU: ${skus.join(', ')}.`, details: (skus) => ({ skus }) },
  /** Master products belong to the super admin's tenant (spec 3, Authentication 2). */
  superAdminOnly: { code: 'FORBIDDEN', status: 403, message: () => "Master products are managed in the super admin's tenant (level 0 of the reseller network) only." },
  forbidden: { code: 'FORBIDDEN', status: 403, message: (message: string, _extra: Extra = {}) => message, details: (_message, extra = {}) => extra },
  insufficientStock: {
    code: 'INSUFFICIENT_STOCK', status: 422,
    doc: 'Not enough stock of the master products; details.items gives each one requested and available.',
    message: (items: Short[]) => `Not enough stock for ${items.map((i) => i.sku).join(', ')}.`,
    details: (items) => ({ items }),
  },
  /**
   * Spec 3, Reseller product pricing: is_available false on a price row means the sub-reseller may not
   * buy the product; a chain order of it is refused where it would enter or move on in the chain.
   * `tenant_id` and `level` name the buyer it is unavailable to.
   */
  productUnavailable: {
    code: 'PRODUCT_UNAVAILABLE', status: 422,
    doc: 'A product of the chain order is not available to the reseller (is_available false); details name the buyer and products.',
    message: (buyer: { tenant_id: string; level: number | null }, products: Array<{ product_id: string; sku: string }>) => `Not available to the reseller at level ${buyer.level}: ${products.map((p) => p.sku).join(', ')}.`,
    details: (buyer, products) => ({ ...buyer, products }),
  },
  /** Spec 3, Master product: open chain orders (stock reserved, not yet delivered or cancelled) hold it. */
  productInUse: {
    code: 'PRODUCT_IN_USE', status: 409,
    doc: 'Open chain orders hold the master product; set it inactive to withdraw it, and delete it once they end (details.orders).',
    message: (product: { id: string; sku: string }, orders: Holding[]) => `Master product ${product.sku} is held by ${orders.length} open chain order(s); set its status to inactive to withdraw it, and delete it once they are delivered or cancelled.`,
    details: (product, orders) => ({ product_id: product.id, sku: product.sku, orders }),
  },
  conflict: { code: 'CONFLICT', status: 409, message: (message: string, _extra: Extra = {}) => message, details: (_message, extra = {}) => extra },
  marginBelowMinimum: {
    code: 'MARGIN_BELOW_MINIMUM', status: 422,
    doc: "The margin is below the product's minimum_margin_percent for this level.",
    message: (minimum: string | number, _margin: string | number) => `The margin_percent must be at least ${minimum} for this product.`,
    details: (minimum, margin) => ({ errors: { margin_percent: [`must be at least ${minimum}`] }, minimum_margin_percent: minimum, margin_percent: margin }),
  },
  stockBusy: { code: 'STOCK_BUSY', status: 409, doc: 'The stock kept changing under concurrent writers; retry.', message: () => 'The stock is being changed concurrently; retry.' },
});

export const { invalid, notFound, superAdminOnly, forbidden, insufficientStock, productUnavailable, productInUse, conflict } = catalogErrors;

/** A compare-and-set lost to a concurrent writer: the transaction runs again on fresh values. */
export class Retry extends Error {
  constructor() {
    super('concurrent update; retry');
  }
}

export function codeOf(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}
