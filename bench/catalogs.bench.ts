/**
 * Catalogs benchmark (issue 4 item 5): how long a tenant waits for the catalogs built per ring from
 * manifests, once the ring's catalog is cached and when it must be reassembled (the first request
 * after a release change: the release read from the database, its packages' manifests from the
 * registry). The module is the kiosk test fixture (test/catalogs/fixtures), released in stable and
 * installed by one tenant; section data and actions run in the real sandbox through the bus.
 *
 * Requests are sequential over real HTTP from this process (latency, not throughput).
 * Run: `npm run bench -- catalogs [--rounds 3]` (rounds multiply the requests per measure).
 */
import path from 'node:path';
import { packModule } from '../sdk/package';
import { buildModule } from '../sdk/build/build-module';
import type { BenchContext, BenchReport, Benchmark } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { installOwner } from './support/bench-tenant';
import { percentile } from './support/stats';

const REQUESTS = 200;
const FIXTURE = path.resolve(__dirname, '../test/catalogs/fixtures/kiosk@1.0.0');

interface Measure {
  measure: string;
  requests: number;
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

export async function runCatalogsBench(log: (m: string) => void, rounds = 1): Promise<Measure[]> {
  const env = { LOG_LEVEL: 'silent', API_RATE_LIMIT: '1000000/60', BUS_RATE_LIMIT: '1000000/60', WORKFLOW_RATE_LIMIT: '1000000/60' };
  return withBenchPlatform({ name: 'catalogs', log, env }, async (bench) => {
    const { platform, dataDir } = bench;
    const { api } = await installOwner(bench, { name: 'Bench', slug: 'bench' });

    log('publishing kiosk 1.0.0 into stable and installing it');
    await buildModule(FIXTURE);
    await api('POST', '/registry/packages', undefined, (await packModule(FIXTURE, { outDir: dataDir })).buffer);
    await api('POST', '/rings/stable/promote?wait=true', { module: 'kiosk', version: '1.0.0' });
    await api('POST', '/modules/kiosk/install', {});

    const measure = async (label: string, urlPath: string, before?: () => void): Promise<Measure> => {
      await api('GET', urlPath); // warm: sandbox context, pools
      const ms: number[] = [];
      for (let i = 0; i < REQUESTS * rounds; i++) {
        before?.();
        const started = performance.now();
        await api('GET', urlPath);
        ms.push(performance.now() - started);
      }
      const result = { measure: label, requests: ms.length, meanMs: round(ms.reduce((a, b) => a + b, 0) / ms.length), p50Ms: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)) };
      log(`${label}: mean ${result.meanMs} ms, p95 ${result.p95Ms} ms`);
      return result;
    };
    return [
      await measure('GET /workflow-nodes, ring catalog reassembled', '/workflow-nodes', () => platform.catalogs.rings.forget('stable')),
      await measure('GET /workflow-nodes, cached', '/workflow-nodes'),
      await measure('GET /workflow-nodes/grouped, cached', '/workflow-nodes/grouped'),
      await measure('GET /mobile/screens/manifest, cached', '/mobile/screens/manifest'),
      await measure('GET /mobile/screens/kiosk.items, definition cached', '/mobile/screens/kiosk.items'),
      await measure('GET …/kiosk.items/data/items?per_page=50 (bus + sandbox)', '/mobile/screens/kiosk.items/data/items?per_page=50'),
      await measure('GET /ai/agent/tools, cached', '/ai/agent/tools'),
    ];
  });
}

function report(rows: Measure[]): BenchReport {
  const cached = rows.find((r) => r.measure === 'GET /workflow-nodes, cached')!;
  return {
    title: 'catalogs per ring: sequential request latency (kiosk fixture, one tenant)',
    rows: rows.map((r) => ({ measure: r.measure, requests: r.requests, 'mean (ms)': r.meanMs, 'p50 (ms)': r.p50Ms, 'p95 (ms)': r.p95Ms })),
    checks: [{ name: 'cached node registry p95 < 20 ms', ok: cached.p95Ms < 20, detail: `${cached.p95Ms} ms` }],
    notes: ['"Reassembled" forgets the ring\'s current release before each request, as a release change does; module parts stay cached (they are immutable per alias@version).'],
    data: rows,
  };
}

const benchmark: Benchmark = {
  description: 'catalogs: node registry, screens and AI tools per ring, cached and reassembled',
  run: async (ctx: BenchContext) => report(await runCatalogsBench(ctx.log, ctx.options.rounds)),
};
export default benchmark;
