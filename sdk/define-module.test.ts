import { defineModule, operation, Type, type OperationInput, type OperationOutput } from './index';
import type { HandlerContext } from './index';

/** Type-level expectations: checked by `npm run typecheck`, which compiles this file. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(ok: T) => ok;

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- it exists for its inferred type, which the assertions below check
const mod = defineModule({
  operations: {
    async get(input: { id: number }, ctx) {
      const row = await ctx.host.db.findOne<{ id: number; total: string }>('orders', {
        where: { id: input.id, total: { $gte: '10.00' }, $or: [{ id: { $in: [1, 2] } }, { total: { $like: '1%' } }] },
        order: [['id', 'DESC']],
        attributes: ['id', 'total'],
      });
      return { found: row !== null, tenant: ctx.tenantId };
    },
    count: operation<{ status: string }, number>(async (input, ctx) => ctx.host.db.count('orders', { where: { status: input.status } })),
  },
  events: {
    'payments.captured': async (payload: { orderId: number }, ctx) => {
      await ctx.host.emit('orders.paid', { id: payload.orderId });
    },
  },
});

assertType<Equal<OperationInput<typeof mod.operations.get>, { id: number }>>(true);
assertType<Equal<OperationOutput<typeof mod.operations.get>, { found: boolean; tenant: string }>>(true);
assertType<Equal<OperationOutput<typeof mod.operations.count>, number>>(true);

// @ts-expect-error an operation handler must be a function
defineModule({ operations: { get: 42 } });

async function misuse(ctx: HandlerContext) {
  // @ts-expect-error ordering by a column the row type lacks
  await ctx.host.db.find<{ id: number }>('orders', { order: [['nope', 'ASC']] });
  // @ts-expect-error operators are JSON keys; a misspelt one is caught
  await ctx.host.db.find<{ id: number }>('orders', { where: { id: { $greater: 1 } } });
  // @ts-expect-error log and now are the only synchronous host functions
  const later: number = ctx.host.call('orders.get', {});
  return later;
}

const Balance = Type.Object({ customer_id: Type.String(), points: Type.Integer(), note: Type.Nullable(Type.String()) });

const declared = defineModule({
  name: 'points',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  permissions: [{ name: 'points.view', description: 'See balances' }],
  operations: {
    balance: operation({
      description: 'Balance of a customer',
      permission: 'points.view',
      input: Type.Object({ customer_id: Type.String(), limit: Type.Optional(Type.Integer()) }),
      output: Balance,
      http: { method: 'GET', path: '/points/:customer_id', permission: 'points.view' },
      async handler(input, ctx) {
        const points = await ctx.host.db.count('points', { where: { customer_id: input.customer_id } });
        return { customer_id: input.customer_id, points, note: input.limit === undefined ? null : 'limited' };
      },
    }),
  },
  events: { subscribes: { 'orders.paid': async () => {} } },
});

assertType<Equal<OperationInput<typeof declared.operations.balance>, { customer_id: string; limit?: number }>>(true);
assertType<Equal<OperationOutput<typeof declared.operations.balance>, { customer_id: string; points: number; note: string | null }>>(true);

// @ts-expect-error the handler must return what `output` declares
operation({
  description: 'd',
  input: Type.Object({ n: Type.Integer() }),
  output: Type.Object({ doubled: Type.Integer() }),
  handler: (input) => ({ doubled: String(input.n * 2) }),
});

operation({
  description: 'd',
  input: Type.Object({ n: Type.Integer() }),
  output: Type.Integer(),
  // @ts-expect-error the input type comes from `input`: it has no field m
  handler: (input) => input.m,
});

// @ts-expect-error an operation is declared through operation(), which types its handler
defineModule({
  name: 'points',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  operations: { balance: { description: 'd', input: Type.Object({}), output: Type.Null(), handler: () => null } },
});

describe('DESIGN Contracts in code: operations declared with schemas beside their handlers', () => {
  it('exports the handlers for the sandbox and keeps the declaration for the build', async () => {
    expect(Object.keys(declared.operations)).toEqual(['balance']);
    expect(typeof declared.operations.balance).toBe('function');
    expect(Object.keys(declared.events)).toEqual(['orders.paid']);
    expect(declared.declaration.operations.balance.handler).toBe(declared.operations.balance);
  });

  it('builds schemas that are plain JSON Schema once serialised, nullable as a type list', () => {
    expect(JSON.parse(JSON.stringify(Balance))).toEqual({
      type: 'object',
      properties: { customer_id: { type: 'string' }, points: { type: 'integer' }, note: { type: ['string', 'null'] } },
      required: ['customer_id', 'points', 'note'],
    });
    expect(JSON.parse(JSON.stringify(Type.Nullable(Type.Union([Type.Literal('a'), Type.Literal('b')]))))).toEqual({
      anyOf: [{ anyOf: [{ const: 'a', type: 'string' }, { const: 'b', type: 'string' }] }, { type: 'null' }],
    });
  });
});

describe('issue 3 item 7: defineModule and the guest contract types', () => {
  it('returns the definition unchanged, so the bundle default export is the module itself', () => {
    const definition = { operations: { ping: () => 'pong' } };
    expect(defineModule(definition)).toBe(definition);
    expect(typeof misuse).toBe('function');
  });
});
