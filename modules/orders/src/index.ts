/**
 * orders: the first first-party commerce module (spec 3, orders part). Everything runs in the
 * sandbox: data through host.db (schema "orders"), providers and carriers through host.call, events
 * through host.emit. Events carry spec 3's names: the manifest claims the "order" event namespace
 * (events.namespace), so order.created, order.status_changed {order_id, order_number, old_status,
 * new_status}, … are published as the spec lists them.
 */
import { defineModule } from '../../../sdk';
import { getBusinessProfile, updateBusinessProfile } from './business-profile';
import { calculateTax, createTaxConfig, deleteTaxConfig, getSettings, getTaxConfig, listTaxConfigs, updateSettings, updateTaxConfig } from './config';
import { createInvoice, issueCreditNote, listInvoices } from './invoices';
import { cancelOrder, createOrder, deleteOrder, getOrder, history, listOrders, updateStatus } from './orders';
import { applyPaymentUpdate, confirmPayment, createPaymentLink, listPayments, recordPayment, syncPaymentLinks } from './payments';
import { applyRefundUpdate, listRefunds, refund, syncRefunds } from './refunds';
import { codVsPrepaid, dashboard, fulfillment, products, refreshAnalytics, revenue, sources } from './analytics';
import { createWebhook, deleteWebhook, deliverDue, fanOut, getWebhook, listDeliveries, listWebhooks, ORDER_EVENTS, updateWebhook, WEBHOOK_EVENTS } from './webhooks';
import type { HandlerContext } from '../../../sdk';
import { bulkCancel, bulkStatus } from './bulk-actions';
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField } from './custom-fields';
import { updateOrderCustomFields } from './custom-field-values';
import { createRule, deleteRule, getRule, listRules, listSends, updateRule } from './notification-rules';
import { applyRules, testRule } from './notification-dispatch';
import { retryDueSends } from './notification-retry';
import { applyTrackingUpdate, bulkShip, listNdrCases, listShipments, resolveNdrCase, ship, shippingRates, syncTracking } from './shipping';
import { cancelImport, getImport, importChunk, startImport } from './bulk-import';
import { exportPage } from './bulk-export';
import { getStats } from './stats';

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
    apply_payment_update: applyPaymentUpdate,
    sync_payment_links: syncPaymentLinks,
    refund,
    list_refunds: listRefunds,
    apply_refund_update: applyRefundUpdate,
    sync_refunds: syncRefunds,
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
    get_business_profile: getBusinessProfile,
    update_business_profile: updateBusinessProfile,
    analytics_dashboard: dashboard,
    analytics_revenue: revenue,
    analytics_fulfillment: fulfillment,
    analytics_sources: sources,
    analytics_products: products,
    analytics_cod_vs_prepaid: codVsPrepaid,
    getStats,
    refresh_analytics: refreshAnalytics,
    create_webhook: createWebhook,
    list_webhooks: listWebhooks,
    get_webhook: getWebhook,
    update_webhook: updateWebhook,
    delete_webhook: deleteWebhook,
    list_webhook_deliveries: listDeliveries,
    deliver_webhooks: deliverDue,
    start_import: startImport,
    get_import: getImport,
    cancel_import: cancelImport,
    import_chunk: importChunk,
    export_page: exportPage,
    bulk_status: bulkStatus,
    bulk_cancel: bulkCancel,
    create_custom_field: createCustomField,
    list_custom_fields: listCustomFields,
    get_custom_field: getCustomField,
    update_custom_field: updateCustomField,
    delete_custom_field: deleteCustomField,
    update_custom_fields: updateOrderCustomFields,
    create_notification_rule: createRule,
    list_notification_rules: listRules,
    get_notification_rule: getRule,
    update_notification_rule: updateRule,
    delete_notification_rule: deleteRule,
    test_notification_rule: testRule,
    list_notification_sends: listSends,
    retry_notification_sends: retryDueSends,
  },
  // The module subscribes to its own events: notification rules, then outbound webhooks. Rules go
  // first because they are idempotent per event id: a redelivery after a webhook failure resends none.
  // An import's summary concerns no one order, so it goes to webhooks only.
  events: Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [event, async (payload: unknown, ctx: HandlerContext) => {
      if (ORDER_EVENTS.includes(event)) await applyRules(event, payload, ctx);
      await fanOut(event, payload, ctx);
    }]),
  ),
});
