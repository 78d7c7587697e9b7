import { SandboxRuntime } from '.';
import { TestBridge, iife } from './testing';

// Top-level code runs once per tenant context; `boots` counts how often that happened in this one.
const COUNTER = iife(`
  globalThis.boots = (globalThis.boots || 0) + 1;
  let hits = 0;
  return { default: { operations: {
    hit() { hits++; return { hits, boots: globalThis.boots }; },
    async wait(input) { await new Promise((r) => { globalThis.release = r; }); return 'released'; },
    release() { globalThis.release(); return 'ok'; },
  } } };
`);

describe('spec/DESIGN: sandbox has one isolate per module version and one lazy context per tenant', () => {
  let runtime: SandboxRuntime;
  const bridge = new TestBridge();
  const hit = (tenantId: string, name = 'hit') =>
    runtime.invoke('counter@1.0.0', { tenantId, kind: 'operation', name, input: null, caller: 'http', user: null, bridge });
  const stats = async () => (await runtime.stats())['counter@1.0.0'];

  afterEach(() => runtime.dispose());

  it('creates a tenant context on its first call and reuses it after', async () => {
    runtime = new SandboxRuntime();
    runtime.load('counter@1.0.0', COUNTER);
    expect((await stats()).contexts).toBe(0);
    await expect(hit('a')).resolves.toEqual({ hits: 1, boots: 1 });
    await expect(hit('a')).resolves.toEqual({ hits: 2, boots: 1 });
    expect((await stats()).contexts).toBe(1);
    await expect(hit('b')).resolves.toEqual({ hits: 1, boots: 1 });
    expect((await stats()).contexts).toBe(2);
  });

  it('compiles the bundle once for every tenant context of an isolate', async () => {
    runtime = new SandboxRuntime();
    runtime.load('counter@1.0.0', COUNTER);
    await Promise.all(Array.from({ length: 50 }, (_, i) => hit(`t${i}`)));
    expect(await stats()).toMatchObject({ contexts: 50, compilations: 1, rebuilds: 0 });
  });

  it('evicts the least recently used idle context when maxContexts is reached', async () => {
    runtime = new SandboxRuntime({ limits: { maxContexts: 2 } });
    runtime.load('counter@1.0.0', COUNTER);
    await hit('a');
    await hit('b');
    await hit('a'); // b is now the least recently used
    await hit('c');
    expect((await stats()).contexts).toBe(2);
    await expect(hit('a')).resolves.toEqual({ hits: 3, boots: 1 }); // kept
    await expect(hit('b')).resolves.toEqual({ hits: 1, boots: 1 }); // evicted, started afresh
  });

  it('never evicts a context with a call in flight', async () => {
    runtime = new SandboxRuntime({ limits: { maxContexts: 1 } });
    runtime.load('counter@1.0.0', COUNTER);
    const waiting = hit('a', 'wait');
    await new Promise((r) => setTimeout(r, 50));
    await hit('b');
    expect((await stats()).contexts).toBe(2);
    await expect(hit('a', 'release')).resolves.toBe('ok');
    await expect(waiting).resolves.toBe('released');
  });

  it('reports contexts, heap, rebuilds and pending calls', async () => {
    runtime = new SandboxRuntime({ limits: { memoryMb: 64 } });
    runtime.load('counter@1.0.0', COUNTER);
    const waiting = hit('a', 'wait');
    await new Promise((r) => setTimeout(r, 50));
    const s = await stats();
    expect(s).toEqual({
      contexts: 1,
      heapUsedBytes: expect.any(Number),
      heapLimitBytes: expect.any(Number),
      rebuilds: 0,
      compilations: 1,
      pendingCalls: 1,
      timeouts: 0,
      memoryLimitHits: 0,
    });
    expect(s.heapUsedBytes).toBeGreaterThan(100_000);
    expect(s.heapLimitBytes).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    await hit('a', 'release');
    await waiting;
  });
});
