/** orders operations: invoices, credit notes and proformas. */
import { operation, Type } from '../../../../sdk';
import { row } from '../outputs';
import { Money, OrderRef, Uuid } from '../schemas';
import { createInvoice, issueCreditNote, listInvoices } from '../invoices';
import { orderNode } from '../workflow-nodes';

export const invoiceOperations = {
  create_invoice: operation({
    description:
      'Issues an invoice, credit note or proforma: items loaded, GST calculated, next gap-free number <PREFIX>-<YYYYMM>-<NNNN>, due 30 days out, PDF rendered.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        type: Type.Optional(Type.StringEnum(['invoice', 'credit_note', 'proforma'], { default: 'invoice' })),
        amount: Type.Optional(Money),
        reason: Type.Optional(Type.String({ maxLength: 500 })),
        refund_id: Type.Optional(Uuid),
        billing_name: Type.Optional(Type.String({ maxLength: 255 })),
        billing_gstin: Type.Optional(Type.String({ maxLength: 20, description: "the buyer's GSTIN (checked); default the order's" })),
        pdf: Type.Optional(Type.Boolean({ default: true })),
      },
      { additionalProperties: false },
    ),
    output: row('Invoice'),
    node: orderNode('create-invoice', 'Create invoice', 'Issues an invoice, credit note or proforma.'),
    http: { method: 'POST', path: '/orders/:id/invoices' },
    handler: createInvoice,
  }),
  create_credit_note: operation({
    description:
      'Credit note for a partial or full refund, with an amount and a reason (internal; also POST /orders/{id}/invoices with type credit_note).',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      { id: OrderRef, amount: Money, reason: Type.String({ minLength: 1, maxLength: 500 }), refund_id: Type.Optional(Uuid) },
      { additionalProperties: false },
    ),
    output: row('Invoice'),
    handler: issueCreditNote,
  }),
  list_invoices: operation({
    description: 'Invoices, credit notes and proformas of an order.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object({ id: OrderRef }, { additionalProperties: false }),
    output: Type.Object({ invoices: Type.Array(row('Invoice')) }),
    http: { method: 'GET', path: '/orders/:id/invoices' },
    handler: listInvoices,
  }),
};
