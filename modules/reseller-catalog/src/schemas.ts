/** Schemas shared by the catalog's operations (TypeBox; the manifest is generated from them). */
import { Type } from '../../../sdk';

export const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$', description: 'a UUID' });
/** Money in: a decimal string or a number, at most 2 decimals (checked by money.ts, which names the field). */
export const MoneyIn = Type.Union([Type.String({ maxLength: 20 }), Type.Number()]);
/** Percent in: a number (a decimal string is accepted too), at most 2 decimals. */
export const PercentIn = Type.Union([Type.Number(), Type.String({ maxLength: 10 })]);
export const Money = Type.String({ description: 'decimal string with 2 places, e.g. "1388.88"' });
export const Sku = Type.String({ minLength: 1, maxLength: 100 });
export const TenantRef = Type.String({ minLength: 1, maxLength: 63, description: 'tenant id (or alias)' });

export const Pagination = Type.Object({ current_page: Type.Integer(), last_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() });

export const MasterProduct = Type.Object({
  id: Type.String(),
  owner_tenant_id: Type.String(),
  sku: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  base_cost: Money,
  minimum_margin_percent: Type.Number(),
  recommended_retail_price: Type.Union([Money, Type.Null()]),
  stock_quantity: Type.Integer(),
  track_inventory: Type.Boolean(),
  images: Type.Array(Type.String()),
  attributes: Type.Record(Type.String(), Type.Unknown()),
  status: Type.String(),
  resellers_count: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const CatalogProduct = Type.Object({
  id: Type.String(),
  sku: Type.String(),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  your_cost: Money,
  minimum_margin_percent: Type.Number({ description: 'the least margin you may set for your sub-resellers' }),
  suggested_selling_price: Money,
  available_stock: Type.Union([Type.Integer(), Type.Null()], { description: 'null when the product does not track inventory' }),
  is_available: Type.Boolean(),
  images: Type.Array(Type.String()),
  attributes: Type.Record(Type.String(), Type.Unknown()),
});

export const BreakdownRow = Type.Object({
  level: Type.Integer(),
  tenant_id: Type.String(),
  tenant_name: Type.String(),
  cost: Money,
  margin_percent: Type.Number(),
  margin_amount: Money,
  selling_price: Money,
});

/** Items of quote and reserve_stock (cross-module operations for reseller_orders). */
export const StockItems = Type.Array(
  Type.Object({ sku: Sku, quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }) }, { additionalProperties: false }),
  { minItems: 1, maxItems: 200 },
);
