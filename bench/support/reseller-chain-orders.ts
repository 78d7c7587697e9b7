/**
 * The chain-order and settlement cases of `npm run bench -- reseller` (bench/reseller.bench.ts).
 * Spec 3 reseller network, chain orders and settlement (real HTTP, a real platform with orders,
 * reseller_catalog, reseller_finance and reseller_orders in their sandboxes, PostgreSQL):
 *
 *   forward ×10   a chain order made at level 10 and forwarded by each level in turn to level 0
 *                 (each forward is a related-tenant call that prices the order in the parent's own
 *                 catalog, which walks the chain up to the master product), then accepted at the top
 *   bulk-process  POST /finance/settlements/remittances/bulk-process with 1,000 pending remittances
 *                 of one payer: 1,000 holds (pending → processing), the recipient's credits
 *                 handed over in batches of 100 per related call, then 1,000 completions (the
 *                 hold released and the debit written, with their ledger pairs); checked after:
 *                 every copy completed, both ledgers sum to zero, one movement of each kind each
 *
 * The super admin acts in each level with X-Effective-Tenant. Remittances for the bulk run are seeded
 * in SQL (1,000 delivered chain orders would take the bench longer than it measures).
 */
import path from 'node:path';
import type { BenchContext, Row } from '../benchmark';
import { withBenchPlatform } from './bench-platform';
import { addLocalModule, installOwner } from './bench-tenant';
import { percentile } from './stats';

const MODULES = ['orders', 'reseller-catalog', 'reseller-finance', 'reseller-orders'];
const ALIASES = ['orders', 'reseller_catalog', 'reseller_finance', 'reseller_orders'];
const DEPTH = 10;
/** Under the per-user write limit of each level (30 a minute): level 10 creates and forwards each round. */
const ROUNDS = 12;
const BULK = 1000;

/** Rows `{case, samples, p50 ms, p99 ms}` and notes, on a platform of their own. */
export function chainOrderCases(ctx: BenchContext): Promise<{ rows: Row[]; notes: string[] }> {
  return withBenchPlatform({ name: 'reseller', log: ctx.log, env: { API_RATE_LIMIT: '1000000000/60', BUS_RATE_LIMIT: '1000000000/60' } }, async (bench) => {
    const { platform } = bench;
    for (const m of MODULES) await addLocalModule(platform, path.join(__dirname, '..', '..', 'modules', m));
    const owner = await installOwner(bench, { name: 'Bench Master', slug: 'benchchain' });
    const levels = [owner.tenantId];
    for (const alias of ALIASES) await platform.kernel.modules.install(owner.tenantId, alias);
    const as = async <T>(tenant: string, method: string, p: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${platform.url}/api/v1${p}`, {
        method,
        headers: { ...owner.headers, ...(tenant === owner.tenantId ? {} : { 'x-effective-tenant': tenant }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${p} in ${tenant}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    };

    ctx.log(`reseller: a chain of ${DEPTH} levels below the top`);
    for (let level = 1; level <= DEPTH; level++) {
      const made = await owner.api<{ tenant: { id: string } }>('POST', '/admin/tenants', { name: `Level ${level}`, alias: `bench-l${level}`, parent_tenant: levels[level - 1] });
      levels.push(bench.track(made.tenant.id));
      for (const alias of ALIASES) await platform.kernel.modules.install(made.tenant.id, alias);
    }
    const { product } = await owner.api<{ product: { id: string } }>('POST', '/reseller-catalog/master-products', { sku: 'BENCH-1', name: 'Bench kettle', base_cost: '100.00', stock_quantity: 1_000_000 });
    for (let level = 1; level <= DEPTH; level++) {
      await as(levels[level - 1], 'POST', '/reseller-catalog/pricing/set', { product_id: product.id, sub_reseller_id: levels[level], margin_percent: 10 });
    }

    ctx.log(`reseller: ${ROUNDS} chain orders forwarded through ${DEPTH} levels`);
    const bottom = levels[DEPTH];
    const chains: number[] = [];
    const hops: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const order = await as<{ id: string; order_number: string }>(bottom, 'POST', '/orders', {
        customer: { name: 'Bench Customer', phone: '9800000000' },
        items: [{ name: 'Bench kettle', sku: 'BENCH-1', quantity: 1, unit_price: '999.00' }],
        is_cod: true,
      });
      let id = (await as<{ order: { id: string } }>(bottom, 'POST', '/chain-orders', { order_id: order.id })).order.id;
      const started = performance.now();
      for (let level = DEPTH; level >= 1; level--) {
        const t = performance.now();
        await as(levels[level], 'POST', `/chain-orders/${id}/forward`);
        hops.push(performance.now() - t);
        const incoming = await as<{ orders: Array<{ id: string }> }>(levels[level - 1], 'GET', `/chain-orders/incoming?search=${order.order_number}`);
        id = incoming.orders[0].id;
      }
      await as(owner.tenantId, 'POST', `/chain-orders/${id}/accept`);
      chains.push(performance.now() - started);
    }

    ctx.log(`reseller: bulk-process of ${BULK} remittances`);
    const payer = levels[1];
    await as(payer, 'GET', '/finance/wallet');
    await as(owner.tenantId, 'GET', '/finance/wallet');
    const sql = (tenant: string, q: string) => platform.tenantDbs.with(tenant, (db) => db.query(q));
    const seed = (tenant: string, direction: string) => `
      INSERT INTO reseller_finance.remittances (id, chain_ref, chain_order_id, origin_order_number, direction, payer_tenant_id, recipient_tenant_id, amount, status, due_date)
      SELECT gen_random_uuid(), 'bench:' || g, 'bench-order-' || g, 'BENCH-' || g, '${direction}', '${payer}', '${owner.tenantId}', 110.00, 'pending', CURRENT_DATE + 7
      FROM generate_series(1, ${BULK}) g`;
    await sql(payer, seed(payer, 'outgoing'));
    await sql(payer, `UPDATE reseller_finance.wallets SET balance = 1000000.00, pending_debits = pending_debits + ${BULK * 110}`);
    await sql(owner.tenantId, seed(owner.tenantId, 'incoming'));
    await sql(owner.tenantId, `UPDATE reseller_finance.wallets SET pending_credits = pending_credits + ${BULK * 110}`);
    const ids = ((await sql(payer, `SELECT id FROM reseller_finance.remittances WHERE chain_ref LIKE 'bench:%' ORDER BY chain_ref`)) as unknown as [Array<{ id: string }>])[0].map((r) => r.id);
    const t0 = performance.now();
    const result = await as<{ processed: string[]; errors: Record<string, string> }>(payer, 'POST', '/finance/settlements/remittances/bulk-process', { remittance_ids: ids });
    const bulkMs = performance.now() - t0;
    if (result.processed.length !== BULK) throw new Error(`bulk-process: ${result.processed.length} processed, errors ${JSON.stringify(Object.values(result.errors).slice(0, 3))}`);
    const credited = ((await sql(owner.tenantId, `SELECT count(*)::int AS n FROM reseller_finance.remittances WHERE chain_ref LIKE 'bench:%' AND status = 'completed'`)) as unknown as [Array<{ n: number }>])[0][0].n;
    if (credited !== BULK) throw new Error(`bulk-process: the recipient's copies completed: ${credited}`);
    const paid = ((await sql(payer, `SELECT count(*)::int AS n FROM reseller_finance.remittances WHERE chain_ref LIKE 'bench:%' AND status = 'completed'`)) as unknown as [Array<{ n: number }>])[0][0].n;
    if (paid !== BULK) throw new Error(`bulk-process: the payer's copies completed: ${paid}`);
    // Exact money: every ledger sums to zero, one hold, release and debit per remittance at the payer, one credit at the recipient.
    for (const [tenant, movements] of [[payer, 3 * BULK], [owner.tenantId, BULK]] as const) {
      const [[ledger]] = (await sql(tenant, `SELECT (SELECT coalesce(sum(amount), 0)::text FROM reseller_finance.ledger_entries) AS total, (SELECT count(*)::int FROM reseller_finance.transactions WHERE reference_type = 'remittance') AS n`)) as unknown as [Array<{ total: string; n: number }>];
      if (Number(ledger.total) !== 0 || ledger.n !== movements) throw new Error(`bulk-process: ledger of ${tenant}: sum ${ledger.total}, ${ledger.n} remittance movements (expected ${movements})`);
    }

    const round = (v: number) => Math.round(v * 10) / 10;
    const rows: Row[] = [
      { case: `chain order forwarded through ${DEPTH} levels + accept`, samples: chains.length, 'p50 ms': round(percentile(chains, 50)), 'p99 ms': round(percentile(chains, 99)) },
      { case: 'one forward (related call, parent prices from its catalog)', samples: hops.length, 'p50 ms': round(percentile(hops, 50)), 'p99 ms': round(percentile(hops, 99)) },
      { case: `bulk-process ${BULK} remittances (the request)`, samples: 1, 'p50 ms': round(bulkMs), 'p99 ms': null },
      { case: 'bulk-process, per remittance', samples: BULK, 'p50 ms': round(bulkMs / BULK), 'p99 ms': null },
    ];
    return {
      rows,
      notes: [`chain orders: ${bench.setup}; the super admin acting in each level with X-Effective-Tenant; the hop includes the parent's quote from its own cost lines`],
    };
  });
}
