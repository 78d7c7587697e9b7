/**
 * The orders nodes of the workflow editor (workflow.nodes): three triggers on order events here, and
 * actions declared on the operations they run (`node: orderNode(...)`), whose config is the
 * operation's input, except that the order id may come from the node's input instead.
 */
import type { OperationNode, WorkflowNode } from '../../../sdk';

const LOOK = { icon: 'shopping-cart', color: '#2563eb' };
const OUTPUT = [{ name: 'output', type: 'object' }];

function trigger(slug: string, name: string, description: string, event: string): WorkflowNode {
  return { type: `orders:${slug}`, name, category: 'trigger', description, event, ...LOOK, outputs: OUTPUT };
}

/** An action node on the operation it is declared on. */
export function orderNode(slug: string, name: string, description: string, category: 'action' | 'transformer' = 'action'): OperationNode {
  return { slug, name, category, description, ...LOOK, inputs: [{ name: 'input', type: 'object', required: false }], outputs: OUTPUT, from_input: ['id'] };
}

export const workflowTriggers: WorkflowNode[] = [
  trigger('order-created', 'Order created', 'Starts when an order is created.', 'order.created'),
  trigger('status-changed', 'Order status changed', 'Starts on any order status transition.', 'order.status_changed'),
  trigger('delivered', 'Order delivered', 'Starts when an order is delivered.', 'order.delivered'),
];
