import { HostileHarness } from './support';

const TIMEOUT_MS = 300;

describe('spec/DESIGN: sandbox times out a promise that never settles without restarting the isolate', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('hang@1.0.0', 'never-settles', { timeoutMs: TIMEOUT_MS });
  });
  afterEach(() => h.dispose());

  it.each(['hang', 'hangAfterHost'])('%s: the caller gets TIMEOUT; the context and its state survive', async (op) => {
    const hanging = h.invoke(op);
    const meanwhile = await h.goodAnswersWhile(hanging);
    await expect(hanging).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(meanwhile.answers).toBeGreaterThanOrEqual(2);
    // Same context: the counter the hanging call bumped is still there.
    await expect(h.invoke('count')).resolves.toBe(1);
    expect(await h.stats()).toMatchObject({ rebuilds: 0, timeouts: 1, pendingCalls: 0, contexts: 1 });
  });

  it('other tenants of the same module answer while calls hang', async () => {
    const hanging = Promise.allSettled(Array.from({ length: 20 }, () => h.invoke('hang')));
    await expect(h.invoke('count', {}, { tenantId: 't2' })).resolves.toBe(0);
    await hanging;
    await expect(h.invoke('count')).resolves.toBe(20);
    expect(await h.stats()).toMatchObject({ rebuilds: 0, timeouts: 20, pendingCalls: 0 });
  });

  it('a late host reply for a timed-out call is dropped', async () => {
    let release!: () => void;
    h.bridge.onCall = () => new Promise<unknown>((resolve) => (release = () => resolve({ late: true })));
    await expect(h.invoke('hangAfterHost')).rejects.toMatchObject({ code: 'TIMEOUT' });
    release();
    await new Promise((r) => setTimeout(r, 20));
    await expect(h.invoke('count')).resolves.toBe(1);
  });
});
