import { HostileHarness } from './support';

const TIMEOUT_MS = 400;

describe('spec/DESIGN: sandbox stops an infinite loop, rebuilds the isolate, and others carry on', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('loop@1.0.0', 'infinite-loop', { timeoutMs: TIMEOUT_MS });
  });
  afterEach(() => h.dispose());

  it.each(['spin', 'spinAfterAwait', 'spinInMicrotask', 'spinInToJSON'])('%s: the caller gets TIMEOUT while another module keeps answering', async (op) => {
    const started = performance.now();
    const looping = h.invoke(op);
    const meanwhile = await h.goodAnswersWhile(looping);
    await expect(looping).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining(`${TIMEOUT_MS} ms`) });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1500);
    expect(meanwhile.answers).toBeGreaterThanOrEqual(2);

    // The runaway isolate was thrown away; the next call gets a fresh one.
    await expect(h.invoke('ok')).resolves.toEqual({ served: 1 });
    expect(await h.stats()).toMatchObject({ rebuilds: 1, timeouts: 1, contexts: 1 });
  });

  it('a call of another tenant queued behind the loop is answered on the rebuilt isolate', async () => {
    h.dispose();
    h = new HostileHarness('loop@1.0.0', 'infinite-loop', { timeoutMs: 1500 });
    await expect(h.invoke('ok', {}, { tenantId: 't2' })).resolves.toEqual({ served: 1 });
    const looping = h.invoke('spin');
    // Late enough that its own time limit outlasts the loop by plenty, so it can be answered after it.
    await new Promise((r) => setTimeout(r, 500));
    const queued = h.invoke('ok', {}, { tenantId: 't2' });
    await expect(looping).rejects.toMatchObject({ code: 'TIMEOUT' });
    // Its context was lost with the isolate, so its module state starts again: served is 1.
    await expect(queued).resolves.toEqual({ served: 1 });
  });

  it('many loops in a row never stop the well-behaved module', async () => {
    const loops = Promise.allSettled([h.invoke('spin'), h.invoke('spin', {}, { tenantId: 't2' }), h.invoke('spinAfterAwait', {}, { tenantId: 't3' })]);
    const meanwhile = await h.goodAnswersWhile(loops);
    expect((await loops).map((r) => r.status === 'rejected' && (r.reason as { code: string }).code)).toEqual(['TIMEOUT', 'TIMEOUT', 'TIMEOUT']);
    expect(meanwhile.answers).toBeGreaterThanOrEqual(2);
    await expect(h.invoke('ok')).resolves.toEqual({ served: 1 });
  });
});
