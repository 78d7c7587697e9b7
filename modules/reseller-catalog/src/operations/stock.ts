/**
 * Cross-module operations for reseller_orders (chain orders; see README "For reseller_orders"):
 * - quote: what items cost THIS tenant (and, for one direct sub-reseller, what they cost it);
 * - reserve_stock / release_stock / consume_stock: the master stock, in the super admin's tenant only
 *   (spec 3: stock is decremented when a chain order is accepted at the top), never below zero under
 *   concurrency; a reservation is open until consumed (delivered) or released (cancelled).
 * They are called by reseller_orders in its own tenant (host.call, api.consumes), not by users: no
 * route, and not AI tools (a permission guards them should a user reach them another way; the bus
 * checks permissions for user callers only).
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { cascade, deliveries, isDirectChild, isTop, ownLines, self, type CostLine } from '../chain';
import { catalogErrors, codeOf, forbidden, insufficientStock, notFound, productUnavailable, Retry } from '../errors';
import type { MasterProductRow, PricingRow, ReservationRow } from '../models';
import { lockProduct } from '../product-lock';
import { D, str } from '../money';
import { Money, StockItems, TenantRef } from '../schemas';

const QuoteItem = Type.Object({
  sku: Type.String(),
  quantity: Type.Integer(),
  master_product_id: Type.String(),
  name: Type.String(),
  unit_cost: Money,
  cost: Money,
  is_available: Type.Boolean(),
  available_stock: Type.Union([Type.Integer(), Type.Null()]),
  sub_reseller_unit_cost: Type.Optional(Money),
  sub_reseller_cost: Type.Optional(Money),
});

const Reserved = Type.Object({ master_product_id: Type.String(), sku: Type.String(), quantity: Type.Integer(), stock_quantity: Type.Union([Type.Integer(), Type.Null()]) });

const { unknownSkus } = catalogErrors;

/** Merges repeated SKUs: one line per SKU, quantities summed. */
function merged(items: Array<{ sku: string; quantity: number }>) {
  const out = new Map<string, number>();
  for (const i of items) out.set(i.sku, (out.get(i.sku) ?? 0) + i.quantity);
  return [...out].map(([sku, quantity]) => ({ sku, quantity }));
}

const ATTEMPTS = 200;

/** Runs `work` in a transaction, again when a compare-and-set lost to a concurrent writer. */
async function retrying<T>(ctx: HandlerContext, work: Parameters<HandlerContext['host']['db']['transaction']>[0]): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await ctx.host.db.transaction(work)) as T;
    } catch (err) {
      const transient = err instanceof Retry || ['DB_CONFLICT', 'DB_RETRY'].includes(codeOf(err) as string);
      if (!transient) throw err;
      if (attempt >= ATTEMPTS) throw catalogErrors.stockBusy();
    }
  }
}

async function requireTop(ctx: HandlerContext) {
  const me = await self(ctx);
  if (!isTop(me)) throw forbidden("Stock is kept in the super admin's tenant (level 0) only.");
  return me;
}

/** Refuses the lines `buyer` may not buy (spec 3, Reseller product pricing: is_available). */
function refuseUnavailable(buyer: { tenant_id: string; level: number | null }, lines: CostLine[]) {
  const refused = lines.filter((l) => !l.is_available).map((l) => ({ product_id: l.product.id, sku: l.product.sku }));
  if (refused.length) throw productUnavailable(buyer, refused);
}

export const stockOperations = {
  quote: operation({
    description: "What items cost this tenant (its own cost per unit and per line); with sub_reseller_id, also what they cost that direct sub-reseller.",
    ai_tool: false,
    permission: 'catalog.view',
    input: Type.Object(
      {
        items: StockItems,
        sub_reseller_id: Type.Optional(TenantRef),
        require_available: Type.Optional(Type.Boolean({ description: 'refuse with PRODUCT_UNAVAILABLE when the buyer (the sub-reseller when given, else this tenant) may not buy an item' })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ items: Type.Array(QuoteItem), total_cost: Money, sub_reseller_total: Type.Optional(Money) }),
    async handler(input, ctx) {
      const items = merged(input.items);
      const skus = items.map((i) => i.sku);
      const bySku = (lines: Map<string, CostLine> | CostLine[]) => new Map([...lines.values()].map((l) => [l.product.sku, l]));
      const me = await self(ctx);
      const own = await ownLines(ctx, me, { skus });
      const mine = bySku(own);
      const missing = skus.filter((s) => !mine.has(s));
      if (missing.length) throw unknownSkus(missing);
      let theirs: Map<string, CostLine> | null = null;
      if (input.sub_reseller_id) {
        const child = input.sub_reseller_id;
        if (!(await isDirectChild(ctx, child))) throw forbidden('The sub_reseller_id must be a sub-reseller directly under this tenant.', { sub_reseller_id: child });
        theirs = bySku((await deliveries(ctx, me, [...own.keys()], [], [child]))[0].lines);
      }
      if (input.require_available) {
        // Named for the level the refusal comes from: this tenant when a level above marked it off for
        // it (the sub-reseller's line inherits that), else the sub-reseller this tenant marked it off for.
        refuseUnavailable({ tenant_id: me.id, level: me.level }, skus.map((sku) => mine.get(sku)!));
        const off = theirs ? skus.filter((sku) => !theirs.get(sku)!.is_available) : [];
        if (off.length) {
          // The sub-reseller's lines were read after this tenant's: a mark made above in between shows
          // only in theirs, so this tenant's lines are read again to name the level it came from.
          const now = bySku(await ownLines(ctx, me, { skus: off }));
          refuseUnavailable({ tenant_id: me.id, level: me.level }, off.flatMap((sku) => now.get(sku) ?? []));
          refuseUnavailable({ tenant_id: input.sub_reseller_id!, level: me.level === null ? null : me.level + 1 }, off.map((sku) => theirs!.get(sku)!));
        }
      }
      let total = new D(0);
      let childTotal = new D(0);
      const out = items.map(({ sku, quantity }) => {
        const line = mine.get(sku)!;
        const cost = new D(line.cost).times(quantity);
        total = total.plus(cost);
        const row: Record<string, unknown> = {
          sku,
          quantity,
          master_product_id: line.product.id,
          name: line.product.name,
          unit_cost: line.cost,
          cost: str(cost),
          is_available: line.is_available,
          available_stock: line.product.available_stock,
        };
        if (theirs) {
          const child = theirs.get(sku)!;
          const childCost = new D(child.cost).times(quantity);
          childTotal = childTotal.plus(childCost);
          Object.assign(row, { sub_reseller_unit_cost: child.cost, sub_reseller_cost: str(childCost) });
        }
        return row as typeof QuoteItem.static;
      });
      return { items: out, total_cost: str(total), ...(theirs ? { sub_reseller_total: str(childTotal) } : {}) };
    },
  }),

  reserve_stock: operation({
    description: 'Takes items out of the master stock for a reference (e.g. a chain order id), all or nothing; the same reference twice takes them once. With sub_reseller_id, refuses items that direct sub-reseller may not buy.',
    ai_tool: false,
    permission: 'catalog.manage_master',
    input: Type.Object(
      {
        reference: Type.String({ minLength: 1, maxLength: 100 }),
        items: StockItems,
        sub_reseller_id: Type.Optional(Type.String({ minLength: 1, maxLength: 63, description: "the tenant id of the direct sub-reseller the order came from (the chain order's level below)" })),
        order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ reference: Type.String(), items: Type.Array(Reserved), already_reserved: Type.Boolean() }),
    async handler(input, ctx) {
      const me = await requireTop(ctx);
      const items = merged(input.items);
      type Stocked = { master_product_id: string; sku: string; quantity: number; stock_quantity: number | null; previous: number };
      const result = await retrying<{ already_reserved: boolean; items: Stocked[] }>(ctx, async (tx) => {
        const earlier = await tx.find<ReservationRow>('StockReservation', { where: { reference: input.reference } });
        if (earlier.length) {
          return { already_reserved: true, items: earlier.map((r) => ({ master_product_id: r.master_product_id, sku: r.sku, quantity: r.quantity, stock_quantity: null, previous: 0 })) };
        }
        const products = await tx.find<MasterProductRow>('MasterProduct', { where: { sku: { $in: items.map((i) => i.sku) }, status: 'active' } });
        const bySku = new Map(products.map((p) => [p.sku, p]));
        const missing = items.filter((i) => !bySku.has(i.sku)).map((i) => i.sku);
        if (missing.length) throw unknownSkus(missing);
        const short = items
          .map((i) => ({ i, p: bySku.get(i.sku)! }))
          .filter(({ i, p }) => p.track_inventory && p.stock_quantity < i.quantity)
          .map(({ i, p }) => ({ sku: i.sku, master_product_id: p.id, requested: i.quantity, available: p.stock_quantity }));
        if (short.length) throw insufficientStock(short);
        const at = new Date(ctx.host.now()).toISOString();
        const done: Stocked[] = items.map((i) => {
          const p = bySku.get(i.sku)!;
          return { master_product_id: p.id, sku: p.sku, quantity: i.quantity, stock_quantity: p.track_inventory ? p.stock_quantity - i.quantity : null, previous: p.stock_quantity };
        });
        // In product id order, so two reservations of the same products never wait on each other's locks.
        for (const d of [...done].sort((a, b) => (a.master_product_id < b.master_product_id ? -1 : 1))) {
          // Compare-and-set, which also locks the row (product-lock.ts): a concurrent reservation,
          // mark or delete since it was read → run again on fresh values.
          const locked =
            d.stock_quantity === null
              ? await lockProduct(tx, d.master_product_id)
              : (await tx.update<MasterProductRow>('MasterProduct', { stock_quantity: d.stock_quantity, updated_at: at }, { where: { id: d.master_product_id, stock_quantity: d.previous, status: 'active' } })) === 1;
          if (!locked) throw new Retry();
        }
        // Read under the locks (spec 3, Reseller product pricing: is_available), so a mark committed before this reservation is seen.
        if (input.sub_reseller_id) {
          const off = await tx.find<PricingRow>('Pricing', { where: { reseller_tenant_id: input.sub_reseller_id, master_product_id: { $in: done.map((d) => d.master_product_id) }, is_available: false } });
          if (off.length) throw productUnavailable({ tenant_id: input.sub_reseller_id, level: me.level! + 1 }, off.map((r) => ({ product_id: r.master_product_id, sku: products.find((p) => p.id === r.master_product_id)!.sku })));
        }
        for (const d of done) {
          await tx.create<ReservationRow>('StockReservation', { reference: input.reference, order_number: input.order_number ?? null, master_product_id: d.master_product_id, sku: d.sku, quantity: d.quantity, status: 'reserved', created_at: at, updated_at: at });
        }
        return { already_reserved: false, items: done };
      });
      // Events and the cascade after the commit: a transaction run again (lost race) announces nothing twice.
      if (!result.already_reserved) {
        await cascade(ctx, result.items.map((i) => i.master_product_id));
        for (const d of result.items) {
          if (d.stock_quantity !== null) await ctx.host.emit('reseller_catalog.StockUpdated', { master_product_id: d.master_product_id, sku: d.sku, stock_quantity: d.stock_quantity, previous: d.previous, reason: 'reserved', reference: input.reference });
        }
      }
      return { reference: input.reference, already_reserved: result.already_reserved, items: result.items.map(({ previous: _previous, ...d }) => d) };
    },
  }),

  release_stock: operation({
    description: 'Gives back the stock a reference reserved (a cancelled chain order), once.',
    ai_tool: false,
    permission: 'catalog.manage_master',
    input: Type.Object({ reference: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({ reference: Type.String(), released: Type.Boolean(), items: Type.Array(Reserved) }),
    async handler(input, ctx) {
      await requireTop(ctx);
      type Released = { master_product_id: string; sku: string; quantity: number; stock_quantity: number | null; previous: number };
      const result = await retrying<{ released: boolean; items: Released[] }>(ctx, async (tx) => {
        const rows = await tx.find<ReservationRow>('StockReservation', { where: { reference: input.reference } });
        if (rows.length === 0) throw notFound('Stock reservation', input.reference);
        if (rows.every((r) => r.status !== 'reserved')) return { released: false, items: rows.map((r) => ({ master_product_id: r.master_product_id, sku: r.sku, quantity: r.quantity, stock_quantity: null, previous: 0 })) };
        const at = new Date(ctx.host.now()).toISOString();
        const items: Released[] = [];
        for (const r of rows) {
          const n = await tx.update<ReservationRow>('StockReservation', { status: 'released', updated_at: at }, { where: { id: r.id, status: 'reserved' } });
          if (n !== 1) throw new Retry();
          const p = await tx.findOne<MasterProductRow>('MasterProduct', { where: { id: r.master_product_id } });
          let left: number | null = null;
          if (p?.track_inventory) {
            left = p.stock_quantity + r.quantity;
            if ((await tx.update<MasterProductRow>('MasterProduct', { stock_quantity: left, updated_at: at }, { where: { id: p.id, stock_quantity: p.stock_quantity } })) !== 1) throw new Retry();
          }
          items.push({ master_product_id: r.master_product_id, sku: r.sku, quantity: r.quantity, stock_quantity: left, previous: p?.stock_quantity ?? 0 });
        }
        return { released: true, items };
      });
      if (result.released) {
        await cascade(ctx, result.items.map((i) => i.master_product_id));
        for (const d of result.items) {
          if (d.stock_quantity !== null) await ctx.host.emit('reseller_catalog.StockUpdated', { master_product_id: d.master_product_id, sku: d.sku, stock_quantity: d.stock_quantity, previous: d.previous, reason: 'released', reference: input.reference });
        }
      }
      return { reference: input.reference, released: result.released, items: result.items.map(({ previous: _previous, ...d }) => d) };
    },
  }),

  consume_stock: operation({
    description: 'Closes what a reference reserved once its chain order is delivered: the stock stays taken, and the reservation no longer holds the product against deletion.',
    ai_tool: false,
    permission: 'catalog.manage_master',
    input: Type.Object({ reference: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({ reference: Type.String(), consumed: Type.Boolean() }),
    async handler(input, ctx) {
      await requireTop(ctx);
      if ((await ctx.host.db.count<ReservationRow>('StockReservation', { where: { reference: input.reference } })) === 0) throw notFound('Stock reservation', input.reference);
      const at = new Date(ctx.host.now()).toISOString();
      // Once: a repeated delivery finds nothing reserved left.
      const n = await ctx.host.db.update<ReservationRow>('StockReservation', { status: 'consumed', updated_at: at }, { where: { reference: input.reference, status: 'reserved' } });
      return { reference: input.reference, consumed: n > 0 };
    },
  }),
};
