/**
 * Issue 3's bus benchmark, side by side in one run, in process (no HTTP):
 *   native     an async function call, the floor
 *   core       a core bus operation (every bus step: exists, may call, rate limit, validate, audit)
 *   sandboxed  a module operation with a trivial handler, through the bus into the isolate
 *   db read    a module operation doing one host.db.findOne
 *   order view, output check on/off   an order-shaped result (three lines, 15 fields) declared by an
 *              output schema, from a core operation and from the sandbox, with the bus's output
 *              validation (BUS_VALIDATE_OUTPUT) on and then off: what the check costs
 * Each is measured one call at a time (p50/p99 latency) and with many calls in flight (calls/s, and
 * process CPU per call, steadier than calls/s on a shared machine), round-robin for --rounds rounds.
 * Then memory per tenant context: one call for each of 1,000 tenants into a 200-operation module,
 * reading the isolate's heap before and after.
 * Targets (2-core machine): sandboxed trivial p50 <= 100 µs; >= 50,000 calls/s in flight together;
 * <= 256 KB per tenant context.
 */
import path from 'node:path';
import { defineCoreOperation } from '../core/kernel/bus/core-operation';
import { Type } from '../sdk';
import { coreContract } from '../sdk/contracts/platform';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule } from './support/bench-tenant';
import { median, percentile } from './support/stats';
import type { Caller, CallContext } from '../core/kernel/bus/types';
import { ORDER_VIEW } from './fixtures/bench-mod/src/order-view';

const SEQUENTIAL_CALLS = 3000;
const IN_FLIGHT = 256;
const TENANT_CONTEXTS = 1000;

async function sequential(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 300; i++) await fn(); // warm-up: JIT, contexts, pools
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
    const t = performance.now();
    await fn();
    times.push((performance.now() - t) * 1000);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

/**
 * Calls per second with IN_FLIGHT calls in flight, and the process CPU (the host thread and the
 * isolates' threads) per call: on a machine shared with other work the second moves far less.
 */
async function throughput(fn: () => Promise<unknown>, ms: number): Promise<{ rate: number; cpuUs: number }> {
  let done = 0;
  const until = performance.now() + ms;
  const worker = async () => {
    while (performance.now() < until) {
      await fn();
      done++;
    }
  };
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const used = process.cpuUsage(cpu);
  return { rate: done / ((performance.now() - start) / 1000), cpuUs: (used.user + used.system) / done };
}

const benchmark: Benchmark = {
  description:
    'bus: native call vs core bus operation vs sandboxed module operation (trivial, one host.db read, order view with output validation on and off); memory per tenant context',
  async run(ctx) {
    // bench-mod holds thousands of tenant contexts in one isolate: 512 MB, over the default cap.
    const env = { BUS_RATE_LIMIT: '1000000000/60', TENANT_POOL_MAX_TOTAL: '200', SANDBOX_MAX_MEMORY_MB: '512' };
    return withBenchPlatform({ name: 'bus', log: ctx.log, env }, async (bench) => {
      const { platform } = bench;
      const { kernel } = platform;
      await addLocalModule(platform, path.join(__dirname, 'fixtures/bench-mod'));
      const tenant = await platform.tenants.create({ name: 'Bench', alias: 'bench' });
      bench.track(tenant.id);
      await kernel.modules.install(tenant.id, 'benchmod');
      await kernel.bus.call({ kind: 'core' }, 'benchmod.echo', {}, { tenantId: tenant.id, user: null });
      await platform.tenantDbs.with(tenant.id, (db) => db.query(`INSERT INTO benchmod.items (id, name) VALUES (1, 'one')`));

      const echo = coreContract({ name: 'platform.bench_echo', description: 'Returns its input.', input: Type.Object({}) });
      kernel.bus.registerCore(defineCoreOperation(echo, async (input) => input));
      // The core twin of benchmod.order_view, checked against the schema the module declares.
      const orderView = (await kernel.modules.modulesFor(tenant.id)).operation('benchmod.order_view')!.def;
      const orderViewContract = coreContract({ name: 'platform.bench_order_view', description: 'Returns a fixed order.', input: Type.Object({}), output: Type.Unsafe(orderView.output!) });
      kernel.bus.registerCore(defineCoreOperation(orderViewContract, async () => ORDER_VIEW));
      const caller: Caller = { kind: 'edge', via: 'http' };
      const callCtx: CallContext = { tenantId: tenant.id, user: null, permissions: new Set(['*']) };
      const input = { a: 1, b: 'two' };
      const native = async (x: unknown) => x;
      const bus = kernel.bus;
      // [name, call, output validation on?]; targets without an output schema are not affected by it.
      const targets: Array<[string, () => Promise<unknown>, boolean?]> = [
        ['native', () => native(input)],
        ['core', () => bus.call(caller, 'platform.bench_echo', input, callCtx)],
        ['sandboxed', () => bus.call(caller, 'benchmod.echo', input, callCtx)],
        ['db read', () => bus.call(caller, 'benchmod.read_one', {}, callCtx)],
        ['core order view, output check on', () => bus.call(caller, 'platform.bench_order_view', {}, callCtx), true],
        ['core order view, output check off', () => bus.call(caller, 'platform.bench_order_view', {}, callCtx), false],
        ['sandboxed order view, output check on', () => bus.call(caller, 'benchmod.order_view', {}, callCtx), true],
        ['sandboxed order view, output check off', () => bus.call(caller, 'benchmod.order_view', {}, callCtx), false],
      ];
      // Round-robin over the targets (--rounds), each window --duration seconds; medians reported.
      const windowMs = ctx.options.durationSeconds * 1000;
      const measured = new Map(targets.map(([name]) => [name, [] as { p50: number; p99: number; rate: number; cpuUs: number }[]]));
      for (let round = 0; round < ctx.options.rounds; round++) {
        for (const [name, fn, validateOutput] of targets) {
          ctx.log(`bus: ${name}, round ${round + 1}/${ctx.options.rounds}`);
          bus.validateOutput = validateOutput ?? true;
          // Audit rows still buffered from the previous window would be written, and charged, in this one.
          await kernel.audit.flush();
          const lat = await sequential(fn);
          const tp = await throughput(fn, windowMs);
          measured.get(name)!.push({ ...lat, ...tp });
        }
      }
      const rows: Row[] = targets.map(([name]) => {
        const m = measured.get(name)!;
        return {
          target: name,
          'p50 µs': median(m.map((x) => x.p50)),
          'p99 µs': median(m.map((x) => x.p99)),
          'calls/s in flight': median(m.map((x) => x.rate)),
          'CPU µs/call in flight': median(m.map((x) => x.cpuUs)),
        };
      });

      ctx.log(`bus: ${TENANT_CONTEXTS} tenant contexts of a 200-operation module`);
      const runtime = kernel.runtime;
      const key = (await kernel.modules.modulesFor(tenant.id)).byAlias.get('benchmod')!.key;
      const heap = async () => (await runtime.stats())[key]?.heapUsedBytes ?? 0;
      const before = await heap();
      // Straight into the sandbox for 1,000 tenant ids: what is measured is the contexts, not tenant databases.
      for (let i = 0; i < TENANT_CONTEXTS; i++) {
        await runtime.invoke(key, {
          tenantId: `ctx${String(i).padStart(5, '0')}`,
          kind: 'operation',
          name: 'op_000',
          input: { x: i },
          caller: 'bench',
          user: null,
          bridge: {
            call: async () => null,
            db: async () => null,
            emit: async () => undefined,
            log: () => undefined,
            fetch: async () => ({ status: 204, headers: {}, body: '' }),
            now: () => Date.now(),
          },
        });
      }
      const after = await heap();
      const stats = (await runtime.stats())[key];
      const perContext = (after - before) / TENANT_CONTEXTS;

      const byName = Object.fromEntries(rows.map((r) => [r.target, r]));
      const cost = (kind: string, column: string) => Number(byName[`${kind} order view, output check on`][column]) - Number(byName[`${kind} order view, output check off`][column]);
      return {
        title: 'Bus: in-process calls (one at a time: latency; 256 in flight: throughput)',
        rows: [...rows, { target: `per tenant context (${stats?.contexts ?? '?'} contexts)`, 'p50 µs': null, 'p99 µs': null, 'calls/s in flight': null, 'CPU µs/call in flight': null, 'KB': perContext / 1024 }],
        checks: [
          { name: 'sandboxed trivial call p50 <= 100 µs', ok: Number(byName.sandboxed['p50 µs']) <= 100, detail: `${Number(byName.sandboxed['p50 µs']).toFixed(1)} µs` },
          { name: 'sandboxed calls in flight >= 50,000/s', ok: Number(byName.sandboxed['calls/s in flight']) >= 50_000, detail: `${Math.round(Number(byName.sandboxed['calls/s in flight']))}/s` },
          { name: 'memory per tenant context <= 256 KB', ok: perContext <= 256 * 1024, detail: `${(perContext / 1024).toFixed(1)} KB` },
        ],
        notes: [
          `output validation of the order view costs ${cost('core', 'p50 µs').toFixed(2)} µs p50 and ${cost('core', 'CPU µs/call in flight').toFixed(2)} µs CPU/call in a core call, ${cost('sandboxed', 'p50 µs').toFixed(2)} µs p50 and ${cost('sandboxed', 'CPU µs/call in flight').toFixed(2)} µs CPU/call in a sandboxed one (on minus off; noise is of the same order).`,
          'core and sandboxed include every bus step: operation lookup, caller check, rate limit (in-process or Redis per REDIS_URL), schema validation, audit (batched).',
          `${ctx.options.rounds} round(s), round-robin, ${ctx.options.durationSeconds} s per throughput window; medians over rounds. CPU µs/call counts every thread of the process (host and isolates).`,
          `${bench.setup}.`,
        ],
      };
    });
  },
};

export default benchmark;
