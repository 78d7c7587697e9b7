import { HostileHarness, fixture } from './support';

const MB = 1024 * 1024;

describe('spec/DESIGN: sandbox refuses huge return values and requests', () => {
  let h: HostileHarness;
  beforeEach(() => {
    h = new HostileHarness('huge@1.0.0', 'huge-output', { memoryMb: 256, maxOutputBytes: 2 * MB });
  });
  afterEach(() => h.dispose());

  it('a result over the output limit is OUTPUT_TOO_LARGE and never crosses the boundary', async () => {
    await expect(h.invoke('bigString', { size: 3 * MB })).rejects.toMatchObject({
      code: 'OUTPUT_TOO_LARGE',
      details: { bytes: 3 * MB + 2, limit: 2 * MB },
    });
    await expect(h.invoke('bigObject', { rows: 100_000 })).rejects.toMatchObject({ code: 'OUTPUT_TOO_LARGE' });
    await expect(h.invoke('getterThatLies')).rejects.toMatchObject({ code: 'OUTPUT_TOO_LARGE' });
    await expect(h.invoke('ok')).resolves.toBe('small');
    expect(await h.stats()).toMatchObject({ rebuilds: 0 });
  });

  it('JSON far larger than the memory limit is refused while it is built, not after', async () => {
    // 300 MB of JSON from a few KB of memory, in a 16 MB isolate: building the text would break the limit.
    h.runtime.load('small@1.0.0', fixture('huge-output'), { memoryMb: 16, maxOutputBytes: 2 * MB });
    const small = (name: string) => h.invoke(name, { mb: 300 }, {}, 'small@1.0.0');
    await expect(small('repeatedRow')).rejects.toMatchObject({ code: 'OUTPUT_TOO_LARGE', details: { limit: 2 * MB } });
    await expect(small('repeatedRequest')).resolves.toMatchObject({ code: 'OUTPUT_TOO_LARGE' });
    await expect(small('repeatedLog')).resolves.toBe('logged');
    expect(h.bridge.logs.at(-1)).toMatchObject({ message: 'rows', data: '[data truncated]' });
    expect(h.bridge.calls).toEqual([]);
    expect((await h.runtime.stats())['small@1.0.0']).toMatchObject({ rebuilds: 0, memoryLimitHits: 0 });
  });

  it('a result just under the limit is returned whole', async () => {
    await expect(h.invoke('bigString', { size: MB })).resolves.toHaveLength(MB);
  });

  it('a host request over the limit is refused inside the guest', async () => {
    await expect(h.invoke('bigRequest', { size: 3 * MB })).resolves.toEqual({
      code: 'OUTPUT_TOO_LARGE',
      message: expect.stringContaining('over the limit'),
    });
    expect(h.bridge.calls).toEqual([]);
  });

  it('log lines and error messages are clipped', async () => {
    await expect(h.invoke('bigLog')).resolves.toBe('logged');
    expect(h.bridge.logs).toHaveLength(1);
    expect(h.bridge.logs[0].message.length).toBeLessThan(17_000);
    expect(h.bridge.logs[0].data).toBe('[data truncated]');
    const error = await h.invoke('bigError').catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'HANDLER_ERROR' });
    expect((error as Error).message.length).toBeLessThan(17_000);
  });

  it('the default limit is 8 MB', async () => {
    h.runtime.load('default@1.0.0', fixture('huge-output'), { memoryMb: 256 });
    await expect(h.invoke('bigString', { size: 8 * MB }, {}, 'default@1.0.0')).rejects.toMatchObject({
      code: 'OUTPUT_TOO_LARGE',
      details: { limit: 8 * MB },
    });
  });
});
