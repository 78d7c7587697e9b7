/**
 * orders.getStats: the order statistics of a date range in one answer (the tool spec 2's shipped
 * support and analytics agent roles name). It joins the analytics figures (dashboard, fulfilment
 * rates, COD versus prepaid), so an assistant answers "how are sales this month" with one call;
 * the figures are as of the last analytics refresh, like the analytics endpoints.
 */
import type { HandlerContext } from '../../../sdk';
import { codVsPrepaid, dashboard, fulfillment } from './analytics';

export async function getStats(input: { from?: string; to?: string }, ctx: HandlerContext) {
  const summary = await dashboard(input, ctx);
  const rates = await fulfillment(input, ctx);
  const split = await codVsPrepaid(input, ctx);
  return {
    ...summary,
    delivery_rate: rates.delivery_rate,
    cancellation_rate: rates.cancellation_rate,
    rto_rate: rates.rto_rate,
    cod: split.cod,
    prepaid: split.prepaid,
  };
}
