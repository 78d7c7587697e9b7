import { SandboxRuntime, type InvokeRequest } from '.';
import { TestBridge, iife } from './testing';

const MODULE = iife(`
  let kept;
  return { default: { operations: {
    async callOther(input, ctx) { return ctx.host.call('inventory.reserve', input); },
    async callFails(input, ctx) {
      try { await ctx.host.call('inventory.reserve', input); return 'no error'; }
      catch (e) { return { isError: e instanceof Error, message: e.message, code: e.code, details: e.details, hostStack: /[.]ts:|node:|testing/.test(String(e.stack)) }; }
    },
    async callFailsUncaught(input, ctx) { await ctx.host.call('inventory.reserve', input); },
    async crud(input, ctx) {
      const db = ctx.host.db;
      const a = await db.create('items', { sku: 'a', qty: 1 });
      await db.bulkCreate('items', [{ sku: 'b', qty: 2 }, { sku: 'c', qty: 3 }]);
      await db.update('items', { qty: 5 }, { where: { sku: 'b' } });
      await db.upsert('items', { sku: 'd', qty: 4 }, { where: { sku: 'd' } });
      const one = await db.findOne('items', { where: { sku: 'b' } });
      const removed = await db.destroy('items', { where: { sku: 'c' } });
      const count = await db.count('items');
      const all = await db.find('items', {});
      const seq = [await db.sequence('invoice'), await db.sequence('invoice')];
      return { a, one, removed, count, skus: all.map((r) => r.sku), seq };
    },
    async txCommit(input, ctx) {
      const out = await ctx.host.db.transaction(async (tx) => {
        await tx.create('items', { sku: 'tx' });
        return tx.count('items');
      });
      return { out, after: await ctx.host.db.count('items') };
    },
    async txThrows(input, ctx) {
      try {
        await ctx.host.db.transaction(async (tx) => {
          await tx.create('items', { sku: 'lost' });
          throw Object.assign(new Error('changed my mind'), { code: 'NOPE' });
        });
      } catch (e) { return { message: e.message, code: e.code, after: await ctx.host.db.count('items') }; }
    },
    async txLeftOpen(input, ctx) {
      await ctx.host.db.transaction(async (tx) => { await tx.create('items', { sku: 'open' }); kept = tx; throw new Error('x'); }).catch(() => {});
      return 'done';
    },
    async abandonTx(input, ctx) {
      let began;
      const opened = new Promise((r) => { began = r; });
      ctx.host.db.transaction(async (tx) => { await tx.create('items', { sku: 'x' }); began(); await new Promise(() => {}); });
      await opened;
      return 'abandoned';
    },
    async staleTx(input, ctx) {
      try { await kept.count('items'); return 'used'; } catch (e) { return e.code; }
    },
    async badDb(input, ctx) {
      try { await ctx.host.db.transaction(5); } catch (e) { return e.message; }
    },
    async emitAndLog(input, ctx) {
      await ctx.host.emit('orders.created', { id: 1 });
      ctx.host.log.debug('d');
      ctx.host.log.info('hello', { n: 1 });
      ctx.host.log.warn({ toString() { return 'objects become strings'; } });
      ctx.host.log.error('with bigint', { n: 1n });
      return 'ok';
    },
    spamLogs(input, ctx) { for (let i = 0; i < 50; i++) ctx.host.log.info('line ' + i); },
    now(input, ctx) { return [ctx.host.now(), ctx.host.now()]; },
    keepHost(input, ctx) { kept = ctx.host; return 'kept'; },
    async useKeptHost() {
      try { await kept.call('inventory.reserve', {}); return 'used'; } catch (e) { return e.code; }
    },
    async fireAndForget(input, ctx) { ctx.host.emit('late', {}); return 'returned'; },
  } } };
`);

describe('spec/DESIGN: sandbox host bridge (call, db, emit, log, now)', () => {
  let runtime: SandboxRuntime;
  let bridge: TestBridge;
  const invoke = (name: string, input: unknown = {}, extra: Partial<InvokeRequest> = {}) =>
    runtime.invoke('shop@1.0.0', { tenantId: 't1', kind: 'operation', name, input, caller: 'http', user: null, bridge, ...extra });

  beforeEach(() => {
    runtime = new SandboxRuntime({ limits: { timeoutMs: 2000, maxLogLinesPerCall: 10 } });
    runtime.load('shop@1.0.0', MODULE);
    bridge = new TestBridge();
  });
  afterEach(() => runtime.dispose());

  it('host.call reaches the bridge with a copy of the input and returns a copy of the result', async () => {
    bridge.onCall = (op, input) => ({ reserved: true, op, input });
    await expect(invoke('callOther', { sku: 'a', qty: 2 })).resolves.toEqual({ reserved: true, op: 'inventory.reserve', input: { sku: 'a', qty: 2 } });
    expect(bridge.calls).toEqual([{ op: 'inventory.reserve', input: { sku: 'a', qty: 2 } }]);
  });

  it('a host.call rejection reaches the guest as a plain Error with code and details, no host stack', async () => {
    bridge.onCall = () => {
      throw Object.assign(new Error('Not enough stock'), { code: 'OUT_OF_STOCK', details: { available: 1 } });
    };
    await expect(invoke('callFails')).resolves.toEqual({
      isError: true,
      message: 'Not enough stock',
      code: 'OUT_OF_STOCK',
      details: { available: 1 },
      hostStack: false,
    });
    // Uncaught, it comes back to the caller as HANDLER_ERROR with the same code and details.
    await expect(invoke('callFailsUncaught')).rejects.toMatchObject({
      code: 'HANDLER_ERROR',
      message: 'Not enough stock',
      details: { code: 'OUT_OF_STOCK', details: { available: 1 } },
    });
  });

  it('host.db runs every data method on the bridge', async () => {
    await expect(invoke('crud')).resolves.toEqual({
      a: { id: 1, sku: 'a', qty: 1 },
      one: { id: 2, sku: 'b', qty: 5 },
      removed: 1,
      count: 3,
      skus: ['a', 'b', 'd'],
      seq: [1, 2],
    });
    expect(bridge.dbCalls.map((c) => c.method)).toEqual([
      'create', 'bulkCreate', 'update', 'upsert', 'findOne', 'destroy', 'count', 'find', 'sequence', 'sequence',
    ]);
  });

  it('host.db.transaction commits when the work succeeds', async () => {
    await expect(invoke('txCommit')).resolves.toEqual({ out: 1, after: 1 });
    expect(bridge.dbCalls.map((c) => [c.method, c.txId])).toEqual([
      ['tx.begin', undefined],
      ['create', 'tx1'],
      ['count', 'tx1'],
      ['tx.commit', 'tx1'],
      ['count', undefined],
    ]);
  });

  it('host.db.transaction rolls back and rethrows when the work throws', async () => {
    await expect(invoke('txThrows')).resolves.toEqual({ message: 'changed my mind', code: 'NOPE', after: 0 });
    expect(bridge.dbCalls.map((c) => c.method)).toEqual(['tx.begin', 'create', 'tx.rollback', 'count']);
    expect(bridge.transactions.size).toBe(0);
  });

  it('a transaction left open when its call ends is rolled back before the caller is answered', async () => {
    await expect(invoke('abandonTx')).resolves.toBe('abandoned');
    expect(bridge.dbCalls.map((c) => [c.method, c.txId])).toEqual([
      ['tx.begin', undefined],
      ['create', 'tx1'],
      ['tx.rollback', 'tx1'],
    ]);
    expect(bridge.tables.get('items') ?? []).toEqual([]);
  });

  it('a transaction cannot be used from another call', async () => {
    await invoke('txLeftOpen');
    await expect(invoke('staleTx')).resolves.toBe('INVOCATION_ENDED');
    await expect(invoke('badDb')).resolves.toMatch(/needs a function/);
  });

  it('host.emit and host.log reach the bridge; logs are capped per call', async () => {
    await expect(invoke('emitAndLog')).resolves.toBe('ok');
    expect(bridge.events).toEqual([{ event: 'orders.created', payload: { id: 1 } }]);
    expect(bridge.logs).toEqual([
      { level: 'debug', message: 'd' },
      { level: 'info', message: 'hello', data: { n: 1 } },
      { level: 'warn', message: 'objects become strings' },
      { level: 'error', message: 'with bigint', data: '[unserialisable data]' },
    ]);
    bridge.logs.length = 0;
    await invoke('spamLogs');
    expect(bridge.logs).toHaveLength(11);
    expect(bridge.logs[10]).toMatchObject({ level: 'warn', message: expect.stringContaining('limit') });
  });

  it('host.now reads the host clock, which tests can set', async () => {
    bridge.clock = Date.UTC(2031, 5, 1);
    await expect(invoke('now')).resolves.toEqual([Date.UTC(2031, 5, 1), Date.UTC(2031, 5, 1)]);
  });

  it('a host object kept past its call is dead', async () => {
    await invoke('keepHost');
    await expect(invoke('useKeptHost')).resolves.toBe('INVOCATION_ENDED');
    expect(bridge.calls).toEqual([]);
  });

  it('requests sent before the handler returned still run', async () => {
    await expect(invoke('fireAndForget')).resolves.toBe('returned');
    await new Promise((r) => setTimeout(r, 20));
    expect(bridge.events).toEqual([{ event: 'late', payload: {} }]);
  });

  it('each invocation uses its own bridge', async () => {
    const other = new TestBridge();
    other.onCall = () => 'from the other bridge';
    const [a, b] = await Promise.all([invoke('callOther', 1), invoke('callOther', 2, { bridge: other })]);
    expect(a).toEqual({ op: 'inventory.reserve', input: 1 });
    expect(b).toBe('from the other bridge');
  });
});
