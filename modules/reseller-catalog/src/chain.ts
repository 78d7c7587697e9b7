/**
 * The cascade (spec 3, Reseller product pricing): what a product costs THIS tenant, and (for the
 * breakdown) what it cost every level above. Data crosses tenants only through the related-tenant
 * call, one level at a time: a tenant asks its direct parent (`reseller_catalog.child_costs`), which
 * works out its own cost the same way (up to level 0, where the cost is base_cost), applies the
 * margin it set for the asking sub-reseller (its Pricing row, or default_auto_markup when it set
 * none: auto_inherit_pricing) and answers the sub-reseller's cost only. The levels' costs travel
 * down only when the breakdown is asked for, which the viewer's module does for a user holding
 * catalog.view_costs (see README, "Who sees what").
 */
import { related, type HandlerContext } from '../../../sdk';
import { CONSTANTS } from './constants';
import { forbidden } from './errors';
import { D, marked, pct, str, type Dec } from './money';
import type { MasterProductRow, PricingRow } from './models';

/** A product as a reseller sees it: never another level's cost. */
export interface ProductView {
  id: string;
  sku: string;
  name: string;
  description: string | null;
  recommended_retail_price: string | null;
  images: string[];
  attributes: Record<string, unknown>;
  track_inventory: boolean;
  available_stock: number | null;
  status: string;
}

/** One level of the breakdown (spec 3): level 0 is the super admin. */
export interface BreakdownRow {
  level: number;
  tenant_id: string;
  tenant_name: string;
  cost: string;
  margin_percent: number;
  margin_amount: string;
  selling_price: string;
}

/** A product's cost for one tenant, as its parent (or the master catalog) answers it. */
export interface CostLine {
  product: ProductView;
  /** Money string: the tenant's cost. */
  cost: string;
  is_available: boolean;
  /** The least margin this tenant may set for its own sub-resellers (percent). */
  minimum_margin_percent: number;
  /** Levels above the tenant, 0 first; only when asked for. */
  breakdown?: BreakdownRow[];
}

/** Which products: ids, SKUs, or every product (null). */
export interface ProductRefs {
  ids?: string[];
  skus?: string[];
}

export interface Self {
  id: string;
  name: string;
  level: number | null;
}

/** This tenant: id, organisation name and level in the reseller network (null outside it). */
export async function self(ctx: HandlerContext): Promise<Self> {
  const t = await ctx.host.call<{ id: string; name: string; reseller_level: number | null }>('platform.get_tenant', {});
  return { id: t.id, name: t.name, level: t.reseller_level };
}

export const isTop = (me: Self) => me.level === 0;

export function viewOf(p: MasterProductRow): ProductView {
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    recommended_retail_price: p.recommended_retail_price === null ? null : str(p.recommended_retail_price),
    images: p.images,
    attributes: p.attributes,
    track_inventory: p.track_inventory,
    available_stock: p.track_inventory ? p.stock_quantity : null,
    status: p.status,
  };
}

const max = (...values: Array<Dec | string | number>) => values.map((v) => new D(v)).reduce((a, b) => (a.gte(b) ? a : b));

/** The margin a parent applies for a sub-reseller without an explicit price (auto_inherit_pricing). */
export const autoMarkup = (minimum: Dec | number) => max(CONSTANTS.default_auto_markup, minimum);

/** Master products matching `refs`, active ones only unless `all`. */
export async function masterRows(ctx: HandlerContext, refs: ProductRefs, all = false): Promise<MasterProductRow[]> {
  const where: Record<string, unknown> = all ? {} : { status: 'active' };
  if (refs.ids || refs.skus) where.$or = [...(refs.ids ? [{ id: { $in: refs.ids } }] : []), ...(refs.skus ? [{ sku: { $in: refs.skus } }] : [])];
  return ctx.host.db.find<MasterProductRow>('MasterProduct', { where, order: [['name', 'ASC'], ['id', 'ASC']] });
}

/**
 * This tenant's own cost of each product in `refs` (every product it can buy when no refs), keyed
 * by product id. A tenant outside the network, or cut off by a suspended link, sees nothing.
 */
export async function ownCosts(ctx: HandlerContext, me: Self, refs: ProductRefs, withBreakdown: boolean): Promise<Map<string, CostLine>> {
  const lines = new Map<string, CostLine>();
  if (isTop(me)) {
    for (const p of await masterRows(ctx, refs)) {
      const minimum = max(CONSTANTS.default_minimum_margin, p.minimum_margin_percent);
      lines.set(p.id, { product: viewOf(p), cost: str(p.base_cost), is_available: true, minimum_margin_percent: pct(minimum), ...(withBreakdown ? { breakdown: [] } : {}) });
    }
    return lines;
  }
  if (me.level === null) return lines;
  const { tenant: parent } = await related(ctx.host).parent();
  if (!parent) return lines;
  const answer = await related(ctx.host).call<{ items: CostLine[] }>(parent.id, 'reseller_catalog.child_costs', { ...refs, breakdown: withBreakdown });
  for (const line of answer.items) lines.set(line.product.id, line);
  return lines;
}

/** True when `tenantId` is a sub-reseller directly under this tenant, through an active link. */
export async function isDirectChild(ctx: HandlerContext, tenantId: string): Promise<boolean> {
  for (let page = 1; ; page++) {
    const found = await related(ctx.host).children({ page, per_page: 100 });
    if (found.tenants.some((t) => t.id === tenantId)) return true;
    if (page >= found.pagination.last_page) return false;
  }
}

/**
 * Runs in the parent for a direct sub-reseller (`child`): the sub-reseller's cost of each product,
 * from this tenant's own cost and the margin it set for that sub-reseller.
 */
export async function costsForChild(ctx: HandlerContext, child: string, refs: ProductRefs, withBreakdown: boolean): Promise<CostLine[]> {
  if (!(await isDirectChild(ctx, child))) throw forbidden('Only a direct sub-reseller may ask this tenant for its costs.', { tenant: child });
  const me = await self(ctx);
  const mine = await ownCosts(ctx, me, refs, withBreakdown);
  if (mine.size === 0) return [];
  const rows = await ctx.host.db.find<PricingRow>('Pricing', { where: { reseller_tenant_id: child, master_product_id: { $in: [...mine.keys()] } } });
  const priced = new Map(rows.map((r) => [r.master_product_id, r]));
  return [...mine.values()].map((line) => {
    const row = priced.get(line.product.id);
    const margin = row ? new D(row.margin_percent) : autoMarkup(line.minimum_margin_percent);
    const childCost = marked(line.cost, margin);
    const out: CostLine = {
      product: line.product,
      cost: str(childCost),
      is_available: line.is_available && (row?.is_available ?? true),
      minimum_margin_percent: pct(max(line.minimum_margin_percent, row?.minimum_margin_percent ?? 0)),
    };
    if (line.breakdown) {
      const own: BreakdownRow = {
        level: me.level!,
        tenant_id: me.id,
        tenant_name: me.name,
        cost: line.cost,
        margin_percent: pct(margin),
        margin_amount: str(childCost.minus(line.cost)),
        selling_price: str(childCost),
      };
      out.breakdown = [...line.breakdown, own];
    }
    return out;
  });
}
