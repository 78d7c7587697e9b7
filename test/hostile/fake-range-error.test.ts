import { HostileHarness } from './support';

describe('spec/DESIGN: a forged "Array buffer allocation failed" does not restart the isolate of every tenant', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('bomb@1.0.0', 'memory-bomb', { memoryMb: 32, timeoutMs: 10_000 });
  });
  afterEach(() => h.dispose());

  it('the thrower gets its own HANDLER_ERROR; other tenants keep their context and their call in flight', async () => {
    await expect(h.invoke('count', {}, { tenantId: 'victim' })).resolves.toBe(1);
    let release!: () => void;
    h.bridge.onCall = () => new Promise<unknown>((resolve) => (release = () => resolve({})));
    const waiting = h.invoke('countAfterHost', {}, { tenantId: 'victim' });
    await new Promise((r) => setTimeout(r, 50));

    await expect(h.invoke('fakeAllocationFailure', {}, { tenantId: 'attacker' })).rejects.toMatchObject({
      code: 'HANDLER_ERROR',
      message: 'Array buffer allocation failed',
      details: { name: 'RangeError' },
    });
    release();
    await expect(waiting).resolves.toBe(2);
    await expect(h.invoke('count', {}, { tenantId: 'victim' })).resolves.toBe(3);
    expect(await h.stats()).toMatchObject({ rebuilds: 0, memoryLimitHits: 0 });
  });

  it('the real refusal, with the heap full of buffers, is still MEMORY_LIMIT and rebuilds', async () => {
    await expect(h.invoke('buffers')).rejects.toMatchObject({ code: 'MEMORY_LIMIT' });
    await expect(h.invoke('ok')).resolves.toBe('alive');
    expect(await h.stats()).toMatchObject({ rebuilds: 1, memoryLimitHits: 1 });
  });
});
