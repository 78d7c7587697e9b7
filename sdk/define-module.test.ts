import { defineModule, operation, type OperationInput, type OperationOutput } from './index';
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

describe('issue 3 item 7: defineModule and the guest contract types', () => {
  it('returns the definition unchanged, so the bundle default export is the module itself', () => {
    const definition = { operations: { ping: () => 'pong' } };
    expect(defineModule(definition)).toBe(definition);
    expect(typeof misuse).toBe('function');
  });
});
