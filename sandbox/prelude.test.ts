import ivm from 'isolated-vm';
import { preludeSource } from './prelude';

describe('DESIGN Sandbox: the prelude is sandbox/guest bundled into one strict script', () => {
  it('is bundled once per process, resolves every import, and evaluates to boot without adding a global', async () => {
    const source = preludeSource();
    expect(preludeSource()).toBe(source);
    expect(source).not.toMatch(/\brequire\(|^\s*(?:import|export)\b/m);

    const isolate = new ivm.Isolate({ memoryLimit: 16 });
    try {
      const context = await isolate.createContext();
      const before = await context.eval('Object.getOwnPropertyNames(globalThis).join()');
      const boot = await (await isolate.compileScript(source)).run(context, { reference: true });
      expect(boot.typeof).toBe('function');
      expect(await context.eval('Object.getOwnPropertyNames(globalThis).join()')).toBe(before);
    } finally {
      isolate.dispose();
    }
  });
});
