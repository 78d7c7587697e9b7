/**
 * How orders finds "the payment provider" and "the carrier": by module alias, through the bus.
 *
 * Contract (spec 3 names the bus operations payment.createLink, shipping.getRates and
 * shipping.createShipment; a module may only provide operations under its own alias): a payment
 * provider module `payment_<gateway>` provides `payment_<gateway>.describe`, `.createLink`,
 * `.link_status`, `.refund` and `.refund_status`; a carrier module `shipping_<carrier>` provides
 * `shipping_<carrier>.getRates`, `.createShipment` and `.track`. Records keep the spec's form
 * `payment-<gateway>` / `shipping-<carrier>`; module aliases cannot hold "-" so the alias is the
 * same name with "_". orders' api.consumes lists the provider modules it speaks to
 * (`payment_razorpay.*`, `shipping_shiprocket.*`): a module that is not installed, or not listed,
 * is refused with UNKNOWN_PROVIDER / UNKNOWN_CARRIER (422) before anything is written.
 */
import type { HandlerContext } from '../../../sdk';
import { codeOf, invalid, providerFailed, unknownProvider } from './errors';

export const aliasOf = (name: string) => name.trim().toLowerCase().replace(/-/g, '_');
export const recordName = (name: string) => aliasOf(name).replace(/_/g, '-');

export function checkName(name: string, kind: 'payment' | 'shipping', field: string) {
  if (!new RegExp(`^${kind}[-_][a-z0-9_-]{2,40}$`).test(name.trim().toLowerCase())) {
    throw invalid(field, `The ${field} must name a ${kind} module, "${kind}-<name>".`);
  }
}

export async function callProvider<O>(ctx: HandlerContext, kind: 'payment provider' | 'carrier', name: string, method: string, input: unknown): Promise<O> {
  try {
    return await ctx.host.call<O>(`${aliasOf(name)}.${method}`, input);
  } catch (err) {
    const code = codeOf(err);
    if (code === 'OPERATION_NOT_FOUND' || code === 'OPERATION_NOT_CONSUMED') throw unknownProvider(kind, recordName(name));
    throw providerFailed(recordName(name), (err as Error)?.message ?? String(err));
  }
}
