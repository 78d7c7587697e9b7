/**
 * Issue 18's reseller benchmark (spec 3, reseller network), `npm run bench -- reseller`: the catalog
 * cases here, then the chain-order and settlement cases (bench/support/reseller-chain-orders.ts: a
 * chain order forwarded through 10 levels, bulk-process of 1,000 remittances), each on a platform of
 * its own, in one table. The catalog: the reseller catalog installed in a chain of 11 tenants (level
 * 0, the super admin, down to level 10, the deepest spec 3 allows), a margin set at every level.
 *
 *   breakdown (depth 10)  GET /reseller-catalog/pricing/{id}/breakdown in the level-10 tenant:
 *                         served from the tenant's own cost lines (chain.ts), one at a time; over
 *                         HTTP (as the super admin acting at level 10; the route allows 100 reads a
 *                         minute per user, so ≤ 90 samples a minute) and as the bus call the route
 *                         dispatches (the same operation without HTTP and the rate limit).
 *   cascade (10 levels)   PUT /reseller-catalog/master-products/{id} with a new base cost: the change
 *                         is handed down all 10 levels (breadth first, one related call per tenant)
 *                         before the answer; run as the bus call (writes allow 30 a minute per user).
 */
import path from 'node:path';
import type { Benchmark, Row } from './benchmark';
import { withBenchPlatform } from './support/bench-platform';
import { addLocalModule, installOwner } from './support/bench-tenant';
import { chainOrderCases } from './support/reseller-chain-orders';

const CATALOG_DIR = path.join(__dirname, '..', 'modules', 'reseller-catalog');
const DEPTH = 10;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

function summary(name: string, samples: number[], extra: Row = {}): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  return { case: name, samples: sorted.length, 'p50 ms': percentile(sorted, 50), 'p99 ms': percentile(sorted, 99), 'max ms': sorted[sorted.length - 1], ...extra };
}

const benchmark: Benchmark = {
  description: 'reseller: the pricing breakdown at depth 10 (p50, p99), a base-cost change cascaded through 10 levels, a chain order forwarded through 10 levels, bulk-process of 1,000 remittances',
  async run(ctx) {
    const catalog = await withBenchPlatform({ name: 'reseller', log: ctx.log, env: { API_RATE_LIMIT: '1000000000/60', BUS_RATE_LIMIT: '1000000000/60' } }, async (bench) => {
      const { platform } = bench;
      const { kernel } = platform;
      await addLocalModule(platform, CATALOG_DIR);
      const owner = await installOwner(bench, { name: 'Bench Wholesale', slug: 'benchtop' });
      await kernel.modules.install(owner.tenantId, 'reseller_catalog');
      const send = async (method: string, p: string, tenant: string, body?: unknown) => {
        const headers = tenant === owner.tenantId ? owner.headers : { ...owner.headers, 'x-effective-tenant': tenant };
        const res = await fetch(`${platform.url}/api/v1${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${method} ${p} in ${tenant}: ${res.status} ${text}`);
        return JSON.parse(text) as never;
      };

      ctx.log(`reseller: a chain of ${DEPTH} levels below the super admin`);
      const chain = [owner.tenantId];
      for (let level = 1; level <= DEPTH; level++) {
        const made = await owner.api<{ tenant: { id: string } }>('POST', '/admin/tenants', { name: `Level ${level} Traders`, alias: `benchlvl${level}`, parent_tenant: chain[level - 1] });
        chain.push(bench.track(made.tenant.id));
        await kernel.modules.install(made.tenant.id, 'reseller_catalog');
      }
      const { product } = await send('POST', '/reseller-catalog/master-products', owner.tenantId, { sku: 'BENCH-1', name: 'Bench product', base_cost: '1234.56', stock_quantity: 1000 }) as { product: { id: string } };
      for (let level = 0; level < DEPTH; level++) {
        await send('POST', '/reseller-catalog/pricing/set', chain[level], { product_id: product.id, sub_reseller_id: chain[level + 1], margin_percent: 10 + level + 0.25 });
      }
      const deepest = chain[DEPTH];
      const userRow = await platform.central.models.User.findOne({ where: { email: 'bea@bench.example' } });
      const user = { id: userRow!.id, email: userRow!.email, name: userRow!.name, isSuperAdmin: true };
      const viaBus = (tenantId: string, op: string, input: unknown) =>
        kernel.bus.call({ kind: 'edge', via: 'http' }, op, input, { tenantId, user, permissions: new Set(['*']) }, { coerce: true });

      const first = (await viaBus(deepest, 'reseller_catalog.pricing_breakdown', { productId: product.id })) as { breakdown: unknown[]; your_cost: string };
      if (first.breakdown.length !== DEPTH + 1) throw new Error(`breakdown has ${first.breakdown.length} levels, expected ${DEPTH + 1}`);

      const time = async (n: number, work: () => Promise<unknown>) => {
        const out: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          await work();
          out.push(performance.now() - t0);
        }
        return out;
      };
      const busN = Math.max(200, Math.round(ctx.options.durationSeconds * 50));
      ctx.log(`reseller: breakdown at depth ${DEPTH}: ${busN} bus calls, 90 HTTP requests`);
      await time(20, () => viaBus(deepest, 'reseller_catalog.pricing_breakdown', { productId: product.id }));
      const busSamples = await time(busN, () => viaBus(deepest, 'reseller_catalog.pricing_breakdown', { productId: product.id }));
      const httpSamples = await time(90, () => send('GET', `/reseller-catalog/pricing/${product.id}/breakdown`, deepest));

      ctx.log('reseller: base-cost changes cascaded through 10 levels');
      let cost = 1234.56;
      const cascadeSamples = await time(40, () => {
        cost += 0.01;
        return viaBus(owner.tenantId, 'reseller_catalog.update_master_product', { id: product.id, base_cost: cost.toFixed(2) });
      });
      const after = (await viaBus(deepest, 'reseller_catalog.pricing_breakdown', { productId: product.id })) as { product: { base_cost: string } };
      if (after.product.base_cost !== cost.toFixed(2)) throw new Error(`the deepest level sees base cost ${after.product.base_cost}, expected ${cost.toFixed(2)}`);

      return {
        rows: [
          summary('breakdown at depth 10, HTTP', httpSamples, { levels: DEPTH + 1 }),
          summary('breakdown at depth 10, bus call', busSamples, { levels: DEPTH + 1 }),
          summary('base-cost change cascaded 10 levels, bus call', cascadeSamples, { levels: DEPTH + 1 }),
        ],
        notes: [
          'The breakdown reads the viewer tenant\'s own cost lines: its cost does not grow with the depth; the cascade makes one related-tenant call per tenant below the change.',
          `The deepest level's your_cost after the pricing: ${first.your_cost}.`,
        ],
      };
    });
    const orders = await chainOrderCases(ctx);
    return { title: `Reseller network on a chain of ${DEPTH} levels (one request at a time)`, rows: [...catalog.rows, ...orders.rows], notes: [...catalog.notes, ...orders.notes] };
  },
};

export default benchmark;
