/**
 * Closes the stock reservations that orders finished before reservations were closed at delivery
 * kept open (spec 3, Master product: a product held by open orders is not deleted; those orders
 * are not open, so their products could never be deleted, 409 PRODUCT_IN_USE). A fulfiller's copy
 * that is delivered, returned or refunded consumes its reservation, a cancelled one releases it;
 * each copy then carries `stock_closed_at`, which delivery and cancel set from now on, so every
 * run after the first finds nothing. Run by the schedule `close_finished_reservations` (each tenant;
 * only the top has fulfiller copies), at most 100 copies a run; idempotent (the catalog closes a
 * reservation once; a copy with no reservation is closed as it is).
 */
import { typedCall, type HandlerContext } from '../../../sdk';
import type { ChainOrderRow } from './chain';
import { codeOf } from './errors';

export const STOCK_REPAIR_EVERY_MS = 60 * 60_000;
const BATCH = 100;
const FINISHED = ['delivered', 'returned', 'refunded', 'cancelled'] as const;

type Ops = {
  'reseller_catalog.release_stock': { input: { reference: string }; output: unknown };
  'reseller_catalog.consume_stock': { input: { reference: string }; output: unknown };
};

export async function closeFinishedReservations(ctx: HandlerContext): Promise<{ closed: number }> {
  const rows = await ctx.host.db.find<ChainOrderRow>('ChainOrder', {
    where: { is_fulfiller: true, chain_status: { $in: [...FINISHED] }, stock_closed_at: { $is: null } } as never,
    order: [['created_at', 'ASC'], ['id', 'ASC']],
    attributes: ['id', 'chain_ref', 'chain_status'],
    limit: BATCH,
  });
  const call = typedCall<Ops>(ctx.host);
  for (const row of rows) {
    try {
      await call(row.chain_status === 'cancelled' ? 'reseller_catalog.release_stock' : 'reseller_catalog.consume_stock', { reference: row.chain_ref });
    } catch (err) {
      if (codeOf(err) !== 'NOT_FOUND') throw err; // nothing reserved under it: nothing to close
    }
    await ctx.host.db.update<ChainOrderRow>('ChainOrder', { stock_closed_at: new Date(ctx.host.now()).toISOString() }, { where: { id: row.id } });
  }
  return { closed: rows.length };
}
