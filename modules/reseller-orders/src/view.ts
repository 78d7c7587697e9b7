/** A tenant's copy of a chain order as spec 3 shows it (Chain order: fields seen). */
import Decimal from 'decimal.js';
import type { ChainOrderRow } from './chain';

export function present(r: ChainOrderRow) {
  return {
    id: r.id,
    origin_order_number: r.origin_order_number,
    chain_status: r.chain_status,
    chain_path: r.chain_path,
    customer: r.customer,
    shipping_address: r.shipping_address,
    items: r.items,
    pricing: {
      origin_total: r.origin_total,
      your_cost: r.your_cost,
      // What this level earns: its price to the level below (the customer's total at the origin) less its cost.
      your_margin: new Decimal(r.sell_total).minus(r.your_cost).toFixed(2),
      cod_amount: r.cod_amount,
    },
    shipping: { carrier: r.carrier, tracking_number: r.tracking_number, shipped_at: r.shipped_at },
    payment: { method: r.payment_method, status: r.payment_status },
    cancel_reason: r.cancel_reason,
    delivered_at: r.delivered_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}
