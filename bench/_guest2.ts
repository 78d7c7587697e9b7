import vm from 'node:vm';
import { PRELUDE_SOURCE } from '../sandbox/prelude';
const variants: Record<string, string> = {
  current: PRELUDE_SOURCE,



};
(async () => {
  for (const [name, src] of Object.entries(variants)) {
    const ctx = vm.createContext({});
    const boot = vm.runInContext(src, ctx);
    const receive = boot((s: string) => {}, () => 1, 't1', 8e6, 1000);
    vm.runInContext(`var __mandi_module = { default: { operations: { ping(input) { return { ok: true, n: input.n }; } } } };`, ctx);
    receive('init');
    const batch = 64; let id = 0; const N = 300000;
    const msgs: string[] = [];
    for (let i = 0; i < N / batch; i++) { const parts = []; for (let j = 0; j < batch; j++) { id++; parts.push(JSON.stringify(['c', id, 0, 'ping', { n: id }, 'bench', null])); } msgs.push('[' + parts.join(',') + ']'); }
    const t0 = process.hrtime.bigint();
    for (const m of msgs) { receive(m); await null; await null; await null; await null; }
    console.log(name, 'us/call', (Number(process.hrtime.bigint() - t0) / 1000 / N).toFixed(2));
  }
})();
