/**
 * `payment@1`: what spec 3 asks of a payment gateway (Payments, refunds, invoices): a payment link
 * for an order's balance (`POST /orders/{order}/payments/link` calls `payment.createLink` with
 * amount = balance_due, currency, reference = order_number, customer email and phone), the link's
 * status for the reconciliation poll, and refunds forwarded to the gateway that took the payment.
 * Amounts are decimal strings (DESIGN.md, Data), never floats.
 */
import * as Type from '../runtime/schema';
import { defineContract } from './contract';

const Amount = Type.String({ pattern: '^\\d{1,13}(\\.\\d{1,2})?$', description: 'a decimal string, at most 2 decimals' });
const Refund = Type.Object({ id: Type.String(), status: Type.String(), amount: Type.Optional(Type.String()) });

export const payment = defineContract('payment', 1, {
  describe: {
    description: 'Who the gateway is: the name records keep (`payment-<gateway>`, spec 3 Order payment) and what it supports.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ provider_module: Type.String(), name: Type.String(), supports: Type.Array(Type.String()) }),
  },
  createLink: {
    description: 'A payment link for an amount, currency, reference (the order number) and customer.',
    input: Type.Object(
      {
        amount: Amount,
        currency: Type.String({ pattern: '^[A-Z]{3}$' }),
        reference: Type.String({ minLength: 1, maxLength: 255 }),
        description: Type.Optional(Type.String({ maxLength: 2048 })),
        customer: Type.Optional(
          Type.Object({
            name: Type.Optional(Type.Nullable(Type.String())),
            email: Type.Optional(Type.Nullable(Type.String())),
            phone: Type.Optional(Type.Nullable(Type.String())),
          }),
        ),
        expires_at: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      id: Type.String({ description: "the gateway's link id (kept as the payment's external_payment_id)" }),
      url: Type.String(),
      status: Type.Optional(Type.String()),
      expires_at: Type.Optional(Type.Nullable(Type.String())),
    }),
  },
  link_status: {
    description: "A link's status at the gateway: pending, completed (with the payment's id and the amount paid) or failed.",
    input: Type.Object({ link_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    output: Type.Object({
      status: Type.StringEnum(['pending', 'completed', 'failed']),
      link_status: Type.String({ description: "the gateway's own word for it" }),
      payment_id: Type.Optional(Type.Nullable(Type.String())),
      amount_paid: Type.Optional(Type.Nullable(Type.String())),
    }),
  },
  refund: {
    description: 'Refunds part or all of a captured payment at the gateway that took it.',
    input: Type.Object(
      {
        payment_id: Type.String({ minLength: 1, maxLength: 100 }),
        amount: Amount,
        currency: Type.Optional(Type.String()),
        reason: Type.Optional(Type.String({ maxLength: 500 })),
        reference: Type.Optional(Type.String({ maxLength: 40 })),
      },
      { additionalProperties: false },
    ),
    output: Refund,
  },
  refund_status: {
    description: "A refund's status at the gateway (pending, completed or failed).",
    input: Type.Object({ refund_id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
    output: Refund,
  },
});
