/**
 * The catalog's tables (data.models), in every tenant's own database:
 * - MasterProduct: only the super admin's tenant (level 0) writes rows (spec 3, Master product).
 * - Pricing: the prices THIS tenant set for its sub-resellers (spec 3, Reseller product pricing),
 *   so a price row lives with the tenant that set it; parent_tenant_id is always this tenant.
 * - Cost: this tenant's own cost of each product and the levels above it, as its parent last handed
 *   them down (./chain.ts); empty at level 0, which works costs out from its master products.
 * - StockReservation: what reserve_stock took per reference (level 0), so release_stock gives back
 *   exactly that, once; `reserved` until the chain order is delivered (`consumed`) or cancelled
 *   (`released`): a reserved row holds its master product against deletion (spec 3, Master product).
 */
import type { Column, Data } from '../../../sdk';

const NOW = { $fn: 'now' } as const;
const col = (type: Column['type'], options: Omit<Column, 'type'> = {}): Column => ({ type, ...options });

export type MasterProductRow = {
  id: string;
  owner_tenant_id: string;
  sku: string;
  name: string;
  description: string | null;
  base_cost: string;
  minimum_margin_percent: string;
  recommended_retail_price: string | null;
  stock_quantity: number;
  track_inventory: boolean;
  images: string[];
  attributes: Record<string, unknown>;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
};

export type PricingRow = {
  id: string;
  master_product_id: string;
  reseller_tenant_id: string;
  parent_tenant_id: string;
  margin_percent: string;
  cost_to_reseller: string;
  minimum_margin_percent: string;
  is_available: boolean;
  created_at: string;
  updated_at: string;
};

export type CostRow = {
  master_product_id: string;
  sku: string;
  name: string;
  product: import('./chain').ProductView;
  cost: string;
  is_available: boolean;
  minimum_margin_percent: string;
  breakdown: import('./chain').BreakdownRow[];
  stamps: number[];
  revision: number;
  updated_at: string;
};

export type ReservationRow = {
  id: string;
  reference: string;
  order_number: string | null;
  master_product_id: string;
  sku: string;
  quantity: number;
  status: 'reserved' | 'released' | 'consumed';
  created_at: string;
  updated_at: string;
};

export const data: Data = {
  models: {
    MasterProduct: {
      table: 'master_products',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        owner_tenant_id: col('string', { length: 36, nullable: false }),
        sku: col('string', { length: 100, nullable: false }),
        name: col('string', { length: 255, nullable: false }),
        description: col('text'),
        base_cost: col('decimal', { precision: 14, scale: 2, nullable: false }),
        minimum_margin_percent: col('decimal', { precision: 5, scale: 2, nullable: false, default: '0' }),
        recommended_retail_price: col('decimal', { precision: 14, scale: 2 }),
        stock_quantity: col('integer', { nullable: false, default: 0 }),
        track_inventory: col('boolean', { nullable: false, default: true }),
        images: col('json', { nullable: false, default: [] }),
        attributes: col('json', { nullable: false, default: {} }),
        status: col('string', { length: 20, nullable: false, default: 'active' }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [
        { name: 'master_products_owner_sku_unique', fields: ['owner_tenant_id', 'sku'], unique: true },
        { name: 'master_products_status', fields: ['status'] },
      ],
    },
    Pricing: {
      table: 'reseller_product_pricing',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        master_product_id: col('uuid', { nullable: false }),
        reseller_tenant_id: col('string', { length: 36, nullable: false }),
        parent_tenant_id: col('string', { length: 36, nullable: false }),
        margin_percent: col('decimal', { precision: 5, scale: 2, nullable: false }),
        cost_to_reseller: col('decimal', { precision: 14, scale: 2, nullable: false }),
        minimum_margin_percent: col('decimal', { precision: 5, scale: 2, nullable: false, default: '0' }),
        is_available: col('boolean', { nullable: false, default: true }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [
        { name: 'pricing_product_reseller_unique', fields: ['master_product_id', 'reseller_tenant_id'], unique: true },
        { name: 'pricing_reseller', fields: ['reseller_tenant_id'] },
      ],
    },
    Cost: {
      table: 'own_costs',
      columns: {
        master_product_id: col('uuid', { primaryKey: true }),
        sku: col('string', { length: 100, nullable: false }),
        name: col('string', { length: 255, nullable: false }),
        product: col('json', { nullable: false }),
        cost: col('decimal', { precision: 14, scale: 2, nullable: false }),
        is_available: col('boolean', { nullable: false, default: true }),
        minimum_margin_percent: col('decimal', { precision: 5, scale: 2, nullable: false, default: '0' }),
        breakdown: col('json', { nullable: false, default: [] }),
        stamps: col('json', { nullable: false, default: [] }),
        revision: col('integer', { nullable: false, default: 1 }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ name: 'own_costs_sku', fields: ['sku'] }],
    },
    StockReservation: {
      table: 'stock_reservations',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        reference: col('string', { length: 100, nullable: false }),
        /** The chain order's origin order number, to name it when it holds a product against deletion. */
        order_number: col('string', { length: 100 }),
        master_product_id: col('uuid', { nullable: false }),
        sku: col('string', { length: 100, nullable: false }),
        quantity: col('integer', { nullable: false }),
        status: col('string', { length: 20, nullable: false, default: 'reserved' }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ name: 'stock_reservations_reference_product_unique', fields: ['reference', 'master_product_id'], unique: true }],
    },
  },
};
