import { SandboxRuntime } from '.';
import { TestBridge, iife } from './testing';

const KEY = 'spike@1.0.0';

// `spike` holds `mb` MB while it runs and lets it all go when it answers: garbage that V8 collects
// only when it next needs the room. `wait` awaits a host call the test releases.
const SPIKE = iife(`
  return { default: { operations: {
    keep(input) {
      globalThis.kept = [];
      for (let i = 0; i < input.mb; i++) globalThis.kept.push(new Array(128 * 1024).fill(i + 0.5));
      return globalThis.kept.length;
    },
    spike(input) {
      const held = [];
      for (let i = 0; i < input.mb; i++) held.push(new Array(128 * 1024).fill(i + 0.5));
      return held.length;
    },
    async wait(input, ctx) {
      await ctx.host.call('hold.on', {});
      return 'finished';
    },
  } } };
`);

describe('spec/DESIGN Sandbox: the heap check after calls judges what is live, not garbage V8 has not collected yet', () => {
  let runtime: SandboxRuntime;
  afterEach(() => runtime.dispose());

  it('a call that used most of the limit and let it go leaves the isolate, and the calls running in it, alone', async () => {
    runtime = new SandboxRuntime();
    runtime.load(KEY, SPIKE, { memoryMb: 32 });
    const bridge = new TestBridge();
    let release!: () => void;
    bridge.onCall = () => new Promise((resolve) => (release = () => resolve({})));
    const invoke = (name: string, input: unknown, tenantId = 't1') => runtime.invoke(KEY, { tenantId, kind: 'operation', name, input, caller: 'http', user: null, bridge });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

    const waiting = invoke('wait', {}, 't2');
    await sleep(150); // the check after calls runs at most every 100 ms
    await expect(invoke('spike', { mb: 29 })).resolves.toBe(29);
    await sleep(300);
    release();
    await expect(waiting).resolves.toBe('finished');
    expect((await runtime.stats())[KEY]).toMatchObject({ rebuilds: 0, memoryLimitHits: 0 });
  });

  it('a heap that is really that full is still rebuilt before the limit, the waiting call told to retry', async () => {
    runtime = new SandboxRuntime();
    runtime.load(KEY, SPIKE, { memoryMb: 32 });
    const bridge = new TestBridge();
    bridge.onCall = () => new Promise(() => undefined);
    const invoke = (name: string, input: unknown, tenantId = 't1') => runtime.invoke(KEY, { tenantId, kind: 'operation', name, input, caller: 'http', user: null, bridge });

    const waiting = invoke('wait', {}, 't2');
    await new Promise((r) => setTimeout(r, 150));
    await expect(invoke('keep', { mb: 29 })).resolves.toBe(29);
    await expect(waiting).rejects.toMatchObject({ code: 'ISOLATE_DISPOSED' });
    expect((await runtime.stats())[KEY]).toMatchObject({ rebuilds: 0, contexts: 0 });
    await expect(invoke('spike', { mb: 1 })).resolves.toBe(1);
    expect((await runtime.stats())[KEY]).toMatchObject({ rebuilds: 1 });
  });
});
