/**
 * orders: the first first-party commerce module (spec 3, orders part). Everything runs in the
 * sandbox: data through host.db (schema "orders"), providers and carriers through host.call, events
 * through host.emit. Spec 3 names its events "order.*"; a module publishes only events carrying its
 * own alias, so they are published as "orders.<event>" with the same suffixes and payloads
 * (orders.created, orders.status_changed {order_id, order_number, old_status, new_status}, …).
 */
import { defineModule } from '../../../sdk';
import { calculateTax, createTaxConfig, deleteTaxConfig, getSettings, getTaxConfig, listTaxConfigs, updateSettings, updateTaxConfig } from './config';
import { createInvoice, issueCreditNote, listInvoices } from './invoices';
import { cancelOrder, createOrder, deleteOrder, getOrder, history, listOrders, updateStatus } from './orders';
import { confirmPayment, createPaymentLink, listPayments, listRefunds, recordPayment, refund } from './payments';
import { codVsPrepaid, dashboard, fulfillment, products, refreshAnalytics, revenue, sources } from './analytics';
import { createWebhook, deleteWebhook, deliverDue, fanOut, getWebhook, listDeliveries, listWebhooks, updateWebhook } from './webhooks';
import type { HandlerContext } from '../../../sdk';
import { applyTrackingUpdate, bulkShip, listNdrCases, listShipments, resolveNdrCase, ship, shippingRates, syncTracking } from './shipping';

const ORDER_EVENTS = ['orders.created', 'orders.status_changed', 'orders.payment_updated', 'orders.refund_processed', 'orders.shipment_created', 'orders.fulfilled', 'orders.delivered'];

export default defineModule({
  operations: {
    create: createOrder,
    list: listOrders,
    get: getOrder,
    update_status: updateStatus,
    cancel: cancelOrder,
    delete: deleteOrder,
    history,
    record_payment: recordPayment,
    list_payments: listPayments,
    create_payment_link: createPaymentLink,
    confirm_payment: confirmPayment,
    refund,
    list_refunds: listRefunds,
    create_invoice: createInvoice,
    create_credit_note: issueCreditNote,
    list_invoices: listInvoices,
    ship,
    bulk_ship: bulkShip,
    list_shipments: listShipments,
    shipping_rates: shippingRates,
    apply_tracking_update: applyTrackingUpdate,
    sync_tracking: syncTracking,
    list_ndr_cases: listNdrCases,
    resolve_ndr_case: resolveNdrCase,
    calculate_tax: calculateTax,
    list_tax_configs: listTaxConfigs,
    create_tax_config: createTaxConfig,
    get_tax_config: getTaxConfig,
    update_tax_config: updateTaxConfig,
    delete_tax_config: deleteTaxConfig,
    get_settings: getSettings,
    update_settings: updateSettings,
    analytics_dashboard: dashboard,
    analytics_revenue: revenue,
    analytics_fulfillment: fulfillment,
    analytics_sources: sources,
    analytics_products: products,
    analytics_cod_vs_prepaid: codVsPrepaid,
    refresh_analytics: refreshAnalytics,
    create_webhook: createWebhook,
    list_webhooks: listWebhooks,
    get_webhook: getWebhook,
    update_webhook: updateWebhook,
    delete_webhook: deleteWebhook,
    list_webhook_deliveries: listDeliveries,
    deliver_webhooks: deliverDue,
  },
  // Outbound webhooks: the module subscribes to its own events and fans each out to the endpoints.
  events: Object.fromEntries(
    ORDER_EVENTS.map((event) => [event, (payload: unknown, ctx: HandlerContext) => fanOut(event, payload, ctx)]),
  ),
});
