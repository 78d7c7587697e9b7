/**
 * Issue 3's bus benchmark, side by side in one run, in process (no HTTP):
 *   native     an async function call, the floor
 *   core       a core bus operation (every bus step: exists, may call, rate limit, validate, audit)
 *   sandboxed  a module operation with a trivial handler, through the bus into the isolate
 *   db read    a module operation doing one host.db.findOne
 * Each is measured one call at a time (p50/p99 latency) and with many calls in flight (calls/s).
 * Then memory per tenant context: one call for each of 1,000 tenants into a 200-operation module,
 * reading the isolate's heap before and after.
 * Targets (2-core machine): sandboxed trivial p50 <= 100 µs; >= 50,000 calls/s in flight together;
 * <= 256 KB per tenant context.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Benchmark, Row } from './benchmark';
import { openBenchPostgres } from './support/postgres-server';
import { loadConfig } from '../core/config';
import { createLogger } from '../core/logger';
import { startPlatform, type Platform } from '../core/platform';
import { databaseUrl, dropDatabase } from '../core/data/pg-admin';
import { tenantDbName } from '../core/data/tenant-databases';
import { loadModuleFromDir } from '../core/modules/loaded-module';
import { buildModule } from '../sdk/build/build-module';
import type { Caller, CallContext } from '../core/bus/types';

const SEQUENTIAL_CALLS = 3000;
const IN_FLIGHT = 256;
const THROUGHPUT_MS = 3000;
const TENANT_CONTEXTS = 1000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function sequential(fn: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 300; i++) await fn(); // warm-up: JIT, contexts, pools
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
    const t = performance.now();
    await fn();
    times.push((performance.now() - t) * 1000);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function throughput(fn: () => Promise<unknown>): Promise<number> {
  let done = 0;
  const until = performance.now() + THROUGHPUT_MS;
  const worker = async () => {
    while (performance.now() < until) {
      await fn();
      done++;
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return done / ((performance.now() - start) / 1000);
}

const bench: Benchmark = {
  description: 'bus: native call vs core bus operation vs sandboxed module operation (trivial, one host.db read); memory per tenant context',
  async run(ctx) {
    const pg = await openBenchPostgres(ctx.log);
    const central = `mandi_bench_bus_${randomBytes(4).toString('hex')}`;
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(pg.serverUrl, central),
      REDIS_URL: process.env.REDIS_URL ?? '',
      REDIS_PREFIX: `mandi-bench-${central}`,
      LOG_LEVEL: 'warn',
      BUS_RATE_LIMIT: '1000000000/60',
      TENANT_POOL_MAX_TOTAL: '200',
    });
    let platform: Platform | undefined;
    const tenantIds: string[] = [];
    try {
      platform = await startPlatform(config, createLogger(config.logLevel));
      const { kernel } = platform;
      const dir = path.join(__dirname, 'fixtures/bench-mod');
      await buildModule(dir);
      kernel.source.add(await loadModuleFromDir(dir));
      const tenant = await platform.tenants.create({ name: 'Bench', alias: 'bench' });
      tenantIds.push(tenant.id);
      await kernel.modules.install(tenant.id, 'benchmod');
      await kernel.bus.call({ kind: 'core' }, 'benchmod.echo', {}, { tenantId: tenant.id, user: null });
      await platform.tenantDbs.with(tenant.id, (db) => db.query(`INSERT INTO benchmod.items (id, name) VALUES (1, 'one')`));

      kernel.bus.registerCore({ name: 'bench.echo', description: 'Returns its input.', input: { type: 'object' }, handler: async (input) => input });
      const caller: Caller = { kind: 'edge', via: 'http' };
      const callCtx: CallContext = { tenantId: tenant.id, user: null, permissions: new Set(['*']) };
      const input = { a: 1, b: 'two' };
      const native = async (x: unknown) => x;
      const targets: Array<[string, () => Promise<unknown>]> = [
        ['native', () => native(input)],
        ['core', () => kernel.bus.call(caller, 'bench.echo', input, callCtx)],
        ['sandboxed', () => kernel.bus.call(caller, 'benchmod.echo', input, callCtx)],
        ['db read', () => kernel.bus.call(caller, 'benchmod.read_one', {}, callCtx)],
      ];
      const rows: Row[] = [];
      for (const [name, fn] of targets) {
        ctx.log(`bus: ${name}`);
        const lat = await sequential(fn);
        const rate = await throughput(fn);
        rows.push({ target: name, 'p50 µs': lat.p50, 'p99 µs': lat.p99, 'calls/s in flight': rate });
      }

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
      return {
        title: 'Bus: in-process calls (one at a time: latency; 256 in flight: throughput)',
        rows: [...rows, { target: `per tenant context (${stats?.contexts ?? '?'} contexts)`, 'p50 µs': null, 'p99 µs': null, 'calls/s in flight': null, 'KB': perContext / 1024 }],
        checks: [
          { name: 'sandboxed trivial call p50 <= 100 µs', ok: Number(byName.sandboxed['p50 µs']) <= 100, detail: `${Number(byName.sandboxed['p50 µs']).toFixed(1)} µs` },
          { name: 'sandboxed calls in flight >= 50,000/s', ok: Number(byName.sandboxed['calls/s in flight']) >= 50_000, detail: `${Math.round(Number(byName.sandboxed['calls/s in flight']))}/s` },
          { name: 'memory per tenant context <= 256 KB', ok: perContext <= 256 * 1024, detail: `${(perContext / 1024).toFixed(1)} KB` },
        ],
        notes: [
          'core and sandboxed include every bus step: operation lookup, caller check, rate limit (in-process or Redis per REDIS_URL), schema validation, audit (batched).',
          `PostgreSQL: ${pg.embedded ? 'embedded' : 'DATABASE_URL'}; drivers: ${config.redisUrl ? 'Redis' : 'in-process'}.`,
        ],
      };
    } finally {
      await platform?.stop();
      for (const id of tenantIds) await dropDatabase(pg.serverUrl, tenantDbName(id)).catch(() => undefined);
      await dropDatabase(pg.serverUrl, central).catch(() => undefined);
      await pg.stop();
    }
  },
};

export default bench;
