import { HostileHarness } from './support';

describe('spec/DESIGN: sandbox turns deep recursion into a clean handler error', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('recursion@1.0.0', 'deep-recursion', { timeoutMs: 5000 });
  });
  afterEach(() => h.dispose());

  it.each(['recurse', 'recurseAsync'])('%s: HANDLER_ERROR RangeError, and the isolate keeps serving', async (op) => {
    await expect(h.invoke(op)).rejects.toMatchObject({
      code: 'HANDLER_ERROR',
      message: 'Maximum call stack size exceeded',
      details: { name: 'RangeError' },
    });
    await expect(h.invoke('ok')).resolves.toBe('fine');
    await expect(h.good(1)).resolves.toEqual({ echoed: { n: 1 } });
    expect(await h.stats()).toMatchObject({ rebuilds: 0 });
  });

  it('a result whose serialisation recurses without end is refused the same way', async () => {
    await expect(h.invoke('recurseInGetter')).rejects.toMatchObject({
      code: 'HANDLER_ERROR',
      message: expect.stringContaining('Maximum call stack size exceeded'),
    });
    await expect(h.invoke('ok')).resolves.toBe('fine');
  });

  it('a handler may catch its own overflow and answer', async () => {
    await expect(h.invoke('caught')).resolves.toEqual({ caught: 'RangeError' });
  });
});
