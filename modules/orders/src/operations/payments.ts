/** orders operations: payments, payment links and refunds, and their provider callbacks and polls. */
import { operation, Type } from '../../../../sdk';
import { OrderSummary, row, SyncOutcome } from '../outputs';
import { AnyObject, Money, OrderRef, OrderRefInput, PollBatch, Uuid } from '../schemas';
import { applyPaymentUpdate, confirmPayment, createPaymentLink, listPayments, recordPayment, syncPaymentLinks } from '../payments';
import { applyRefundUpdate, listRefunds, refund, syncRefunds } from '../refunds';
import { orderNode } from '../workflow-nodes';

export const paymentOperations = {
  apply_refund_update: operation({
    description:
      "A payment provider module reports a pending refund's outcome (from its gateway's webhook): completes it (reconciled, order.refund_processed) or fails it (amount released), once.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        provider_module: Type.String({ minLength: 2, maxLength: 100 }),
        external_refund_id: Type.String({ minLength: 1, maxLength: 255 }),
        refund_id: Type.Optional(Type.String({ maxLength: 100, description: 'the orders refund id the gateway keeps as a reference' })),
        status: Type.StringEnum(['completed', 'failed']),
        failure_reason: Type.Optional(Type.String({ maxLength: 1000 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ applied: Type.Boolean(), refund: row('Refund'), order: OrderSummary }),
    handler: applyRefundUpdate,
  }),
  sync_refunds: operation({
    description:
      'Asks the provider (<alias>.refund_status) about refunds still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule refund_sync).',
    permission: 'orders.manage',
    ai_tool: false,
    input: PollBatch,
    output: SyncOutcome,
    http: { method: 'POST', path: '/orders/refunds/sync' },
    handler: syncRefunds,
  }),
  apply_payment_update: operation({
    description:
      "A payment provider module reports what became of a payment link (its gateway's webhook or the payment_link_sync poll): paid completes the pending payment with the gateway's payment id and amount (reconciled, order.payment_updated); expired or cancelled fails it. Applied once.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        provider_module: Type.String({ minLength: 2, maxLength: 100 }),
        link_id: Type.String({ minLength: 1, maxLength: 255 }),
        status: Type.StringEnum(['completed', 'failed', 'pending']),
        external_payment_id: Type.Optional(
          Type.String({ minLength: 1, maxLength: 255, description: "the gateway's payment id (paid links)" }),
        ),
        amount: Type.Optional(Type.String({ maxLength: 30, description: 'the amount the gateway received, when it says' })),
        link_status: Type.Optional(
          Type.String({ maxLength: 50, description: "the gateway's own word for the link's state, kept in metadata" }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ applied: Type.Boolean(), payment: row('Payment'), order: Type.Optional(OrderSummary) }),
    handler: applyPaymentUpdate,
  }),
  sync_payment_links: operation({
    description:
      'Asks the provider (<alias>.link_status) about payment links still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule payment_link_sync).',
    permission: 'orders.manage',
    ai_tool: false,
    input: PollBatch,
    output: SyncOutcome,
    http: { method: 'POST', path: '/orders/payment-links/sync' },
    handler: syncPaymentLinks,
  }),
  record_payment: operation({
    description:
      'Records a payment (cod with collected_by, bank_transfer, or an online gateway) and reconciles total_paid, balance_due and payment_status in the same transaction; publishes order.payment_updated.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        method: Type.String({ minLength: 2, maxLength: 50 }),
        amount: Money,
        status: Type.Optional(Type.StringEnum(['pending', 'completed', 'failed'], { default: 'completed' })),
        external_payment_id: Type.Optional(Type.String({ maxLength: 255 })),
        provider_module: Type.Optional(Type.String({ maxLength: 100 })),
        metadata: Type.Optional(AnyObject),
        collected_by: Type.Optional(Type.String({ maxLength: 255 })),
        paid_at: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    output: row('Payment', undefined, { order: OrderSummary }),
    node: orderNode('record-payment', 'Record payment', 'Records a payment on an order.'),
    http: { method: 'POST', path: '/orders/:id/payments' },
    handler: recordPayment,
  }),
  list_payments: operation({
    description: 'Payments of an order.',
    permission: 'orders.view',
    input: OrderRefInput,
    output: Type.Object({ order: OrderSummary, payments: Type.Array(row('Payment')) }),
    http: { method: 'GET', path: '/orders/:id/payments' },
    handler: listPayments,
  }),
  create_payment_link: operation({
    description:
      "Asks a payment provider (payment.createLink: the provider_module named, else the setting default_payment_provider, else the tenant's chosen payment provider) for a link for the balance due; records a pending payment with the link.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        provider_module: Type.Optional(Type.String({ minLength: 2, maxLength: 100 })),
        expires_in_minutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 259200 })),
      },
      { additionalProperties: false },
    ),
    output: row('Payment'),
    node: orderNode('payment-link', 'Send payment link', 'Creates a payment link for the balance due.'),
    http: { method: 'POST', path: '/orders/:id/payments/link' },
    handler: createPaymentLink,
  }),
  confirm_payment: operation({
    description: 'Marks a pending (link) payment completed or failed, e.g. from a gateway callback; reconciles the order.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        payment_id: Uuid,
        status: Type.StringEnum(['completed', 'failed']),
        external_payment_id: Type.Optional(Type.String({ maxLength: 255 })),
        metadata: Type.Optional(AnyObject),
      },
      { additionalProperties: false },
    ),
    output: row('Payment', undefined, { order: OrderSummary }),
    http: { method: 'POST', path: '/orders/:id/payments/:payment_id/confirm' },
    handler: confirmPayment,
  }),
  refund: operation({
    description:
      "Refunds part or all of a completed payment; forwarded to the provider module when the payment was external. A refund the gateway answers pending stays pending (its amount reserved, not yet in total_refunded) until the gateway's webhook or the refund_sync poll settles it; order.refund_processed is published once, when it completes.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        payment_id: Uuid,
        amount: Money,
        reason: Type.String({ minLength: 1, maxLength: 500 }),
        issue_credit_note: Type.Optional(Type.Boolean({ default: false })),
      },
      { additionalProperties: false },
    ),
    output: row('Refund', undefined, { order: OrderSummary, credit_note: Type.Optional(row('Invoice')) }),
    http: { method: 'POST', path: '/orders/:id/refund' },
    handler: refund,
  }),
  list_refunds: operation({
    description: 'Refunds of an order.',
    permission: 'orders.view',
    input: OrderRefInput,
    output: Type.Object({ refunds: Type.Array(row('Refund')) }),
    http: { method: 'GET', path: '/orders/:id/refunds' },
    handler: listRefunds,
  }),
};
