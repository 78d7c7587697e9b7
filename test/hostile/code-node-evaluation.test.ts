/**
 * The code node's evaluator (modules/workflows-code) in the real sandbox runtime: each expression
 * runs in a context of its own (sandbox/README.md, host.evaluate), so what one expression does to
 * globals, prototypes or the module's handlers is gone by the next evaluation, in this tenant or
 * any other, and no expression reaches `ctx.host` or any host function. The module's time and
 * memory limits still stop a runaway expression.
 */
import { readFile } from 'node:fs/promises';
import { buildModule } from '../../sdk/build/build-module';
import { SandboxRuntime, type InvokeRequest } from '../../sandbox';
import { TestBridge } from '../../sandbox/testing';
import { WORKFLOWS_CODE_DIR } from '../workflows/support';

const KEY = 'workflows_code@1.0.0';

describe('hostile: code node expressions against the evaluator', () => {
  let runtime: SandboxRuntime;
  let bridge: TestBridge;
  const evaluate = (input: Record<string, unknown>, extra: Partial<InvokeRequest> = {}) =>
    runtime.invoke(KEY, { tenantId: 't1', kind: 'operation', name: 'evaluate', input, caller: 'workflow', user: null, bridge, ...extra });

  beforeAll(async () => {
    const built = await buildModule(WORKFLOWS_CODE_DIR);
    runtime = new SandboxRuntime();
    runtime.load(KEY, await readFile(built.outfile, 'utf8'), { memoryMb: built.manifest.limits!.memory_mb, timeoutMs: built.manifest.limits!.timeout_ms });
  }, 60_000);
  beforeEach(() => {
    bridge = new TestBridge();
  });
  afterAll(() => runtime?.dispose());

  it('a legitimate expression runs over data and placeholder values and answers its JSON result', async () => {
    await expect(evaluate({ expression: 'data.items.map((i) => i * 2)', data: { items: [1, 2] } })).resolves.toEqual({ result: [2, 4] });
    await expect(evaluate({ expression: '{{total}} * 2 + {{ customer.name }}.length', placeholders: { total: 21, 'customer.name': 'Asha' } })).resolves.toEqual({ result: 46 });
    await expect(evaluate({ expression: '`Hi ${{{name}}}`', placeholders: { name: 'Ravi' } })).resolves.toEqual({ result: 'Hi Ravi' });
    await expect(evaluate({ expression: '{{missing}}', placeholders: {} })).resolves.toEqual({ result: null });
    await expect(evaluate({ expression: 'undefined' })).resolves.toEqual({ result: null });
    await expect(evaluate({ expression: '(() => { throw new TypeError("nope") })()' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: expect.stringContaining('nope') });
    await expect(evaluate({ expression: '1 +' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: expect.stringContaining('SyntaxError') });
  });

  it('an expression that replaces the evaluate handler has no effect on the next evaluation or another tenant', async () => {
    const takeover = `(() => {
      const m = globalThis.__mandi_module;
      (m.default || m).operations.evaluate = (input, ctx) => ctx.host.call('orders.list', {}).then(() => ({ result: 'owned' }));
      return 'planted';
    })()`;
    await evaluate({ expression: takeover }).catch(() => undefined);
    await expect(evaluate({ expression: '1 + 1' })).resolves.toEqual({ result: 2 });
    await expect(evaluate({ expression: '1 + 1' }, { tenantId: 't2' })).resolves.toEqual({ result: 2 });
    expect(bridge.calls).toEqual([]);
  });

  it('shared globals and prototypes an expression mutates are gone by the next evaluation', async () => {
    const mutate = `(globalThis.count = (globalThis.count || 0) + 1, JSON.stringify = () => '"owned"', JSON.parse = () => 'owned',
      Object.prototype.toJSON = function () { return 'owned'; }, Array.prototype.map = () => 'owned', Function.prototype.call = () => 'owned', globalThis.count)`;
    await expect(evaluate({ expression: mutate })).resolves.toEqual({ result: 1 });
    await expect(evaluate({ expression: mutate })).resolves.toEqual({ result: 1 });
    await expect(evaluate({ expression: '[1, 2].map((i) => i + 1)' })).resolves.toEqual({ result: [2, 3] });
    await expect(evaluate({ expression: 'typeof count' })).resolves.toEqual({ result: 'undefined' });
    await expect(evaluate({ expression: 'typeof count' }, { tenantId: 't2' })).resolves.toEqual({ result: 'undefined' });
  });

  it('an expression reaches no ctx.host, no host function and nothing of the module', async () => {
    const probe = `(() => {
      const names = Object.getOwnPropertyNames(globalThis);
      let viaCaller = 'none';
      try { viaCaller = typeof (function f() { return f.caller; })(); } catch (e) { viaCaller = 'refused'; }
      return {
        mandi: names.filter((n) => /mandi|host|ctx/i.test(n)),
        viaThis: typeof this,
        viaArguments: Array.from(arguments),
        viaCaller,
        escapes: ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'FinalizationRegistry', 'process', 'require', 'setTimeout', 'fetch'].filter((n) => n in globalThis),
      };
    })()`;
    await expect(evaluate({ expression: probe })).resolves.toEqual({ result: { mandi: [], viaThis: 'undefined', viaArguments: [null], viaCaller: 'refused', escapes: [] } });
    // The arguments of the expression's function are its inputs, copies of JSON: nothing else.
    await expect(evaluate({ expression: 'Array.from(arguments)', data: { a: 1 }, placeholders: { total: 2 } })).resolves.toEqual({ result: [{ a: 1 }] });
    expect(bridge.calls).toEqual([]);
  });

  it('a runaway expression is stopped by the time limit and the next evaluation runs', async () => {
    await expect(evaluate({ expression: '(() => { for (;;); })()' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(evaluate({ expression: '(async () => { for (;;) await 0; })()' })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await expect(evaluate({ expression: '6 * 7' })).resolves.toEqual({ result: 42 });
  }, 30_000);

  it('a memory bomb is stopped by the memory limit and the next evaluation runs', async () => {
    await expect(evaluate({ expression: '(() => { const a = []; for (;;) a.push(new Array(100000).fill(Math.random())); })()' })).rejects.toMatchObject({ code: 'MEMORY_LIMIT' });
    await expect(evaluate({ expression: '6 * 7' })).resolves.toEqual({ result: 42 });
  }, 30_000);
});
