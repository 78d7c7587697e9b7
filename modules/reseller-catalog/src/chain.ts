/**
 * The cascade (spec 3, Reseller product pricing): what a product costs each tenant of the chain.
 *
 * Data crosses tenants only through the host's related-tenant call, which reaches the direct parent
 * or any descendant, and each hop costs two levels of the bus's call depth (8): a chain of 10 levels
 * cannot be walked by nested calls. So costs are pushed DOWN, iteratively, by the tenant where a
 * change happens, and every tenant keeps its own copy of what it may see (its `Cost` rows):
 * - level 0 works its lines out live from the master products (cost = base_cost);
 * - a tenant's line for a sub-reseller is its own cost × (1 + margin/100) with the margin of its
 *   Pricing row for that sub-reseller, or default_auto_markup when it set none (auto_inherit_pricing);
 * - `cascade` starts at the changed tenant: it hands each direct sub-reseller its new lines
 *   (`apply_costs`); each stores them and answers the lines of ITS sub-reseller, which the
 *   cascading tenant then hands to them itself (a descendant call, one hop each, never nested), and
 *   so on down the subtree;
 * - every line carries `stamps`, the change times of what it was computed from: the master product
 *   (index 0) and the Pricing row of each level above (index k: level k-1's row for level k, 0 when
 *   none). A tenant replaces its line only with one whose every stamp is at least as recent. Each
 *   tenant computes its sub-resellers' lines from its current line and rows, which only grow newer,
 *   so the lines it hands out are ordered, and the last computation after the last change (there
 *   always is one: the change's own cascade) is the one every level keeps, however cascades race.
 * A tenant that has no lines yet (made after the last cascade) asks its parent once
 * (`lines_for_child`), which answers from what it holds.
 */
import { related, type HandlerContext } from '../../../sdk';
import { CONSTANTS } from './constants';
import { codeOf, forbidden } from './errors';
import { D, marked, pct, str, type Dec } from './money';
import type { CostRow, MasterProductRow, PricingRow } from './models';

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

/** A product's cost for one tenant. */
export interface CostLine {
  product: ProductView;
  /** Money string: the tenant's cost. */
  cost: string;
  is_available: boolean;
  /** The least margin this tenant may set for its own sub-resellers (percent). */
  minimum_margin_percent: number;
  /** The levels above the tenant, 0 first (shown by the breakdown only). */
  breakdown: BreakdownRow[];
  /** Change times (ms) of the inputs: the master product, then each level's Pricing row (0: none). */
  stamps: number[];
}

/** What one tenant hands one sub-reseller in a cascade. */
export interface Delivery {
  tenant: string;
  lines: CostLine[];
  /** Products gone from the catalog (deleted master products). */
  removed: string[];
}

/** Which products: ids, SKUs, or all (neither). */
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

const refsWhere = (refs: ProductRefs, idColumn: string): Record<string, unknown> =>
  refs.ids || refs.skus ? { $or: [...(refs.ids ? [{ [idColumn]: { $in: refs.ids } }] : []), ...(refs.skus ? [{ sku: { $in: refs.skus } }] : [])] } : {};

/**
 * This tenant's own lines, keyed by product id, active products only unless `all` (a cascade also
 * hands down inactive ones, so that they leave the sub-resellers' catalogs).
 */
export async function ownLines(ctx: HandlerContext, me: Self, refs: ProductRefs = {}, all = false): Promise<Map<string, CostLine>> {
  const lines = new Map<string, CostLine>();
  if (isTop(me)) {
    const rows = await ctx.host.db.find<MasterProductRow>('MasterProduct', { where: { ...refsWhere(refs, 'id'), ...(all ? {} : { status: 'active' }) }, order: [['name', 'ASC'], ['id', 'ASC']] });
    for (const p of rows) {
      const minimum = max(CONSTANTS.default_minimum_margin, p.minimum_margin_percent);
      lines.set(p.id, { product: viewOf(p), cost: str(p.base_cost), is_available: p.status === 'active', minimum_margin_percent: pct(minimum), breakdown: [], stamps: [Date.parse(p.updated_at)] });
    }
    return lines;
  }
  if (me.level === null) return lines;
  let rows = await ctx.host.db.find<CostRow>('Cost', { where: refsWhere(refs, 'master_product_id'), order: [['name', 'ASC'], ['master_product_id', 'ASC']] });
  if (rows.length === 0 && (await ctx.host.db.count('Cost')) === 0) {
    await pullFromParent(ctx);
    rows = await ctx.host.db.find<CostRow>('Cost', { where: refsWhere(refs, 'master_product_id'), order: [['name', 'ASC'], ['master_product_id', 'ASC']] });
  }
  for (const r of rows) {
    if (!all && r.product.status !== 'active') continue;
    lines.set(r.master_product_id, {
      product: r.product,
      cost: str(r.cost),
      is_available: r.is_available,
      minimum_margin_percent: pct(r.minimum_margin_percent),
      breakdown: r.breakdown,
      stamps: r.stamps,
    });
  }
  return lines;
}

/**
 * A tenant with no lines yet (made after the last cascade) asks its parent, which answers from what
 * it holds, asking its own parent first when it holds nothing either. Those calls nest: past about
 * three such levels in a row the bus's depth limit ends them, and the tenant shows an empty catalog
 * until the super admin's next change or sync (POST /reseller-catalog/master-products/sync) reaches it.
 */
async function pullFromParent(ctx: HandlerContext): Promise<void> {
  const { tenant: parent } = await related(ctx.host).parent();
  if (!parent) return;
  try {
    const { lines } = await related(ctx.host).call<{ lines: CostLine[] }>(parent.id, 'reseller_catalog.lines_for_child', {});
    await store(ctx, lines, []);
  } catch (err) {
    if (codeOf(err) !== 'CALL_DEPTH_EXCEEDED') throw err;
    ctx.host.log.warn('catalog costs not pulled: too many levels without costs above this tenant', { parent: parent.id });
  }
}

/** The line a sub-reseller gets from this tenant's own line and the Pricing row this tenant set for it. */
export function lineForChild(me: Self, own: CostLine, row: PricingRow | undefined): CostLine {
  const margin = row ? new D(row.margin_percent) : autoMarkup(own.minimum_margin_percent);
  const childCost = marked(own.cost, margin);
  return {
    product: own.product,
    cost: str(childCost),
    is_available: own.is_available && (row?.is_available ?? true),
    minimum_margin_percent: pct(max(own.minimum_margin_percent, row?.minimum_margin_percent ?? 0)),
    breakdown: [
      ...own.breakdown,
      { level: me.level!, tenant_id: me.id, tenant_name: me.name, cost: own.cost, margin_percent: pct(margin), margin_amount: str(childCost.minus(own.cost)), selling_price: str(childCost) },
    ],
    stamps: [...own.stamps, row ? Date.parse(row.updated_at) : 0],
  };
}

/** Every active sub-reseller directly under this tenant. */
export async function directChildren(ctx: HandlerContext) {
  const out: Array<{ id: string; name: string; alias: string | null; level: number }> = [];
  for (let page = 1; ; page++) {
    const found = await related(ctx.host).children({ page, per_page: 100 });
    out.push(...found.tenants);
    if (page >= found.pagination.last_page) return out;
  }
}

export const isDirectChild = async (ctx: HandlerContext, tenantId: string) => (await directChildren(ctx)).some((t) => t.id === tenantId);

/**
 * What this tenant hands each of its direct sub-resellers (or `only` those named) for `productIds`
 * (all when null): one read of its lines and one of its Pricing rows, whatever the number of children.
 */
export async function deliveries(ctx: HandlerContext, me: Self, productIds: string[] | null, removed: string[], only?: string[]): Promise<Delivery[]> {
  const children = only ?? (await directChildren(ctx)).map((c) => c.id);
  if (children.length === 0) return [];
  const own = await ownLines(ctx, me, productIds ? { ids: productIds } : {}, true);
  const rows = own.size ? await ctx.host.db.find<PricingRow>('Pricing', { where: { reseller_tenant_id: { $in: children }, master_product_id: { $in: [...own.keys()] } } }) : [];
  const priced = new Map(rows.map((r) => [`${r.reseller_tenant_id} ${r.master_product_id}`, r]));
  return children.map((child) => ({ tenant: child, lines: [...own.values()].map((line) => lineForChild(me, line, priced.get(`${child} ${line.product.id}`))), removed }));
}

const CHUNK = 500;

/**
 * Pushes this tenant's current lines for `productIds` (all when null) down its subtree, or only
 * down `only`'s (a direct sub-reseller whose price changed). Breadth first; every call is one hop
 * from this tenant to a descendant, so the depth of the chain never meets the bus's depth limit.
 */
export async function cascade(ctx: HandlerContext, productIds: string[] | null, opts: { removed?: string[]; only?: string } = {}): Promise<number> {
  const me = await self(ctx);
  if (me.level === null) return 0;
  const queue = await deliveries(ctx, me, productIds, opts.removed ?? [], opts.only ? [opts.only] : undefined);
  let reached = 0;
  while (queue.length) {
    const next = queue.shift()!;
    if (next.lines.length === 0 && next.removed.length === 0) continue;
    if (next.lines.length > CHUNK) {
      // A large catalog goes down in pieces (apply_costs takes at most 5,000 lines a call).
      for (let i = 0; i < next.lines.length; i += CHUNK) queue.push({ tenant: next.tenant, lines: next.lines.slice(i, i + CHUNK), removed: i === 0 ? next.removed : [] });
      continue;
    }
    try {
      const answer = await related(ctx.host).call<{ children: Delivery[] }>(next.tenant, 'reseller_catalog.apply_costs', { lines: next.lines, removed: next.removed });
      reached++;
      queue.push(...answer.children);
    } catch (err) {
      // A sub-reseller without the catalog (or suspended meanwhile) has nothing to update; the
      // change itself is committed, and the next cascade or its own first read catches up.
      ctx.host.log.warn('catalog cascade skipped a tenant', { tenant: next.tenant, error: (err as Error).message });
    }
  }
  return reached;
}

/** True when every stamp of `a` is at least `b`'s (a line from another chain shape always is). */
export const notOlder = (a: number[], b: number[]) => a.length !== b.length || a.every((t, i) => t >= b[i]);

const ATTEMPTS = 20;

/** Keeps, per product, a line only when it is not older than the one held; drops removed products. */
export async function store(ctx: HandlerContext, lines: CostLine[], removed: string[]): Promise<void> {
  const at = new Date(ctx.host.now()).toISOString();
  if (removed.length) await ctx.host.db.destroy<CostRow>('Cost', { where: { master_product_id: { $in: removed } } });
  for (const line of lines) {
    const values = {
      sku: line.product.sku,
      name: line.product.name,
      product: line.product,
      cost: line.cost,
      is_available: line.is_available,
      minimum_margin_percent: new D(line.minimum_margin_percent).toFixed(2),
      breakdown: line.breakdown,
      stamps: line.stamps,
      updated_at: at,
    };
    for (let attempt = 1; ; attempt++) {
      const held = await ctx.host.db.findOne<CostRow>('Cost', { where: { master_product_id: line.product.id }, attributes: ['stamps', 'revision'] });
      if (held && !notOlder(line.stamps, held.stamps)) break;
      // Compare-and-set on the revision: a concurrent store in between makes this one look again.
      const done = held
        ? (await ctx.host.db.update<CostRow>('Cost', { ...values, revision: held.revision + 1 }, { where: { master_product_id: line.product.id, revision: held.revision } })) === 1
        : await ctx.host.db.create<CostRow>('Cost', { master_product_id: line.product.id, ...values, revision: 1 }).then(
            () => true,
            (err: unknown) => {
              if (codeOf(err) !== 'DB_CONFLICT') throw err;
              return false;
            },
          );
      if (done || attempt >= ATTEMPTS) break;
    }
  }
}

/**
 * Refuses a caller that is not an ancestor pushing costs down (a direct sub-reseller may call up
 * too); answers this tenant's direct sub-resellers, which the cascade goes on to.
 */
export async function requireAncestor(ctx: HandlerContext, me: Self): Promise<string[]> {
  const children = (await directChildren(ctx)).map((c) => c.id);
  if (!ctx.relatedFrom || isTop(me) || children.includes(ctx.relatedFrom)) throw forbidden('Only a tenant above this one hands it costs.');
  return children;
}
