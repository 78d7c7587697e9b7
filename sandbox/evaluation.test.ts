import { SandboxRuntime, type InvokeRequest } from '.';
import { TestBridge, iife } from './testing';

// A module that evaluates what it is given, as the code node's evaluator does.
const EVALUATOR = iife(`
  return { default: { operations: {
    evaluate(input, ctx) { return ctx.host.evaluate(input.expression, input.inputs); },
    async keepsOwn(input, ctx) {
      globalThis.secret = 'module global';
      const seen = await ctx.host.evaluate('typeof secret');
      await ctx.host.evaluate('(globalThis.planted = 1, Object.prototype.planted = 2)');
      return { seen, planted: typeof planted, viaPrototype: ({}).planted === undefined ? null : ({}).planted };
    },
    async caught(input, ctx) {
      try { await ctx.host.evaluate(input.expression, input.inputs); return 'resolved'; }
      catch (e) { return { code: e.code, message: e.message, details: e.details }; }
    },
  } } };
`);

describe('sandbox/README host.evaluate: an expression in a context of its own', () => {
  let runtime: SandboxRuntime;
  const invoke = (name: string, input: unknown, extra: Partial<InvokeRequest> = {}) =>
    runtime.invoke('evaluator@1.0.0', { tenantId: 't1', kind: 'operation', name, input, caller: 'http', user: null, bridge: new TestBridge(), ...extra });

  beforeAll(() => {
    runtime = new SandboxRuntime();
    runtime.load('evaluator@1.0.0', EVALUATOR, { memoryMb: 32, timeoutMs: 1000, maxOutputBytes: 4096 });
  });
  afterAll(() => runtime.dispose());

  it('answers a JSON copy of the value over the inputs, undefined as undefined', async () => {
    await expect(invoke('evaluate', { expression: 'a + b.n', inputs: { a: 1, b: { n: 2 } } })).resolves.toBe(3);
    await expect(invoke('evaluate', { expression: '({ at: new Date(0), f() {} })' })).resolves.toEqual({ at: '1970-01-01T00:00:00.000Z' });
    await expect(invoke('evaluate', { expression: 'undefined' })).resolves.toBeUndefined();
  });

  it("sees none of the calling context's globals and leaves none in it", async () => {
    await expect(invoke('keepsOwn', {})).resolves.toEqual({ seen: 'undefined', planted: 'undefined', viaPrototype: null });
  });

  it('a throw, a syntax error, a value over the output limit and a bad input name reject with their codes', async () => {
    await expect(invoke('caught', { expression: '(() => { throw new RangeError("too far") })()' })).resolves.toEqual({ code: 'EVALUATION_ERROR', message: 'RangeError: too far', details: { name: 'RangeError' } });
    await expect(invoke('caught', { expression: '1 +' })).resolves.toMatchObject({ code: 'EVALUATION_ERROR', details: { name: 'SyntaxError' } });
    await expect(invoke('caught', { expression: '"x".repeat(5000)' })).resolves.toMatchObject({ code: 'OUTPUT_TOO_LARGE' });
    await expect(invoke('caught', { expression: 'a', inputs: { 'a = globalThis': 1 } })).resolves.toMatchObject({ code: 'INVALID_REQUEST' });
    await expect(invoke('caught', { expression: '' })).resolves.toMatchObject({ code: 'INVALID_REQUEST' });
  });

  it("gets what is left of the call's time: a loop fails the call with TIMEOUT and the isolate is kept", async () => {
    await expect(invoke('evaluate', { expression: '(() => { for (;;); })()' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(invoke('evaluate', { expression: '2 * 21' })).resolves.toBe(42);
    expect((await runtime.stats())['evaluator@1.0.0']).toMatchObject({ rebuilds: 0, timeouts: 1 });
  });

  it("cut at the module's time limit in a call given longer, the expression rejects and the handler carries on", async () => {
    await expect(invoke('caught', { expression: '(() => { for (;;); })()' }, { timeoutMs: 3000 })).resolves.toMatchObject({ code: 'TIMEOUT', details: { limitMs: expect.any(Number) } });
  });
});
