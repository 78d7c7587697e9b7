import pino from 'pino';
import { defineCoreOperation } from '../../core/kernel/bus/core-operation';
import { MandiError } from '../../core/kernel/errors';
import { Type } from '../../sdk';
import { coreContract } from '../../sdk/contracts/platform';
import { startTestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia } from './support';

/**
 * DESIGN.md Bus: an operation's result is checked against its declared output schema (on outside
 * production, BUS_VALIDATE_OUTPUT), so a handler that returns the wrong shape fails the call that
 * made it instead of handing its caller something the contract does not promise.
 */
async function shapedPlatform(env: Record<string, string>, lines: string[] = []) {
  const logger = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) });
  const tp = await startTestPlatform(env, undefined, logger);
  const owner = await tp.install('acme');
  await addFixtureModules(tp, ['shaped']);
  await installVia(tp, owner.token, 'acme', 'shaped');
  const call = (op: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: owner.tenantId, user: null });
  return { tp, owner, call };
}

const failure = (p: Promise<unknown>) => p.then(
  () => {
    throw new Error('the call succeeded');
  },
  (err: unknown) => err as MandiError,
);

describe('DESIGN Bus: output validation on (the default outside production)', () => {
  let ctx: Awaited<ReturnType<typeof shapedPlatform>>;
  const lines: string[] = [];
  beforeAll(async () => {
    ctx = await shapedPlatform({}, lines);
  }, 120_000);
  afterAll(() => ctx.tp.close());

  test('a result of the declared shape passes unchanged', async () => {
    expect(await ctx.call('shaped.balance', { mode: 'right' })).toEqual({ customer: 'c-1', points: 120, tier: 'gold', history: [{ delta: 100 }, { delta: 20 }] });
  });

  test('a sandboxed handler returning wrong types fails with OUTPUT_INVALID naming each JSON pointer, and is logged with module and operation', async () => {
    const err = await failure(ctx.call('shaped.balance', { mode: 'wrong_types' }));
    expect(err).toBeInstanceOf(MandiError);
    expect(err.code).toBe('OUTPUT_INVALID');
    expect(err.status).toBe(500);
    expect(err.details).toEqual({
      operation: 'shaped.balance',
      module: 'shaped',
      errors: {
        '/points': ['must be an integer'],
        '/tier': ['must be one of the allowed values: "silver", "gold"'],
        '/history/1/delta': ['must be an integer'],
      },
    });
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.operation === 'shaped.balance');
    expect(logged).toMatchObject({ module: 'shaped', operation: 'shaped.balance', errors: { '/points': ['must be an integer'] } });
  });

  test('a missing field and an undeclared one are named by pointer too (RFC 6901 escaping)', async () => {
    const err = await failure(ctx.call('shaped.balance', { mode: 'missing_and_extra' }));
    expect(err.details?.errors).toEqual({ '/customer': ['is required'], '/legacy~1id': ['is not allowed'] });
  });

  test('over HTTP the caller gets the 500 with the error code, never the broken result', async () => {
    const res = await ctx.tp.api('/shaped/balance?mode=wrong_types', { token: ctx.owner.token, tenant: 'acme' });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('OUTPUT_INVALID');
    expect(JSON.stringify(res.body)).not.toContain('platinum');
  });

  test('an operation without an output schema is not checked', async () => {
    expect(await ctx.call('shaped.free', {})).toEqual({ whatever: ['shape', 1] });
  });

  test('a core operation with an output schema is checked the same way', async () => {
    const bus = ctx.tp.platform.kernel.bus;
    const contract = coreContract({
      name: 'platform.test_core_count',
      description: 'Returns a count, or a string where the schema says integer.',
      input: Type.Object({ broken: Type.Optional(Type.Boolean()) }),
      output: Type.Object({ count: Type.Integer() }),
    });
    // The string is the point: the bus must refuse an answer its contract's output does not allow.
    bus.registerCore(defineCoreOperation(contract, async (input) => ({ count: (input.broken ? 'three' : 3) as number })));
    expect(await ctx.call('platform.test_core_count', {})).toEqual({ count: 3 });
    const err = await failure(ctx.call('platform.test_core_count', { broken: true }));
    expect(err.code).toBe('OUTPUT_INVALID');
    expect(err.details).toEqual({ operation: 'platform.test_core_count', module: 'core', errors: { '/count': ['must be an integer'] } });
  });
});

describe('DESIGN Bus: BUS_VALIDATE_OUTPUT=off skips the check (production default)', () => {
  let ctx: Awaited<ReturnType<typeof shapedPlatform>>;
  beforeAll(async () => {
    ctx = await shapedPlatform({ BUS_VALIDATE_OUTPUT: 'off' });
  }, 120_000);
  afterAll(() => ctx.tp.close());

  test('a result of the wrong shape is returned as the handler made it', async () => {
    expect(await ctx.call('shaped.balance', { mode: 'wrong_types' })).toMatchObject({ points: '120', tier: 'platinum' });
  });
});
