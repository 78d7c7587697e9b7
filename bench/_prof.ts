import { SandboxRuntime } from '../sandbox';
const bridge: any = {};
const code = `var __mandi_module = { default: { operations: { ping(input) { return { ok: true, n: input.n }; } } } };`;
(async () => {
  const rt = new SandboxRuntime();
  const sb: any = rt.load('b', code);
  const call = (n: number) => rt.invoke('b', { tenantId: 't1', kind: 'operation', name: 'ping', input: { n }, caller: 'bench', user: null, bridge });
  await call(0);
  const iso = sb.gen.isolate;
  for (const inFlight of [1, 16, 64, 64, 256]) {
    let issued = 0; const total = inFlight === 1 ? 20000 : 200000;
    const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage(); const i0 = iso.cpuTime; const m0 = performance.eventLoopUtilization();
    await Promise.all(Array.from({ length: inFlight }, async () => { while (issued < total) { issued++; await call(issued); } }));
    const c = process.cpuUsage(c0); const ic = Number(iso.cpuTime - i0) / 1000; const elu = performance.eventLoopUtilization(m0);
    const wall = Number(process.hrtime.bigint() - t0) / 1e3;
    console.log(inFlight, 'calls/s', Math.round(total / (wall / 1e6)), 'proc cpu us/call', ((c.user + c.system) / total).toFixed(1), 'isolate cpu us/call', (ic / total).toFixed(2), 'main active us/call', (elu.active * 1000 / total).toFixed(2), 'isolate busy %', (ic / wall * 100).toFixed(0));
  }
  rt.dispose();
})();
