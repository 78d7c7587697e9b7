import { SandboxError, SandboxRuntime, type InvokeRequest } from '.';
import { TestBridge, iife } from './testing';

const ORDERS = iife(`
  let loads = 0;
  loads++;
  const def = {
    operations: {
      get(input, ctx) { return { id: input.id, tenantId: ctx.tenantId, caller: ctx.caller, user: ctx.user }; },
      relatedFrom(_input, ctx) { return ctx.relatedFrom; },
      idempotencyKey(_input, ctx) { return ctx.idempotencyKey; },
      async slow(input) { await null; return input.n * 2; },
      nothing() {},
      fail(input) {
        const e = new Error('Order ' + input.id + ' is out of stock');
        e.code = 'OUT_OF_STOCK';
        e.details = { id: input.id };
        throw e;
      },
      async rejects() { throw new TypeError('bad type'); },
      throwsString() { throw 'just a string'; },
      bigint() { return 10n; },
      cyclic() { const a = {}; a.self = a; return a; },
      ctxShape(input, ctx) {
        return { keys: Object.keys(ctx).sort(), hasHost: 'host' in ctx, sameHost: ctx.host === ctx.host,
          frozen: Object.isFrozen(ctx) && Object.isFrozen(ctx.host) && Object.isFrozen(ctx.host.db) && Object.isFrozen(Object.getPrototypeOf(ctx)),
          constructor: typeof Object.getPrototypeOf(ctx).constructor,
          hostKeys: Object.keys(ctx.host).sort(), dbKeys: Object.keys(ctx.host.db).sort() };
      },
      usesThis() { return typeof this.get; },
    },
    events: {
      'orders.created'(payload, ctx) { return { seen: payload.id, tenantId: ctx.tenantId, event: ctx.event, eventFrozen: ctx.event === null || Object.isFrozen(ctx.event) }; },
    },
  };
  return { default: def };
`);

describe('spec/DESIGN: sandbox loads module bundles and runs their handlers', () => {
  let runtime: SandboxRuntime;
  let bridge: TestBridge;
  const invoke = (req: Partial<InvokeRequest> & { name: string }, key = 'orders@1.0.0') =>
    runtime.invoke(key, { tenantId: 't1', kind: 'operation', input: {}, caller: 'http', user: null, bridge, ...req });

  beforeEach(() => {
    runtime = new SandboxRuntime({ limits: { timeoutMs: 2000 } });
    bridge = new TestBridge();
    runtime.load('orders@1.0.0', ORDERS);
  });
  afterEach(() => runtime.dispose());

  it('runs an operation by its handler key with the ctx fields', async () => {
    await expect(invoke({ name: 'get', input: { id: 7 }, user: { id: 3, name: 'Ann' }, caller: 'loyalty' })).resolves.toEqual({
      id: 7,
      tenantId: 't1',
      caller: 'loyalty',
      user: { id: 3, name: 'Ann' },
    });
    await expect(invoke({ name: 'slow', input: { n: 21 } })).resolves.toBe(42);
    await expect(invoke({ name: 'nothing' })).resolves.toBeUndefined();
    await expect(invoke({ name: 'usesThis' })).resolves.toBe('function');
  });

  it('spec 2 Execution: ctx.idempotencyKey carries a workflow step\'s key, and is null otherwise', async () => {
    await expect(invoke({ name: 'idempotencyKey', idempotencyKey: 'exec-1:node-2:0' })).resolves.toBe('exec-1:node-2:0');
    await expect(invoke({ name: 'idempotencyKey' })).resolves.toBeNull();
  });

  it('spec 3 reseller network: ctx.relatedFrom names the related tenant that called, and is null otherwise', async () => {
    await expect(invoke({ name: 'relatedFrom', relatedFrom: 'parent01' })).resolves.toBe('parent01');
    await expect(invoke({ name: 'relatedFrom' })).resolves.toBeNull();
    await expect(invoke({ name: 'relatedFrom', relatedFrom: 7 as unknown as string })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('gives handlers a frozen ctx with the host of the guest contract', async () => {
    await expect(invoke({ name: 'ctxShape' })).resolves.toEqual({
      keys: ['caller', 'event', 'idempotencyKey', 'relatedFrom', 'stream', 'tenantId', 'user'],
      hasHost: true,
      sameHost: true,
      frozen: true,
      constructor: 'function', // Object's: ctx's own prototype has none to make a ctx with
      hostKeys: ['call', 'db', 'emit', 'evaluate', 'fetch', 'log', 'now'],
      dbKeys: ['bulkCreate', 'count', 'create', 'destroy', 'find', 'findOne', 'sequence', 'transaction', 'update', 'upsert'],
    });
  });

  it('runs event handlers, with the delivery\'s event id in ctx.event (null when not given)', async () => {
    const event = { id: 'evt-1', name: 'orders.created', emitted_at: '2030-01-01T00:00:00.000Z' };
    await expect(invoke({ kind: 'event', name: 'orders.created', input: { id: 5 }, event })).resolves.toEqual({ seen: 5, tenantId: 't1', event, eventFrozen: true });
    await expect(invoke({ kind: 'event', name: 'orders.created', input: { id: 6 } })).resolves.toEqual({ seen: 6, tenantId: 't1', event: null, eventFrozen: true });
  });

  it('answers NOT_FOUND for an unknown module, operation or event', async () => {
    await expect(invoke({ name: 'get' }, 'nope@1.0.0')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(invoke({ name: 'missing' })).rejects.toMatchObject({ code: 'NOT_FOUND', details: { name: 'missing' } });
    await expect(invoke({ name: 'toString' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(invoke({ kind: 'event', name: 'orders.deleted' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('turns a thrown error into HANDLER_ERROR that keeps the guest code and details', async () => {
    const error = await invoke({ name: 'fail', input: { id: 9 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect(error).toMatchObject({
      code: 'HANDLER_ERROR',
      message: 'Order 9 is out of stock',
      details: { name: 'Error', code: 'OUT_OF_STOCK', details: { id: 9 } },
    });
    expect((error as SandboxError).guestStack).toContain('orders%401.0.0');
    await expect(invoke({ name: 'rejects' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: 'bad type', details: { name: 'TypeError' } });
    await expect(invoke({ name: 'throwsString' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: 'just a string' });
  });

  it('refuses results and inputs that are not JSON', async () => {
    await expect(invoke({ name: 'bigint' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', details: { name: 'TypeError' } });
    await expect(invoke({ name: 'cyclic' })).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: expect.stringContaining('JSON') });
    await expect(invoke({ name: 'get', input: { id: 1n } })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await expect(invoke({ name: 'get', tenantId: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('rejects a bundle that does not parse with SYNTAX_ERROR', () => {
    expect(() => runtime.load('broken@1.0.0', 'var __mandi_module = {')).toThrow(
      expect.objectContaining({ code: 'SYNTAX_ERROR', message: expect.stringContaining('broken@1.0.0') }),
    );
  });

  it('answers INIT_ERROR when the bundle throws or defines no module', async () => {
    runtime.load('throws@1.0.0', 'throw new Error("no config")');
    runtime.load('empty@1.0.0', 'var x = 1;');
    runtime.load('badops@1.0.0', iife('return { operations: 5 };'));
    await expect(invoke({ name: 'get' }, 'throws@1.0.0')).rejects.toMatchObject({ code: 'INIT_ERROR', message: expect.stringContaining('no config') });
    await expect(invoke({ name: 'get' }, 'empty@1.0.0')).rejects.toMatchObject({ code: 'INIT_ERROR', message: expect.stringContaining('__mandi_module') });
    await expect(invoke({ name: 'get' }, 'badops@1.0.0')).rejects.toMatchObject({ code: 'INIT_ERROR', message: expect.stringContaining('operations') });
  });

  it('accepts a bundle whose value has no default export', async () => {
    runtime.load('plain@1.0.0', iife('return { operations: { hi: () => "hi" } };'));
    await expect(invoke({ name: 'hi' }, 'plain@1.0.0')).resolves.toBe('hi');
  });

  it('keeps a loaded sandbox for the same code, replaces it for new code, and unloads', async () => {
    const first = runtime.get('orders@1.0.0');
    expect(runtime.load('orders@1.0.0', ORDERS)).toBe(first);
    const pending = invoke({ name: 'slow', input: { n: 1 } });
    const replaced = runtime.load('orders@1.0.0', iife('return { operations: { get: () => "v2" } };'));
    expect(replaced).not.toBe(first);
    await expect(pending).rejects.toMatchObject({ code: 'ISOLATE_DISPOSED' });
    await expect(invoke({ name: 'get' })).resolves.toBe('v2');
    runtime.unload('orders@1.0.0');
    expect(runtime.get('orders@1.0.0')).toBeUndefined();
    await expect(invoke({ name: 'get' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('answers many calls in flight together, each with its own result', async () => {
    const results = await Promise.all(
      Array.from({ length: 400 }, (_, i) => invoke({ name: i % 2 ? 'slow' : 'get', tenantId: `t${i % 7}`, input: { id: i, n: i } })),
    );
    results.forEach((r, i) => expect(r).toEqual(i % 2 ? i * 2 : { id: i, tenantId: `t${i % 7}`, caller: 'http', user: null }));
  });

  it('validates limits', () => {
    expect(() => runtime.load('x@1', ORDERS, { memoryMb: 2 })).toThrow(/memoryMb/);
    expect(() => new SandboxRuntime({ limits: { timeoutMs: 0 } })).toThrow(/timeoutMs/);
  });
});
