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
import { applyTrackingUpdate, bulkShip, listNdrCases, listShipments, resolveNdrCase, ship, shippingRates, syncTracking } from './shipping';

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
  },
});
