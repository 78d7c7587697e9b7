import { HostileHarness } from './support';

describe('spec/DESIGN: sandbox keeps one call from flooding the host', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('flood@1.0.0', 'request-flood', { maxPendingRequests: 50, maxLogLinesPerCall: 100 });
  });
  afterEach(() => h.dispose());

  it('host requests past the pending limit are refused in the guest and never reach the host', async () => {
    await expect(h.invoke('flood', { count: 10_000 })).resolves.toEqual({ answered: 50, refused: 9950, code: 'TOO_MANY_REQUESTS' });
    expect(h.bridge.dbCalls).toHaveLength(50);
    // Awaited one batch at a time, the same work goes through.
    await expect(h.invoke('flood', { count: 50 })).resolves.toEqual({ answered: 50, refused: 0, code: null });
  });

  it('log lines past the per-call limit are dropped with one warning', async () => {
    await expect(h.invoke('loggingFlood', { count: 100_000 })).resolves.toBe('done');
    expect(h.bridge.logs).toHaveLength(101);
    expect(h.bridge.logs[100]).toMatchObject({ level: 'warn' });
  });
});
