import { HostileHarness } from './support';

describe('spec/DESIGN: sandbox contains a memory bomb, rebuilds the isolate, and others carry on', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('bomb@1.0.0', 'memory-bomb', { memoryMb: 32, timeoutMs: 10_000 });
  });
  afterEach(() => h.dispose());

  it.each(['bomb', 'bombAfterAwait', 'buffers'])('%s: the caller gets MEMORY_LIMIT while another module keeps answering', async (op) => {
    const bombing = h.invoke(op);
    const meanwhile = await h.goodAnswersWhile(bombing);
    await expect(bombing).rejects.toMatchObject({ code: 'MEMORY_LIMIT', message: expect.stringContaining('32 MB') });
    expect(meanwhile.answers).toBeGreaterThanOrEqual(1);
    await expect(h.invoke('ok')).resolves.toBe('alive');
    expect(await h.stats()).toMatchObject({ rebuilds: 1, memoryLimitHits: 1 });
  });

  it('a heap that grows from call to call is cut back after a call, before any call reaches the limit', async () => {
    const held: number[] = [];
    for (let i = 0; i < 12; i++) {
      held.push((await h.invoke('grow', { mb: 4 })) as number);
      await new Promise((r) => setTimeout(r, 150)); // the check after calls runs at most every 100 ms
    }
    // 12 calls of 4 MB would hold 48 MB of a 32 MB isolate: the globals were dropped on the way.
    expect(held.some((mb, i) => i > 0 && mb < held[i - 1])).toBe(true);
    expect(Math.max(...held)).toBeLessThan(32);
    expect(await h.stats()).toMatchObject({ memoryLimitHits: 0 });
  });

  it('leaves no way around the limit: WebAssembly, SharedArrayBuffer, Atomics and finalizers are gone', async () => {
    await expect(h.invoke('wasm')).resolves.toEqual({
      WebAssembly: 'undefined',
      SharedArrayBuffer: 'undefined',
      Atomics: 'undefined',
      FinalizationRegistry: 'undefined',
    });
  });

  it('a call of another tenant that was awaiting the host when the isolate died gets ISOLATE_DISPOSED', async () => {
    let release!: () => void;
    h.bridge.onCall = () => new Promise<unknown>((resolve) => (release = () => resolve({})));
    const waiting = h.invoke('bombAfterAwait', {}, { tenantId: 't2' }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await expect(h.invoke('bomb')).rejects.toMatchObject({ code: 'MEMORY_LIMIT' });
    release();
    await expect(waiting).resolves.toMatchObject({ code: 'ISOLATE_DISPOSED' });
    await expect(h.invoke('ok', {}, { tenantId: 't2' })).resolves.toBe('alive');
  });
});
