/**
 * What an order is worth to the chain when it enters it (spec 3, Chain order: pricing; Wallet:
 * currency). Spec 3 is silent on tax and currency; the rules are in the README (how an order travels).
 */
import Decimal from 'decimal.js';
import { currencyNotSettled } from './errors';

/** Wallets and remittances are in the network's one currency (spec 3, Wallet: currency, e.g. INR); there is no conversion rule. */
export const SETTLEMENT_CURRENCY = 'INR';

export function assertSettlementCurrency(currency: string | null | undefined) {
  const code = (currency ?? SETTLEMENT_CURRENCY).toUpperCase();
  if (code !== SETTLEMENT_CURRENCY) throw currencyNotSettled(code, SETTLEMENT_CURRENCY);
}

/**
 * The origin's price to the customer for margins: the order total less the GST its invoice charged
 * (spec 3, Tax configuration: tax is on the taxable amount), so tax is never counted as margin.
 */
export const taxableValue = (order: { total: string; tax_total?: string | null }) => new Decimal(order.total).minus(order.tax_total ?? 0).toFixed(2);
