/**
 * Rings benchmark (issue 4, "Done means"): install time per tenant, and promotion time for 1, 10 and
 * 100 tenants, with the ring rollback back for comparison. Target: linear growth with tenants and
 * under 1 s per tenant for a module with three tables. The module is the stock test fixture
 * (test/rings/fixtures: tables items, movements, locations) going 1.0.0 → 1.1.0, whose migration
 * backfills a column on every item; each tenant holds 20 items.
 *
 * Everything runs as an operator would: a real platform (in this process), packages built and packed
 * with the sdk, published and promoted over HTTP, each promotion a job awaited with ?wait=true.
 * Run: `npm run bench -- rings [--rounds 3]` (rounds: promote/rollback cycles; the median is shown).
 */
import path from 'node:path';
import { buildModule } from '../sdk/build/build-module';
import { packModule } from '../sdk/package';
import type { BenchContext, BenchReport, Benchmark } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { installOwner } from './support/bench-tenant';
import { median, percentile } from './support/stats';

const SIZES = [1, 10, 100];
const ITEMS_PER_TENANT = 20;
const FIXTURES = path.resolve(__dirname, '../test/rings/fixtures');

const round = (n: number) => Math.round(n * 10) / 10;

export interface RingsBenchResult {
  install: { tenants: number; meanMs: number; p50Ms: number; p95Ms: number };
  promotion: Array<{ tenants: number; promoteMs: number; perTenantMs: number; rollbackMs: number; rollbackPerTenantMs: number }>;
  rounds: number;
}

export async function runRingsBench(log: (m: string) => void, rounds = 1): Promise<RingsBenchResult> {
  return withBenchPlatform({ name: 'rings', log, env: { LOG_LEVEL: 'silent', API_RATE_LIMIT: '1000000/60', BUS_RATE_LIMIT: '1000000/60' } }, async (bench) => {
    const { platform, dataDir } = bench;
    const { api } = await installOwner(bench, { name: 'Bench', slug: 'bench' });

    log('building and publishing stock 1.0.0 and 1.1.0');
    for (const version of ['1.0.0', '1.1.0']) {
      const dir = path.join(FIXTURES, `stock@${version}`);
      await buildModule(dir);
      const pkg = await packModule(dir, { outDir: dataDir });
      await api('POST', '/registry/packages', undefined, pkg.buffer);
    }

    log(`creating rings and ${SIZES.reduce((a, b) => a + b, 0)} tenants, installing stock 1.0.0 with ${ITEMS_PER_TENANT} items each`);
    const installMs: number[] = [];
    const ringTenants = new Map<number, string[]>();
    for (const [i, n] of SIZES.entries()) {
      const ring = `bench${n}`;
      await api('POST', '/rings', { name: ring, position: 100 + i });
      await api('POST', `/rings/${ring}/promote?wait=true`, { module: 'stock', version: '1.0.0' });
      const ids: string[] = [];
      for (let t = 0; t < n; t++) {
        const created = await api<{ tenant: { id: string } }>('POST', '/admin/tenants', { name: `Bench ${ring} ${t}`, alias: `${ring}-t${t}`, ring });
        const id = bench.track(created.tenant.id);
        ids.push(id);
        const started = performance.now();
        await api('POST', `/rings/tenants/${id}/modules/stock/install?wait=true`, {});
        installMs.push(performance.now() - started);
        for (let k = 0; k < ITEMS_PER_TENANT; k++) {
          await platform.kernel.bus.call({ kind: 'core' }, 'stock.add_item', { sku: `SKU-${k}`, name: `Item ${k}`, quantity: k + 1 }, { tenantId: id, user: null });
        }
      }
      ringTenants.set(n, ids);
      log(`ring ${ring}: ${n} tenant(s) ready`);
    }

    const promotion: RingsBenchResult['promotion'] = [];
    for (const n of SIZES) {
      const ring = `bench${n}`;
      const promote: number[] = [];
      const rollback: number[] = [];
      for (let r = 0; r < rounds; r++) {
        let started = performance.now();
        const op = await api<{ operation: { status: string; result: { tenants_moved: number } } }>('POST', `/rings/${ring}/promote?wait=true`, { module: 'stock', version: '1.1.0' });
        promote.push(performance.now() - started);
        if (op.operation.result.tenants_moved !== n) throw new Error(`expected ${n} tenants moved, got ${op.operation.result.tenants_moved}`);
        started = performance.now();
        await api('POST', `/rings/${ring}/rollback?wait=true`, {});
        rollback.push(performance.now() - started);
      }
      const promoteMs = median(promote);
      const rollbackMs = median(rollback);
      promotion.push({ tenants: n, promoteMs: round(promoteMs), perTenantMs: round(promoteMs / n), rollbackMs: round(rollbackMs), rollbackPerTenantMs: round(rollbackMs / n) });
      log(`ring ${ring}: promotion ${round(promoteMs)} ms, rollback ${round(rollbackMs)} ms`);
    }
    const mean = installMs.reduce((a, b) => a + b, 0) / installMs.length;
    return {
      install: { tenants: installMs.length, meanMs: round(mean), p50Ms: round(percentile(installMs, 50)), p95Ms: round(percentile(installMs, 95)) },
      promotion,
      rounds,
    };
  });
}

function report(r: RingsBenchResult): BenchReport {
  const at = (n: number) => r.promotion.find((p) => p.tenants === n)!;
  const growth = at(100).perTenantMs / at(10).perTenantMs;
  return {
    title: `rings: stock 1.0.0 → 1.1.0 (3 tables, ${ITEMS_PER_TENANT} items per tenant, data migration), median of ${r.rounds} round(s)`,
    rows: [
      { measure: `install per tenant, mean over ${r.install.tenants} (ms)`, value: r.install.meanMs },
      { measure: 'install per tenant, p50 (ms)', value: r.install.p50Ms },
      { measure: 'install per tenant, p95 (ms)', value: r.install.p95Ms },
      ...r.promotion.flatMap((p) => [
        { measure: `promotion, ${p.tenants} tenant(s): total (ms)`, value: p.promoteMs },
        { measure: `promotion, ${p.tenants} tenant(s): per tenant (ms)`, value: p.perTenantMs },
        { measure: `ring rollback, ${p.tenants} tenant(s): total (ms)`, value: p.rollbackMs },
      ]),
    ],
    checks: [
      { name: 'promotion per tenant < 1000 ms at 100 tenants', ok: at(100).perTenantMs < 1000, detail: `${at(100).perTenantMs} ms` },
      { name: 'linear growth: per-tenant cost at 100 tenants <= 1.5x that at 10', ok: growth <= 1.5, detail: `${round(growth * 100) / 100}x` },
    ],
    notes: ['Promotion and rollback include the job round trip (queued, run, awaited over HTTP) and recording the new release.'],
    data: r,
  };
}

const benchmark: Benchmark = {
  description: 'rings: install time per tenant, promotion time for 1, 10 and 100 tenants',
  run: async (ctx: BenchContext) => report(await runRingsBench(ctx.log, ctx.options.rounds)),
};
export default benchmark;

if (require.main === module) {
  runRingsBench((m) => process.stderr.write(`${m}\n`), Number(process.argv[2] ?? 1)).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
