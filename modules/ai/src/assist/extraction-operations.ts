/**
 * POST /ai/orders/extract and POST /ai/orders/extract/{id}/confirm (README, Assist). Extraction
 * writes nothing in orders: it keeps the proposal (table order_extractions, the user's own, 24 hours)
 * and answers it for confirmation. Confirming creates the draft order (status pending) through
 * orders.create as the user (orders.create permission), repriced from the catalog at that moment;
 * a proposal is confirmed once (compare-and-set on its status).
 */
import { operation, Type, type HandlerContext, type Model } from '../../../../sdk';
import { aiErrors, notFound } from '../errors';
import { VIEW } from '../permissions';
import { asUser } from './model-answer';
import { catalog, extract, MAX_MESSAGE, priceLines, type ProposedLine, type UnknownItem } from './order-extraction';

const TTL_MS = 24 * 3_600_000;
const Customer = Type.Object(
  { id: Type.Optional(Type.String({ maxLength: 100 })), name: Type.Optional(Type.String({ maxLength: 255 })), email: Type.Optional(Type.String({ maxLength: 255 })), phone: Type.Optional(Type.String({ maxLength: 30 })) },
  { additionalProperties: false },
);
const Line = Type.Object({ product_id: Type.String(), sku: Type.String(), name: Type.String(), quantity: Type.Integer(), unit_price: Type.String(), line_total: Type.String() });
const Proposal = Type.Object({
  id: Type.String(),
  status: Type.String(),
  text: Type.String(),
  customer: Type.Unknown(),
  lines: Type.Array(Line),
  unknown_items: Type.Array(Type.Object({ text: Type.String(), quantity: Type.Union([Type.Integer(), Type.Null()]), reason: Type.String() })),
  subtotal: Type.String(),
  order_id: Type.Union([Type.String(), Type.Null()]),
  expires_at: Type.String(),
});

interface Row {
  id: string;
  user_id: number;
  status: 'proposed' | 'confirming' | 'confirmed';
  text: string;
  customer: Record<string, string> | null;
  lines: ProposedLine[];
  unknown_items: UnknownItem[];
  subtotal: string;
  order_id: string | null;
  created_at: string;
}

const notProposed = aiErrors.extractionNotProposed;

const view = (r: Row) => ({
  id: r.id, status: r.status, text: r.text, customer: r.customer, lines: r.lines, unknown_items: r.unknown_items, subtotal: r.subtotal, order_id: r.order_id,
  expires_at: new Date(Date.parse(r.created_at) + TTL_MS).toISOString(),
});

const userOf = (ctx: HandlerContext) => {
  if (!ctx.user) throw aiErrors.forbidden('Order extraction acts for a user of the tenant.');
  return ctx.user.id;
};

async function mine(ctx: HandlerContext, id: string): Promise<Row> {
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await ctx.host.db.findOne<Row>('OrderExtraction', { where: { id, user_id: userOf(ctx) } }) : null;
  if (!row || Date.parse(row.created_at) + TTL_MS < ctx.host.now()) throw notFound('Order extraction', id);
  return row;
}

export const extractionModels: Record<string, Model> = {
  OrderExtraction: {
    table: 'order_extractions',
    columns: {
      id: { type: 'uuid', primaryKey: true, default: { $fn: 'uuid' } },
      user_id: { type: 'integer', nullable: false },
      status: { type: 'string', length: 16, nullable: false },
      text: { type: 'text', nullable: false },
      customer: { type: 'json', nullable: true },
      lines: { type: 'json', nullable: false, default: [] },
      unknown_items: { type: 'json', nullable: false, default: [] },
      subtotal: { type: 'string', length: 20, nullable: false },
      order_id: { type: 'string', length: 64, nullable: true },
      created_at: { type: 'datetime', nullable: false, default: { $fn: 'now' } },
    },
    indexes: [{ fields: ['user_id', 'created_at'] }],
  },
};

export const extractionOperations = {
  extract_order: operation({
    description: "Reads an order out of a customer's message: lines matched to the tenant's catalog (catalog prices), unknown items apart; nothing is created until confirmed.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({ text: Type.String({ minLength: 1, maxLength: MAX_MESSAGE }), customer: Type.Optional(Customer) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Composite([Proposal, Type.Object({ provider: Type.String(), model: Type.String(), usage: Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer() }) })]) }),
    http: { method: 'POST', path: '/ai/orders/extract', success_status: 201 },
    async handler(input, ctx) {
      const user = userOf(ctx);
      const found = await extract(ctx, input.text);
      const row = await ctx.host.db.create<Row>('OrderExtraction', {
        user_id: user, status: 'proposed', text: input.text, customer: input.customer ?? null, lines: found.lines, unknown_items: found.unknown_items, subtotal: found.subtotal, order_id: null,
        created_at: new Date(ctx.host.now()).toISOString(),
      });
      return { data: { ...view(row), provider: found.provider, model: found.model, usage: found.usage } };
    },
  }),

  confirm_order_extraction: operation({
    description: "Creates the proposed draft order (status pending) through orders, as the user, at the catalog's current prices; once per proposal.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({ id: Type.String({ maxLength: 64 }), customer: Type.Optional(Customer) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Object({ extraction: Proposal, order: Type.Unknown() }) }),
    http: { method: 'POST', path: '/ai/orders/extract/:id/confirm', success_status: 201 },
    async handler(input, ctx) {
      const row = await mine(ctx, input.id);
      if (row.status !== 'proposed') throw notProposed(row.id, row.status);
      const priced = priceLines(await catalog(ctx), row.lines);
      if (priced.lines.length === 0) throw aiErrors.nothingToOrder();
      // Claimed first (compare-and-set), so two confirms create one order.
      const claimed = await ctx.host.db.update<Row>('OrderExtraction', { status: 'confirming' }, { where: { id: row.id, status: 'proposed' } });
      if (claimed === 0) throw notProposed(row.id, 'confirming');
      const customer = input.customer ?? row.customer ?? {};
      let order: { id: string };
      try {
        order = await asUser<{ id: string }>(ctx, 'orders.create', {
          customer, status: 'pending', source: 'ai_extraction', notes: `From a customer message (AI order extraction ${row.id}).`,
          items: priced.lines.map((l) => ({ name: l.name, sku: l.sku, quantity: l.quantity, unit_price: l.unit_price })),
        });
      } catch (err) {
        await ctx.host.db.update<Row>('OrderExtraction', { status: 'proposed' }, { where: { id: row.id, status: 'confirming' } });
        throw err;
      }
      await ctx.host.db.update<Row>('OrderExtraction', { status: 'confirmed', order_id: order.id, lines: priced.lines, subtotal: priced.subtotal, customer }, { where: { id: row.id } });
      return { data: { extraction: view({ ...row, status: 'confirmed', order_id: order.id, lines: priced.lines, subtotal: priced.subtotal, customer }), order } };
    },
  }),
};
