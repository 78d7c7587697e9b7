/**
 * What a reseller buys and sells (spec 3, Endpoints, Reseller catalog): my-catalog (its own cost and
 * a suggested selling price per product), the prices it set for its sub-resellers, setting one, and
 * the per-level breakdown. These are the 4 ResellerCatalog tools of spec 2 (the single-product read
 * is not a tool: the list finds one product by name or SKU).
 */
import { CatalogError, invalid, notFound } from '../errors';
import { operation, related, Type, type HandlerContext } from '../../../../sdk';
import { autoMarkup, costsForChild, ownCosts, self, type CostLine } from '../chain';
import { CONSTANTS } from '../constants';
import type { PricingRow } from '../models';
import { D, marked, parsePercent, pct, str } from '../money';
import { BreakdownRow, CatalogProduct, Money, PercentIn, TenantRef, Uuid } from '../schemas';
import { READ, WRITE } from './routes';

/** The price a reseller is suggested to sell at: its cost plus the default markup (at least the minimum), paise half up. */
const suggestedMarkup = (line: CostLine) => autoMarkup(line.minimum_margin_percent);

function catalogProduct(line: CostLine) {
  const p = line.product;
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    your_cost: line.cost,
    minimum_margin_percent: line.minimum_margin_percent,
    suggested_selling_price: str(marked(line.cost, suggestedMarkup(line))),
    available_stock: p.available_stock,
    is_available: line.is_available,
    images: p.images,
    attributes: p.attributes,
  };
}

async function oneLine(ctx: HandlerContext, productId: string, breakdown: boolean): Promise<CostLine> {
  const line = (await ownCosts(ctx, await self(ctx), { ids: [productId] }, breakdown)).get(productId);
  if (!line) throw notFound('Product', productId);
  return line;
}

/** A direct sub-reseller by id or alias (spec 3 decisions: ids; aliases accepted where a user types them). */
async function directChild(ctx: HandlerContext, ref: string) {
  const key = ref.trim().toLowerCase();
  for (let page = 1; ; page++) {
    const found = await related(ctx.host).children({ page, per_page: 100 });
    const hit = found.tenants.find((t) => t.id === ref || t.alias === key);
    if (hit) return hit;
    if (page >= found.pagination.last_page) return null;
  }
}

async function childNames(ctx: HandlerContext): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let page = 1; ; page++) {
    const found = await related(ctx.host).children({ page, per_page: 100 });
    for (const t of found.tenants) names.set(t.id, t.name);
    if (page >= found.pagination.last_page) return names;
  }
}

export const catalogOperations = {
  list_my_catalog: operation({
    description: 'The products this tenant can sell, with its own cost, the minimum margin for its sub-resellers and a suggested selling price.',
    permission: 'catalog.view',
    input: Type.Object({ search: Type.Optional(Type.String({ maxLength: 255 })) }, { additionalProperties: false }),
    output: Type.Object({ products: Type.Array(CatalogProduct) }),
    http: { method: 'GET', path: '/reseller-catalog/my-catalog', permission: 'catalog.view', ...READ },
    async handler(input, ctx) {
      const lines = [...(await ownCosts(ctx, await self(ctx), {}, false)).values()];
      const term = input.search?.trim().toLowerCase();
      const shown = term ? lines.filter((l) => l.product.name.toLowerCase().includes(term) || l.product.sku.toLowerCase().includes(term)) : lines;
      return { products: shown.map(catalogProduct) };
    },
  }),

  get_my_catalog_product: operation({
    description: 'One product of my-catalog.',
    ai_tool: false,
    permission: 'catalog.view',
    input: Type.Object({ productId: Uuid }, { additionalProperties: false }),
    output: Type.Object({ product: CatalogProduct }),
    http: { method: 'GET', path: '/reseller-catalog/my-catalog/:productId', permission: 'catalog.view', ...READ },
    async handler(input, ctx) {
      return { product: catalogProduct(await oneLine(ctx, input.productId, false)) };
    },
  }),

  list_pricing: operation({
    description: 'The prices this tenant set for its sub-resellers, with what each pays and the margin this tenant earns.',
    permission: 'catalog.set_pricing',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({
      pricing: Type.Array(
        Type.Object({
          id: Type.String(),
          product: Type.Object({ id: Type.String(), name: Type.String(), sku: Type.String() }),
          sub_reseller: Type.Object({ id: Type.String(), name: Type.Union([Type.String(), Type.Null()]) }),
          cost_to_reseller: Money,
          your_margin: Money,
          margin_percent: Type.Number(),
          minimum_margin_percent: Type.Number(),
          is_available: Type.Boolean(),
        }),
      ),
    }),
    http: { method: 'GET', path: '/reseller-catalog/pricing', permission: 'catalog.set_pricing', ...READ },
    async handler(_input, ctx) {
      const rows = await ctx.host.db.find<PricingRow>('Pricing', { order: [['created_at', 'ASC'], ['id', 'ASC']] });
      if (rows.length === 0) return { pricing: [] };
      const mine = await ownCosts(ctx, await self(ctx), { ids: [...new Set(rows.map((r) => r.master_product_id))] }, false);
      const names = await childNames(ctx);
      // Prices of products that left the catalog (deleted or inactive) are not shown.
      return {
        pricing: rows.flatMap((r) => {
          const line = mine.get(r.master_product_id);
          if (!line) return [];
          const cost = marked(line.cost, r.margin_percent);
          return [{
            id: r.id,
            product: { id: line.product.id, name: line.product.name, sku: line.product.sku },
            sub_reseller: { id: r.reseller_tenant_id, name: names.get(r.reseller_tenant_id) ?? null },
            cost_to_reseller: str(cost),
            your_margin: str(cost.minus(line.cost)),
            margin_percent: pct(r.margin_percent),
            minimum_margin_percent: pct(r.minimum_margin_percent),
            is_available: r.is_available,
          }];
        }),
      };
    },
  }),

  set_pricing: operation({
    description: "Sets the margin this tenant takes on a product for one direct sub-reseller: the sub-reseller's cost is this tenant's cost × (1 + margin_percent/100).",
    permission: 'catalog.set_pricing',
    input: Type.Object(
      {
        product_id: Uuid,
        sub_reseller_id: TenantRef,
        margin_percent: PercentIn,
        is_available: Type.Optional(Type.Boolean()),
        minimum_margin_percent: Type.Optional(PercentIn),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      message: Type.String(),
      pricing: Type.Object({
        id: Type.String(),
        product_id: Type.String(),
        reseller_id: Type.String(),
        cost_to_reseller: Money,
        your_margin: Money,
        margin_percent: Type.Number(),
        minimum_margin_percent: Type.Number(),
        is_available: Type.Boolean(),
      }),
    }),
    http: { method: 'POST', path: '/reseller-catalog/pricing/set', permission: 'catalog.set_pricing', success_status: 200, ...WRITE },
    async handler(input, ctx) {
      const margin = parsePercent(input.margin_percent, 'margin_percent');
      if (margin.isZero() && !CONSTANTS.allow_zero_margin) throw invalid('margin_percent', 'A zero margin is not allowed (allow_zero_margin is false).');
      const minimumForChild = input.minimum_margin_percent === undefined ? new D(0) : parsePercent(input.minimum_margin_percent, 'minimum_margin_percent');
      const child = await directChild(ctx, input.sub_reseller_id);
      if (!child) throw notFound('Sub-reseller directly under this tenant', input.sub_reseller_id);
      const line = await oneLine(ctx, input.product_id, false);
      if (margin.lt(line.minimum_margin_percent)) {
        throw new CatalogError('MARGIN_BELOW_MINIMUM', `The margin_percent must be at least ${line.minimum_margin_percent} for this product.`, {
          status: 422,
          errors: { margin_percent: [`must be at least ${line.minimum_margin_percent}`] },
          minimum_margin_percent: line.minimum_margin_percent,
          margin_percent: pct(margin),
        });
      }
      const cost = marked(line.cost, margin);
      const me = await self(ctx);
      const at = new Date(ctx.host.now()).toISOString();
      const row = await ctx.host.db.upsert<PricingRow>(
        'Pricing',
        {
          master_product_id: line.product.id,
          reseller_tenant_id: child.id,
          parent_tenant_id: me.id,
          margin_percent: margin.toFixed(2),
          cost_to_reseller: cost.toFixed(2),
          minimum_margin_percent: minimumForChild.toFixed(2),
          is_available: input.is_available ?? true,
          updated_at: at,
        },
        { conflictFields: ['master_product_id', 'reseller_tenant_id'] },
      );
      const pricing = {
        id: row.id,
        product_id: line.product.id,
        reseller_id: child.id,
        cost_to_reseller: str(cost),
        your_margin: str(cost.minus(line.cost)),
        margin_percent: pct(margin),
        minimum_margin_percent: pct(minimumForChild),
        is_available: row.is_available,
      };
      // The payload names the sub-reseller and its price, never this tenant's own cost.
      await ctx.host.emit('reseller_catalog.PricingSet', { id: row.id, product_id: pricing.product_id, reseller_id: child.id, cost_to_reseller: pricing.cost_to_reseller, margin_percent: pricing.margin_percent, is_available: pricing.is_available });
      return { message: 'Pricing set.', pricing };
    },
  }),

  pricing_breakdown: operation({
    description: 'How a product\'s price builds up through the chain: per level (0 is the super admin, this tenant last) its cost, margin and selling price.',
    permission: 'catalog.view_costs',
    input: Type.Object({ productId: Uuid }, { additionalProperties: false }),
    output: Type.Object({
      product: Type.Object({ id: Type.String(), name: Type.String(), base_cost: Money }),
      your_cost: Money,
      breakdown: Type.Array(BreakdownRow),
      suggested_retail: Money,
      minimum_margin_required: Type.Number(),
    }),
    http: { method: 'GET', path: '/reseller-catalog/pricing/:productId/breakdown', permission: 'catalog.view_costs', ...READ },
    async handler(input, ctx) {
      const me = await self(ctx);
      const line = await oneLine(ctx, input.productId, true);
      const markup = suggestedMarkup(line);
      const selling = marked(line.cost, markup);
      const breakdown = [
        ...(line.breakdown ?? []),
        { level: me.level!, tenant_id: me.id, tenant_name: me.name, cost: line.cost, margin_percent: pct(markup), margin_amount: str(selling.minus(line.cost)), selling_price: str(selling) },
      ];
      return {
        product: { id: line.product.id, name: line.product.name, base_cost: breakdown[0].cost },
        your_cost: line.cost,
        breakdown,
        suggested_retail: str(selling),
        minimum_margin_required: line.minimum_margin_percent,
      };
    },
  }),

  child_costs: operation({
    description: "Runs in the parent for a direct sub-reseller's copy of this module (related call): the sub-reseller's cost of products.",
    ai_tool: false,
    related: true,
    input: Type.Object(
      {
        ids: Type.Optional(Type.Array(Uuid, { maxItems: 500 })),
        skus: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 500 })),
        breakdown: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ items: Type.Array(Type.Unsafe<CostLine>({ type: 'object', required: ['product', 'cost'], properties: { product: { type: 'object' }, cost: { type: 'string' } } })) }),
    async handler(input, ctx) {
      if (!ctx.relatedFrom) throw new CatalogError('FORBIDDEN', 'child_costs answers sub-resellers only.', { status: 403 });
      return { items: await costsForChild(ctx, ctx.relatedFrom, { ids: input.ids, skus: input.skus }, input.breakdown ?? false) };
    },
  }),
};
