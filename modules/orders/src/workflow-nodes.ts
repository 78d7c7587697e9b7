/**
 * The orders nodes of the workflow editor (workflow.nodes): three triggers on order events, and
 * actions that call an operation. An action's config is its operation's input, except that the
 * order id may come from the node's input instead.
 */
import type { JsonSchema, WorkflowNode } from '../../../sdk';

const LOOK = { icon: 'shopping-cart', color: '#2563eb' };
const OUTPUT = [{ name: 'output', type: 'object' }];

function trigger(slug: string, name: string, description: string, event: string): WorkflowNode {
  return { type: `orders:${slug}`, name, category: 'trigger', description, event, ...LOOK, outputs: OUTPUT };
}

function action(slug: string, name: string, category: 'action' | 'transformer', description: string, operation: string, input: JsonSchema): WorkflowNode {
  const required = ((input.required as string[] | undefined) ?? []).filter((key) => key !== 'id');
  const configSchema = { type: 'object', properties: { ...(input.properties as object) }, ...(required.length > 0 ? { required } : {}) };
  return {
    type: `orders:${slug}`, name, category, description, operation, ...LOOK,
    inputs: [{ name: 'input', type: 'object', required: false }], outputs: OUTPUT, configSchema,
  };
}

/** Operation method → its input schema, for the actions' config. */
type Inputs = Record<'get' | 'update_status' | 'record_payment' | 'create_payment_link' | 'create_invoice' | 'ship' | 'calculate_tax', { input: JsonSchema }>;

export const workflowNodes = (ops: Inputs): WorkflowNode[] => [
  trigger('order-created', 'Order created', 'Starts when an order is created.', 'order.created'),
  trigger('status-changed', 'Order status changed', 'Starts on any order status transition.', 'order.status_changed'),
  trigger('delivered', 'Order delivered', 'Starts when an order is delivered.', 'order.delivered'),
  action('get-order', 'Get order', 'action', 'Loads an order by id or number.', 'orders.get', ops.get.input),
  action('update-status', 'Update order status', 'action', 'Moves an order to a new status.', 'orders.update_status', ops.update_status.input),
  action('record-payment', 'Record payment', 'action', 'Records a payment on an order.', 'orders.record_payment', ops.record_payment.input),
  action('payment-link', 'Send payment link', 'action', 'Creates a payment link for the balance due.', 'orders.create_payment_link', ops.create_payment_link.input),
  action('create-invoice', 'Create invoice', 'action', 'Issues an invoice, credit note or proforma.', 'orders.create_invoice', ops.create_invoice.input),
  action('ship-order', 'Ship order', 'action', 'Creates a shipment for an order.', 'orders.ship', ops.ship.input),
  action('calculate-gst', 'Calculate GST', 'transformer', 'GST on an amount.', 'orders.calculate_tax', ops.calculate_tax.input),
];
