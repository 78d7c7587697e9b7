/**
 * Master products (spec 3, Master product; Endpoints, Reseller catalog): the super admin's tenant
 * only (level 0 of the reseller network, permission catalog.manage_master). They are ResellerAdmin
 * tools (spec 2, Tools: 5 of the 8; the other 3 are reseller_finance's).
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { cascade, isTop, self } from '../chain';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../constants';
import { conflict, invalid, notFound, productInUse, superAdminOnly } from '../errors';
import type { MasterProductRow, PricingRow, ReservationRow } from '../models';
import { lockProduct } from '../product-lock';
import { parseAmount, parsePercent, pct, str } from '../money';
import { MasterProduct, MoneyIn, Pagination, PercentIn, Uuid } from '../schemas';
import { READ, WRITE } from './routes';

const STATUSES = ['active', 'inactive'] as const;
const PERMISSION = 'catalog.manage_master';

const Fields = {
  sku: Type.String({ minLength: 1, maxLength: 100 }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 65535 }), Type.Null()])),
  base_cost: MoneyIn,
  minimum_margin_percent: Type.Optional(PercentIn),
  recommended_retail_price: Type.Optional(Type.Union([MoneyIn, Type.Null()])),
  stock_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_000_000_000 })),
  track_inventory: Type.Optional(Type.Boolean()),
  images: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' }), { maxItems: 50 })),
  attributes: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), Type.Unknown())),
  status: Type.Optional(Type.StringEnum([...STATUSES])),
};

const CreateInput = Type.Object(Fields, { additionalProperties: false });
/** The update body is the create body with every field optional (spec 3: "not shown" beyond that). */
const UpdateInput = Type.Composite([Type.Object({ id: Uuid }), Type.Partial(Type.Object(Fields))], { additionalProperties: false });

async function requireTop(ctx: HandlerContext) {
  const me = await self(ctx);
  if (!isTop(me)) throw superAdminOnly();
  return me;
}

async function resellersCount(ctx: HandlerContext, ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await ctx.host.db.find<PricingRow>('Pricing', { where: { master_product_id: { $in: ids } }, attributes: ['master_product_id'] });
  for (const r of rows) counts.set(r.master_product_id, (counts.get(r.master_product_id) ?? 0) + 1);
  return counts;
}

export function present(p: MasterProductRow, count: number) {
  return {
    id: p.id,
    owner_tenant_id: p.owner_tenant_id,
    sku: p.sku,
    name: p.name,
    description: p.description,
    base_cost: str(p.base_cost),
    minimum_margin_percent: pct(p.minimum_margin_percent),
    recommended_retail_price: p.recommended_retail_price === null ? null : str(p.recommended_retail_price),
    stock_quantity: p.stock_quantity,
    track_inventory: p.track_inventory,
    images: p.images,
    attributes: p.attributes,
    status: p.status,
    resellers_count: count,
    created_at: new Date(p.created_at).toISOString(),
    updated_at: new Date(p.updated_at).toISOString(),
  };
}

/** Money and percent fields checked and normalised; an unknown field never reaches the database. */
function values(input: Record<string, unknown>): Partial<MasterProductRow> {
  const out: Record<string, unknown> = {};
  for (const key of ['sku', 'name', 'description', 'stock_quantity', 'track_inventory', 'images', 'attributes', 'status']) if (input[key] !== undefined) out[key] = input[key];
  if (input.base_cost !== undefined) out.base_cost = parseAmount(input.base_cost, 'base_cost').toFixed(2);
  if (input.minimum_margin_percent !== undefined) out.minimum_margin_percent = parsePercent(input.minimum_margin_percent, 'minimum_margin_percent').toFixed(2);
  if (input.recommended_retail_price !== undefined) {
    out.recommended_retail_price = input.recommended_retail_price === null ? null : parseAmount(input.recommended_retail_price, 'recommended_retail_price').toFixed(2);
  }
  if (typeof out.sku === 'string') out.sku = out.sku.trim();
  return out as Partial<MasterProductRow>;
}

async function skuTaken(ctx: HandlerContext, sku: string, except?: string) {
  const found = await ctx.host.db.findOne<MasterProductRow>('MasterProduct', { where: { sku, ...(except ? { id: { $ne: except } } : {}) }, attributes: ['id'] });
  if (found) throw invalid('sku', `The SKU "${sku}" is already used by another master product.`);
}

async function load(ctx: HandlerContext, id: string) {
  const row = await ctx.host.db.findOne<MasterProductRow>('MasterProduct', { where: { id } });
  if (!row) throw notFound('Master product', id);
  return row;
}

const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

export const masterOperations = {
  list_master_products: operation({
    description: 'Master products of the super admin, searchable by name or SKU, filtered by status, 20 a page (ResellerAdmin).',
    permission: PERMISSION,
    input: Type.Object(
      {
        search: Type.Optional(Type.String({ maxLength: 255 })),
        status: Type.Optional(Type.StringEnum([...STATUSES])),
        per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE })),
        page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ products: Type.Array(MasterProduct), pagination: Pagination }),
    http: { method: 'GET', path: '/reseller-catalog/master-products', ...READ },
    async handler(input, ctx) {
      await requireTop(ctx);
      const perPage = input.per_page ?? DEFAULT_PER_PAGE;
      const page = input.page ?? 1;
      const where: Record<string, unknown> = {};
      if (input.status) where.status = input.status;
      const term = input.search?.trim();
      if (term) {
        const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.$or = [{ name: { $iLike: like } }, { sku: { $iLike: like } }];
      }
      const total = await ctx.host.db.count('MasterProduct', { where });
      const rows = await ctx.host.db.find<MasterProductRow>('MasterProduct', { where, order: [['created_at', 'DESC'], ['id', 'ASC']], limit: perPage, offset: (page - 1) * perPage });
      const counts = await resellersCount(ctx, rows.map((r) => r.id));
      return {
        products: rows.map((r) => present(r, counts.get(r.id) ?? 0)),
        pagination: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total },
      };
    },
  }),

  create_master_product: operation({
    description: 'Creates a master product in the super admin catalog (ResellerAdmin).',
    permission: PERMISSION,
    input: CreateInput,
    output: Type.Object({ message: Type.String(), product: MasterProduct }),
    http: { method: 'POST', path: '/reseller-catalog/master-products', ...WRITE },
    async handler(input, ctx) {
      const me = await requireTop(ctx);
      const row = values(input);
      await skuTaken(ctx, row.sku!);
      const at = nowIso(ctx);
      const created = await ctx.host.db.create<MasterProductRow>('MasterProduct', { ...row, owner_tenant_id: me.id, created_at: at, updated_at: at });
      const product = present(created, 0);
      await cascade(ctx, [created.id]);
      await ctx.host.emit('reseller_catalog.MasterProductCreated', { product });
      return { message: 'Master product created.', product };
    },
  }),

  get_master_product: operation({
    description: 'One master product with its resellers count (ResellerAdmin).',
    permission: PERMISSION,
    input: Type.Object({ id: Uuid }, { additionalProperties: false }),
    output: Type.Object({ product: MasterProduct }),
    http: { method: 'GET', path: '/reseller-catalog/master-products/:id', ...READ },
    async handler(input, ctx) {
      await requireTop(ctx);
      const row = await load(ctx, input.id);
      return { product: present(row, (await resellersCount(ctx, [row.id])).get(row.id) ?? 0) };
    },
  }),

  update_master_product: operation({
    description: 'Changes fields of a master product; a new base cost cascades to every level (ResellerAdmin).',
    permission: PERMISSION,
    input: UpdateInput,
    output: Type.Object({ message: Type.String(), product: MasterProduct }),
    http: { method: 'PUT', path: '/reseller-catalog/master-products/:id', ...WRITE },
    async handler(input, ctx) {
      await requireTop(ctx);
      const before = await load(ctx, input.id);
      const changes = values(input as Record<string, unknown>);
      if (changes.sku !== undefined) await skuTaken(ctx, changes.sku, before.id);
      await ctx.host.db.update<MasterProductRow>('MasterProduct', { ...changes, updated_at: nowIso(ctx) }, { where: { id: before.id } });
      const after = await load(ctx, before.id);
      const product = present(after, (await resellersCount(ctx, [after.id])).get(after.id) ?? 0);
      // Every level's cost follows (a new base cost, name, status or stock) before the answer.
      await cascade(ctx, [after.id]);
      await ctx.host.emit('reseller_catalog.MasterProductUpdated', { product, changed: Object.keys(changes) });
      if (after.stock_quantity !== before.stock_quantity) {
        await ctx.host.emit('reseller_catalog.StockUpdated', { master_product_id: after.id, sku: after.sku, stock_quantity: after.stock_quantity, previous: before.stock_quantity, reason: 'update' });
      }
      return { message: 'Master product updated.', product };
    },
  }),

  sync_master_products: operation({
    description: 'Hands every master product\'s current costs down the whole network now (e.g. after sub-resellers joined).',
    ai_tool: false,
    permission: PERMISSION,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ message: Type.String(), tenants_reached: Type.Integer() }),
    http: { method: 'POST', path: '/reseller-catalog/master-products/sync', success_status: 200, ...WRITE },
    async handler(_input, ctx) {
      await requireTop(ctx);
      return { message: 'Costs handed down the network.', tenants_reached: await cascade(ctx, null) };
    },
  }),

  delete_master_product: operation({
    description: "Deletes a master product and this tenant's prices for it, unless open chain orders hold its stock (ResellerAdmin).",
    permission: PERMISSION,
    input: Type.Object({ id: Uuid }, { additionalProperties: false }),
    output: Type.Object({ message: Type.String() }),
    http: { method: 'DELETE', path: '/reseller-catalog/master-products/:id', success_status: 200, ...WRITE },
    async handler(input, ctx) {
      await requireTop(ctx);
      const row = await load(ctx, input.id);
      await ctx.host.db.transaction(async (tx) => {
        // Spec 3, Master product: not while a chain order accepted at the top holds its stock (a
        // reserved StockReservation: not yet delivered or cancelled). The product's lock first
        // (product-lock.ts), so a reservation racing this delete is either seen here or finds it gone.
        if (!(await lockProduct(tx, row.id, row.status))) throw conflict('The master product changed while it was being deleted; try again.', { product_id: row.id });
        const open = await tx.find<ReservationRow>('StockReservation', { where: { master_product_id: row.id, status: 'reserved' }, order: [['created_at', 'ASC'], ['id', 'ASC']] });
        if (open.length) throw productInUse(row, open.map((r) => ({ reference: r.reference, order_number: r.order_number, quantity: r.quantity, reserved_at: new Date(r.created_at).toISOString() })));
        await tx.destroy<PricingRow>('Pricing', { where: { master_product_id: row.id } });
        await tx.destroy<MasterProductRow>('MasterProduct', { where: { id: row.id } });
      });
      await cascade(ctx, [], { removed: [row.id] });
      return { message: 'Master product deleted.' };
    },
  }),
};
