import vm from 'node:vm';
import { PRELUDE_SOURCE } from '../sandbox/prelude';
const ctx = vm.createContext({});
let posted = 0;
const boot = vm.runInContext(PRELUDE_SOURCE, ctx);
const receive = boot((s: string) => { posted += s.length; }, () => 1, 't1', 8e6, 1000);
vm.runInContext(`var __mandi_module = { default: { operations: { ping(input) { return { ok: true, n: input.n }; } } } };`, ctx);
console.log('init', JSON.stringify(receive('init')));
(async () => {
  for (const batch of [1, 64]) {
    let id = 0;
    const N = 200000;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N / batch; i++) {
      const parts = [];
      for (let j = 0; j < batch; j++) { id++; parts.push(JSON.stringify(['c', id, 0, 'ping', { n: id }, 'bench', null])); }
      receive('[' + parts.join(',') + ']');
      await new Promise((r) => setImmediate(r));
    }
    console.log('batch', batch, 'us/call', (Number(process.hrtime.bigint() - t0) / 1000 / N).toFixed(2), posted);
  }
})();
