import { HostileHarness } from './support';

const SENTINEL = 4_242_424_242;

describe('spec/DESIGN: sandbox is not subverted by prototype tampering', () => {
  let h: HostileHarness;
  const hostIntrinsics = {
    then: Promise.prototype.then,
    push: Array.prototype.push,
    stringify: JSON.stringify,
    parse: JSON.parse,
    call: Function.prototype.call,
    freeze: Object.freeze,
  };

  beforeEach(() => {
    h = new HostileHarness('tamper@1.0.0', 'tamper', { timeoutMs: 10_000 });
    h.bridge.clock = SENTINEL;
  });
  afterEach(() => h.dispose());

  const expectedExercise = (n: number, tenantId: string) => ({
    echoed: { n, list: [1, 2, 3] },
    created: { id: expect.any(Number), sku: `k${n}` },
    count: expect.any(Number),
    now: SENTINEL,
    refused: { message: 'fail.now refused', code: 'REFUSED' },
    tenantId,
  });

  it('after rewriting prototypes, JSON, Promise, Reflect and Error, its own calls still work through the bridge', async () => {
    await expect(h.invoke('tamper')).resolves.toBe('tampered');
    await expect(h.invoke('exercise', { n: 1 })).resolves.toEqual(expectedExercise(1, 't1'));
    await expect(h.invoke('throwAfterTamper')).rejects.toMatchObject({ code: 'HANDLER_ERROR', message: 'thrown after tampering' });
    expect(h.bridge.events).toEqual([{ event: 'tampered.event', payload: { n: 1 } }]);
    expect(h.bridge.logs).toEqual([{ level: 'info', message: 'still logging', data: { n: 1 } }]);
  });

  it('nothing it captured by tampering acts as a bridge function', async () => {
    await h.invoke('tamper');
    await h.invoke('exercise', { n: 1 });
    h.bridge.logs.length = 0;
    // Call ids in this test file stay far below 2,000: every id a forged message could need is tried.
    const report = (await h.invoke('tryCaptured', { maxId: 2000, sentinel: SENTINEL })) as Record<string, unknown>;
    expect(report).toMatchObject({ clockLike: 0, result: 'real result' });
    expect(report.tried).toBeGreaterThan(0); // the hooks were live and did capture something
    expect(h.bridge.logs.filter((l) => l.message === 'FORGED')).toEqual([]);
  });

  it('another tenant of the same module and the host itself are untouched', async () => {
    await h.invoke('tamper', {}, { tenantId: 'attacker' });
    await h.invoke('exercise', { n: 1 }, { tenantId: 'attacker' });
    await expect(h.invoke('exercise', { n: 2 }, { tenantId: 'victim' })).resolves.toEqual(expectedExercise(2, 'victim'));
    await expect(h.good(3)).resolves.toEqual({ echoed: { n: 3 } });
    expect(Promise.prototype.then).toBe(hostIntrinsics.then);
    expect(Array.prototype.push).toBe(hostIntrinsics.push);
    expect(JSON.stringify).toBe(hostIntrinsics.stringify);
    expect(JSON.parse).toBe(hostIntrinsics.parse);
    expect(Function.prototype.call).toBe(hostIntrinsics.call);
    expect(Object.freeze).toBe(hostIntrinsics.freeze);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('resolve');
    expect(JSON.stringify({ a: [1] })).toBe('{"a":[1]}');
  });
});
