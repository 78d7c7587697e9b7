import { HostileHarness } from './support';

// ECMAScript's globals as V8 gives them to a fresh context, and `console`, whose methods do nothing
// without an inspector. `__mandi_module` is the bundle's own `var`.
const ALLOWED_GLOBALS = new Set(
  `AggregateError Array ArrayBuffer AsyncDisposableStack BigInt BigInt64Array BigUint64Array Boolean DataView Date
  DisposableStack Error EvalError Float16Array Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array
  Intl Iterator JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set String
  SuppressedError Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap
  WeakRef WeakSet __mandi_module console decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis
  isFinite isNaN parseFloat parseInt undefined unescape`.split(/\s+/),
);

interface ProbeReport {
  found: string[];
  visited: number;
  nodeGlobals: string[];
  globals: string[];
  framesInHandler: { fn: string; self: string; file: string }[];
  escapes: Record<string, unknown>;
}

describe('spec/DESIGN: sandbox gives guest code nothing of Node or isolated-vm', () => {
  let h: HostileHarness;
  beforeAll(() => {
    h = new HostileHarness('probe@1.0.0', 'probe', {});
  });
  afterAll(() => h.dispose());

  it('walking globalThis, ctx and every prototype chain finds no host object', async () => {
    const report = (await h.invoke('probe')) as ProbeReport;
    expect(report.visited).toBeGreaterThan(500);
    expect(report.found).toEqual([]);
    expect(report.nodeGlobals.filter((g) => g !== '__mandi_module')).toEqual([]);
    expect(report.globals.filter((g) => !ALLOWED_GLOBALS.has(g))).toEqual([]);
  });

  it('require, process and dynamic import are out of reach by every route tried', async () => {
    const { escapes } = (await h.invoke('probe')) as ProbeReport;
    expect(escapes).toMatchObject({
      functionConstructorProcess: 'threw ReferenceError',
      constructorChain: 'threw ReferenceError',
      functionThisIsGlobal: true, // the context's own global, nothing more
      evalRequire: 'threw ReferenceError',
      dynamicImport: expect.stringMatching(/^threw/),
      hostCallPrototype: 'undefined',
      newHostCall: 'threw TypeError',
      hostCallCaller: 'threw TypeError',
      callerOfHandler: 'threw TypeError',
      // ctx's host getter works only on a real ctx, and its prototype offers no constructor.
      forgeCtx: 'threw TypeError',
      ctxConstructor: 'undefined',
    });
  });

  it('the sandbox frames under a handler give out neither their functions nor their receivers', async () => {
    const { framesInHandler } = (await h.invoke('probe')) as ProbeReport;
    const sandboxFrames = framesInHandler.filter((f) => f.file.startsWith('mandi://sandbox/'));
    expect(sandboxFrames.length).toBeGreaterThan(0);
    for (const frame of sandboxFrames) expect(frame).toMatchObject({ fn: 'undefined', self: 'undefined' });
    await expect(h.invoke('sloppyCaller')).resolves.toEqual({ caller: 'null', callee: 'null' });
  });

  it('guest code run by the sandbox mid-request (a getter) sees no sandbox function on its stack', async () => {
    const frames = (await h.invoke('framesDuringHostCall')) as { fn: string; self: string }[];
    expect(frames.length).toBeGreaterThan(2);
    // frames[0] is the guest's own getter; everything under it is the sandbox and the builtins.
    for (const frame of frames.slice(1)) expect(frame).toEqual({ fn: 'undefined', self: 'undefined' });
  });
});
