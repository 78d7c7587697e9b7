/**
 * The super admin's stats (spec 3, Finance: GET /finance/admin/stats) over its whole network: the
 * top and every tenant below it. Each tenant's rows live in its own database, so each tenant reports
 * its own figures, asked level by level through related calls (a parent asks each direct
 * sub-reseller, which answers for itself and its own subtree: a tenant reaches only what is below
 * it). Names and levels come from the host's tenant lookups (platform.get_tenant for a tenant
 * itself), never from copies kept beside the money.
 *
 * Counted once each: a remittance by its payer's copy, a customer's payment by the record of the
 * tenant that took it (README: Admin stats).
 */
import { related, Type, type HandlerContext } from '../../../sdk';
import { codeOf } from './errors';
import { D, money } from './money';
import { allRows, total } from './reports';
import type { CollectionRow, RemittanceRow } from './settlement';

/** Overdue remittances listed per tenant and in the answer. */
const OVERDUE_ITEMS = 50;
const TOP_DEBTORS = 10;

/** One tenant's own figures. */
export const TenantFigures = Type.Object({
  tenant_id: Type.String(),
  tenant_name: Type.String(),
  level: Type.Integer(),
  /** The customers' money this tenant took itself in the period. */
  collections: Type.String(),
  /** Its outgoing remittances created in the period, still pending / completed. */
  pending_remittances: Type.String(),
  completed_remittances: Type.String(),
  /** Everything it owes now: its pending outgoing remittances. */
  owed: Type.String(),
  overdue_count: Type.Integer(),
  overdue_total: Type.String(),
  overdue_items: Type.Array(Type.Object({}, { additionalProperties: true })),
});
export type TenantFiguresT = typeof TenantFigures.static;

async function ownFigures(ctx: HandlerContext, since: string): Promise<TenantFiguresT> {
  const me = await ctx.host.call<{ id: string; name: string; reseller_level: number | null }>('platform.get_tenant', {});
  const [collected, created, pending] = await Promise.all([
    allRows<CollectionRow>(ctx.host.db, 'Collection', { where: { collected_at: { $gte: since }, collector_tenant_id: ctx.tenantId } }),
    allRows<RemittanceRow>(ctx.host.db, 'Remittance', { where: { direction: 'outgoing', created_at: { $gte: since } } }),
    allRows<RemittanceRow>(ctx.host.db, 'Remittance', { where: { direction: 'outgoing', status: 'pending' } }),
  ]);
  // Past its due date is overdue (README: Settlement) whether or not this tenant's daily sweep has marked it yet.
  const today = new Date(ctx.host.now()).toISOString().slice(0, 10);
  const overdue = pending.filter((r) => r.is_overdue || String(r.due_date).slice(0, 10) < today);
  return {
    tenant_id: me.id,
    tenant_name: me.name,
    level: me.reseller_level ?? 0,
    collections: total(collected),
    pending_remittances: total(created.filter((r) => r.status === 'pending')),
    completed_remittances: total(created.filter((r) => r.status === 'completed')),
    owed: total(pending),
    overdue_count: overdue.length,
    overdue_total: total(overdue),
    overdue_items: overdue.slice(0, OVERDUE_ITEMS).map((r) => ({ ...r, payer_tenant_name: me.name, payer_level: me.reseller_level ?? 0 })),
  };
}

/** This tenant's figures, then those of every tenant below it (each direct sub-reseller answers for its subtree). */
export async function networkFigures(ctx: HandlerContext, since: string): Promise<TenantFiguresT[]> {
  const out = [await ownFigures(ctx, since)];
  for (let page = 1; ; page++) {
    const { tenants, pagination } = await related(ctx.host).children({ page, per_page: 100 });
    for (const child of tenants) {
      try {
        out.push(...(await related(ctx.host).call<{ tenants: TenantFiguresT[] }>(child.id, 'reseller_finance.network_figures', { since })).tenants);
      } catch (err) {
        // A sub-reseller without this module has no finance of its own, nor can it speak for its subtree.
        if (codeOf(err) !== 'MODULE_NOT_INSTALLED') throw err;
      }
    }
    if (page >= pagination.last_page) return out;
  }
}

/** The answer's figures from every tenant's own. */
export function adminStats(figures: TenantFiguresT[]) {
  const sum = (pick: (f: TenantFiguresT) => string) => money(figures.reduce((a, f) => a.plus(pick(f)), new D(0)));
  const debtors = figures.filter((f) => new D(f.owed).gt(0)).sort((a, b) => new D(b.owed).comparedTo(a.owed) || a.level - b.level);
  return {
    totals: { collections: sum((f) => f.collections), pending_remittances: sum((f) => f.pending_remittances), completed_remittances: sum((f) => f.completed_remittances) },
    overdue: {
      count: figures.reduce((n, f) => n + f.overdue_count, 0),
      total_amount: sum((f) => f.overdue_total),
      items: figures.flatMap((f) => f.overdue_items).slice(0, OVERDUE_ITEMS),
    },
    top_debtors: debtors.slice(0, TOP_DEBTORS).map((f) => ({ tenant_id: f.tenant_id, tenant_name: f.tenant_name, level: f.level, total_owed: money(f.owed) })),
  };
}
