/**
 * orders: the first first-party commerce module (spec 3, orders part). Everything runs in the
 * sandbox: data through host.db (schema "orders"), providers and carriers through host.call, events
 * through host.emit. Events carry spec 3's names: the manifest claims the "order" event namespace
 * (events.namespace), so order.created, order.status_changed {order_id, order_number, old_status,
 * new_status}, … are published as the spec lists them.
 */
import { defineModule, type HandlerContext } from '../../../sdk';
import { data } from './models';
import { analyticsOperations } from './operations/analytics';
import { bulkOperations } from './operations/bulk';
import { configOperations } from './operations/config';
import { customFieldOperations } from './operations/custom-fields';
import { invoiceOperations } from './operations/invoices';
import { notificationOperations } from './operations/notifications';
import { orderOperations } from './operations/orders';
import { paymentOperations } from './operations/payments';
import { shippingOperations } from './operations/shipping';
import { webhookOperations } from './operations/webhooks';
import { applyRules } from './notification-dispatch';
import { fanOut, ORDER_EVENTS, PUBLISHED_EVENTS, WEBHOOK_EVENTS } from './webhooks';
import { workflowTriggers } from './workflow-nodes';

/**
 * Routes match in declaration order (first match wins), so the areas whose routes are literal paths
 * under /orders (/orders/bulk/status, /orders/stats, /orders/ndr-cases, …) come before the ones
 * under /orders/:id.
 */
const operations = {
  ...bulkOperations,
  ...customFieldOperations,
  ...shippingOperations,
  ...analyticsOperations,
  ...webhookOperations,
  ...notificationOperations,
  ...orderOperations,
  ...paymentOperations,
  ...invoiceOperations,
  ...configOperations,
};

export default defineModule({
  name: 'orders',
  version: '1.2.0',
  description:
    'Orders: lifecycle, payments and refunds with reconciliation, Indian GST, gap-free invoice numbering with credit notes and PDFs, shipments with partial fulfilment, carrier tracking and NDR (spec 3).',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  operations,
  consumes: ['payment.*', 'shipping.*', 'sms_msg91.*', 'whatsapp_cloud.*', 'documents.render_pdf'],
  events: {
    namespace: 'order',
    publishes: PUBLISHED_EVENTS,
    // The module subscribes to its own events: notification rules, then outbound webhooks. Rules go
    // first because they are idempotent per event id: a redelivery after a webhook failure resends none.
    // An import's summary concerns no one order, so it goes to webhooks only; so do the reseller
    // events, which the outbound endpoints carry too (spec 3, Events).
    subscribes: Object.fromEntries(
      WEBHOOK_EVENTS.map((event) => [event, async (payload: unknown, ctx: HandlerContext) => {
        if (ORDER_EVENTS.includes(event)) await applyRules(event, payload, ctx);
        await fanOut(event, payload, ctx);
      }]),
    ),
  },
  schedules: [
    { name: 'analytics_refresh', operation: 'orders.refresh_analytics', every_ms: 900_000 },
    { name: 'webhook_retries', operation: 'orders.deliver_webhooks', every_ms: 60_000 },
    { name: 'notification_retries', operation: 'orders.retry_notification_sends', every_ms: 60_000 },
    { name: 'tracking_sync', operation: 'orders.sync_tracking', every_ms: 1_800_000 },
    { name: 'refund_sync', operation: 'orders.sync_refunds', every_ms: 300_000 },
    { name: 'payment_link_sync', operation: 'orders.sync_payment_links', every_ms: 300_000 },
  ],
  permissions: [
    { name: 'orders.view', description: 'See orders, their payments, refunds, invoices, shipments and tax settings.' },
    { name: 'orders.create', description: 'Create orders.' },
    { name: 'orders.manage', description: 'Change orders: status, payments, refunds, invoices, shipping, tax configurations and settings.' },
    { name: 'orders.delete', description: 'Delete orders that have no payments, invoices or shipments.' },
  ],
  graphql: { schema: 'graphql/schema.graphql', resolvers: 'graphql/resolvers.json' },
  mobile: {
    screens: [
      { id: 'orders.list', title: 'Orders', icon: 'shopping-cart', layout: 'scroll', route: '/orders', version: 1 },
      { id: 'orders.detail', title: 'Order', icon: 'receipt', layout: 'scroll', route: '/orders/:id', version: 1 },
    ],
    screenProviders: { 'orders.list': { file: 'screens/orders.list.json' }, 'orders.detail': { file: 'screens/orders.detail.json' } },
  },
  workflow: { nodes: workflowTriggers },
  data,
  limits: { memory_mb: 128, timeout_ms: 15_000 },
});
