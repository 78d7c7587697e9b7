/**
 * How orders reaches "the payment provider" and "the carrier": through the provider contracts
 * payment@1 and shipping@1 (sdk/contracts; spec 3 names the bus operations payment.createLink,
 * shipping.getRates and shipping.createShipment). orders consumes `payment.*` and `shipping.*`,
 * never a provider module by name, so a new gateway or carrier needs no new orders version.
 *
 * - No provider named: `payment.<method>` goes to the implementation the tenant chose
 *   (PUT /api/v1/providers/payment), or the only one installed; PROVIDER_MISSING /
 *   PROVIDER_AMBIGUOUS (422) pass through as the bus raised them.
 * - A provider named (a request's provider_module, or the one a record holds: a refund goes to the
 *   gateway that took the payment): `<alias>.<method>`, which consuming the contract allows for
 *   any installed implementer. One that is not installed or does not implement the contract is
 *   UNKNOWN_PROVIDER / UNKNOWN_CARRIER (422) before anything is written.
 * Records keep the spec's form `payment-<gateway>` / `shipping-<carrier>`; module aliases cannot
 * hold "-", so the alias is the same name with "_".
 */
import type { HandlerContext } from '../../../sdk';
import { codeOf, invalid, providerFailed, unknownProvider } from './errors';

export type ProviderKind = 'payment provider' | 'carrier';
const CONTRACT: Record<ProviderKind, 'payment' | 'shipping'> = { 'payment provider': 'payment', carrier: 'shipping' };
/** The bus's own refusals of a contract call: the tenant has to install or choose a provider. */
const ROUTING = new Set(['PROVIDER_MISSING', 'PROVIDER_AMBIGUOUS']);

export const aliasOf = (name: string) => name.trim().toLowerCase().replace(/-/g, '_');
export const recordName = (name: string) => aliasOf(name).replace(/_/g, '-');

export function checkName(name: string, kind: 'payment' | 'shipping', field: string) {
  if (!new RegExp(`^${kind}[-_][a-z0-9_-]{2,40}$`).test(name.trim().toLowerCase())) {
    throw invalid(field, `The ${field} must name a ${kind} module, "${kind}-<name>".`);
  }
}

/** `method` of the contract, at the provider `name` or (null) at the tenant's chosen one. */
export async function callProvider<O>(ctx: HandlerContext, kind: ProviderKind, name: string | null, method: string, input: unknown): Promise<O> {
  const op = name ? `${aliasOf(name)}.${method}` : `${CONTRACT[kind]}.${method}`;
  try {
    return await ctx.host.call<O>(op, input);
  } catch (err) {
    const code = codeOf(err);
    if (name && (code === 'OPERATION_NOT_FOUND' || code === 'OPERATION_NOT_CONSUMED')) throw unknownProvider(kind, recordName(name));
    if (!name && ROUTING.has(String(code))) throw err;
    throw providerFailed(name ? recordName(name) : CONTRACT[kind], (err as Error)?.message ?? String(err));
  }
}

/** The tenant's provider for the contract (`payment.describe`), in record form: what a new record names. */
export async function chosenProvider(ctx: HandlerContext, kind: ProviderKind): Promise<string> {
  const who = await callProvider<{ provider_module?: string; carrier_module?: string }>(ctx, kind, null, 'describe', {});
  return recordName(String(kind === 'carrier' ? who.carrier_module : who.provider_module));
}
