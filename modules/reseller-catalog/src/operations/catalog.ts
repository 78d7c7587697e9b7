/**
 * What a reseller buys and sells (spec 3, Endpoints, Reseller catalog): my-catalog (its own cost and
 * a suggested selling price per product), the prices it set for its sub-resellers, setting one, and
 * the per-level breakdown. These are the 4 ResellerCatalog tools of spec 2 (the single-product read
 * is not a tool: the list finds one product by name or SKU).
 */
import { catalogErrors, invalid, notFound } from '../errors';
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { autoMarkup, cascade, deliveries, directChildren, isTop, ownLines, requireAncestor, self, store, type CostLine, type Delivery } from '../chain';
import { CONSTANTS } from '../constants';
import type { PricingRow } from '../models';
import { D, marked, parsePercent, pct, str } from '../money';
import { lockProduct } from '../product-lock';
import { BreakdownRow, CatalogProduct, Money, PercentIn, TenantRef, Uuid } from '../schemas';

/** A cost line as handed down a cascade (chain.ts, CostLine); checked loosely: it comes from this module's own copy above. */
const LineSchema = Type.Unsafe<CostLine>({
  type: 'object',
  required: ['product', 'cost', 'is_available', 'minimum_margin_percent', 'breakdown', 'stamps'],
  properties: {
    product: { type: 'object', required: ['id', 'sku', 'name', 'status'] },
    cost: { type: 'string', pattern: '^\\d{1,12}\\.\\d{2}$' },
    is_available: { type: 'boolean' },
    minimum_margin_percent: { type: 'number' },
    breakdown: { type: 'array', maxItems: 11 },
    stamps: { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 11 },
  },
});
const DeliverySchema = Type.Unsafe<Delivery>({ type: 'object', required: ['tenant', 'lines', 'removed'], properties: { tenant: { type: 'string' }, lines: { type: 'array' }, removed: { type: 'array' } } });
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

async function oneLine(ctx: HandlerContext, productId: string): Promise<CostLine> {
  const line = (await ownLines(ctx, await self(ctx), { ids: [productId] })).get(productId);
  if (!line) throw notFound('Product', productId);
  return line;
}

/** A direct sub-reseller by id or alias (spec 3 decisions: ids; aliases accepted where a user types them). */
async function directChild(ctx: HandlerContext, ref: string) {
  const key = ref.trim().toLowerCase();
  return (await directChildren(ctx)).find((t) => t.id === ref || t.alias === key) ?? null;
}

export const catalogOperations = {
  list_my_catalog: operation({
    description: 'The products this tenant can sell, with its own cost, the minimum margin for its sub-resellers and a suggested selling price.',
    permission: 'catalog.view',
    input: Type.Object({ search: Type.Optional(Type.String({ maxLength: 255 })) }, { additionalProperties: false }),
    output: Type.Object({ products: Type.Array(CatalogProduct) }),
    http: { method: 'GET', path: '/reseller-catalog/my-catalog', ...READ },
    async handler(input, ctx) {
      const lines = [...(await ownLines(ctx, await self(ctx))).values()];
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
    http: { method: 'GET', path: '/reseller-catalog/my-catalog/:productId', ...READ },
    async handler(input, ctx) {
      return { product: catalogProduct(await oneLine(ctx, input.productId)) };
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
    http: { method: 'GET', path: '/reseller-catalog/pricing', ...READ },
    async handler(_input, ctx) {
      const rows = await ctx.host.db.find<PricingRow>('Pricing', { order: [['created_at', 'ASC'], ['id', 'ASC']] });
      if (rows.length === 0) return { pricing: [] };
      const mine = await ownLines(ctx, await self(ctx), { ids: [...new Set(rows.map((r) => r.master_product_id))] });
      const names = new Map((await directChildren(ctx)).map((t) => [t.id, t.name]));
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
    http: { method: 'POST', path: '/reseller-catalog/pricing/set', success_status: 200, ...WRITE },
    async handler(input, ctx) {
      const margin = parsePercent(input.margin_percent, 'margin_percent');
      if (margin.isZero() && !CONSTANTS.allow_zero_margin) throw invalid('margin_percent', 'A zero margin is not allowed (allow_zero_margin is false).');
      const minimumForChild = input.minimum_margin_percent === undefined ? new D(0) : parsePercent(input.minimum_margin_percent, 'minimum_margin_percent');
      const child = await directChild(ctx, input.sub_reseller_id);
      if (!child) throw notFound('Sub-reseller directly under this tenant', input.sub_reseller_id);
      const line = await oneLine(ctx, input.product_id);
      if (margin.lt(line.minimum_margin_percent)) {
        throw catalogErrors.marginBelowMinimum(line.minimum_margin_percent, pct(margin));
      }
      const cost = marked(line.cost, margin);
      const me = await self(ctx);
      const at = new Date(ctx.host.now()).toISOString();
      const row = await ctx.host.db.transaction(async (tx) => {
        // At level 0 the price row changes under the product's lock, as reserve_stock reads it
        // (product-lock.ts): an accept racing this mark sees it or comes wholly before it.
        if (isTop(me) && !(await lockProduct(tx, line.product.id))) throw notFound('Product', line.product.id);
        return tx.upsert<PricingRow>(
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
      });
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
      // The sub-reseller's subtree gets its new costs before the answer (chain.ts, cascade).
      await cascade(ctx, [line.product.id], { only: child.id });
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
    http: { method: 'GET', path: '/reseller-catalog/pricing/:productId/breakdown', ...READ },
    async handler(input, ctx) {
      const me = await self(ctx);
      const line = await oneLine(ctx, input.productId);
      const markup = suggestedMarkup(line);
      const selling = marked(line.cost, markup);
      const breakdown = [
        ...line.breakdown,
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

  apply_costs: operation({
    description: 'Runs in a sub-reseller for a tenant above it (related call, a cascade): stores its new costs and answers the costs of its own sub-resellers.',
    ai_tool: false,
    related: true,
    input: Type.Object({ lines: Type.Array(LineSchema, { maxItems: 5000 }), removed: Type.Array(Uuid, { maxItems: 5000 }) }, { additionalProperties: false }),
    output: Type.Object({ children: Type.Array(DeliverySchema) }),
    async handler(input, ctx) {
      const me = await self(ctx);
      const children = await requireAncestor(ctx, me);
      await store(ctx, input.lines as CostLine[], input.removed);
      const ids = (input.lines as CostLine[]).map((l) => l.product.id);
      return { children: await deliveries(ctx, me, ids, input.removed, children) };
    },
  }),

  lines_for_child: operation({
    description: 'Runs in the parent for a direct sub-reseller with no costs yet (related call): its costs, from what this tenant holds.',
    ai_tool: false,
    related: true,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ lines: Type.Array(LineSchema) }),
    async handler(_input, ctx) {
      const me = await self(ctx);
      const child = ctx.relatedFrom;
      if (!child || !(await directChildren(ctx)).some((t) => t.id === child)) throw catalogErrors.forbidden('Only a direct sub-reseller may ask this tenant for its costs.');
      const [mine] = await deliveries(ctx, me, null, [], [child]);
      return { lines: mine.lines };
    },
  }),
};
