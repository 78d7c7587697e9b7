/* eslint-disable */
/**
 * GENERATED from the manifest of orders@1.2.0 (range ^1.0.0). Do not edit by hand;
 * refresh with:
 *   mandi module types orders@^1.0.0 --from modules/orders --out modules/loyalty/src/generated/orders.ts
 */

/**
 * Every operation of orders@1.2.0: its input and its output.
 */
export interface OrdersOperations {
  /**
   * Moves many orders to one status; each order in its own transaction under the single-order transition rules, order.status_changed once per changed order; per-order results.
   */
  'orders.bulk_status': {
    input: OrdersBulkStatusInput;
    output: OrdersBulkStatusOutput;
  };
  /**
   * Cancels many orders with one reason; each on its own, per-order results.
   */
  'orders.bulk_cancel': {
    input: OrdersBulkCancelInput;
    output: OrdersBulkCancelOutput;
  };
  /**
   * Queues a CSV import (multipart: file, source): 202 {import_id, status}. Chunks of 500 rows, idempotent upsert by order_number, progress pushed as .orders.import.progress.
   */
  'orders.start_import': {
    input: OrdersStartImportInput;
    output: OrdersStartImportOutput;
  };
  /**
   * Status of an import: counts, errors with line numbers (first 100, with error_count), timestamps.
   */
  'orders.get_import': {
    input: OrdersGetImportInput;
    output: OrdersGetImportOutput;
  };
  /**
   * Asks a queued or running import to stop before its next chunk.
   */
  'orders.cancel_import': {
    input: OrdersCancelImportInput;
    output: OrdersCancelImportOutput;
  };
  /**
   * Called by the host's CSV job (files.process_csv): one chunk of rows, or the end of the import. Not routed.
   */
  'orders.import_chunk': {
    input: OrdersImportChunkInput;
    output: OrdersImportChunkOutput;
  };
  /**
   * One page of the CSV export (POST /orders/bulk/export, streamed by the host): filters {status, payment_status, source, date_from, date_to}, columns; keyset cursor on order_number.
   */
  'orders.export_page': {
    input: OrdersExportPageInput;
    output: OrdersExportPageOutput;
  };
  /**
   * Defines an order custom field {field_key, field_label, field_type, options, is_required, is_filterable, sort_order}.
   */
  'orders.create_custom_field': {
    input: OrdersCreateCustomFieldInput;
    output: OrdersCreateCustomFieldOutput;
  };
  /**
   * Custom field definitions by sort_order.
   */
  'orders.list_custom_fields': {
    input: OrdersListCustomFieldsInput;
    output: OrdersListCustomFieldsOutput;
  };
  /**
   * One custom field definition.
   */
  'orders.get_custom_field': {
    input: OrdersGetCustomFieldInput;
    output: OrdersGetCustomFieldOutput;
  };
  /**
   * Changes a custom field's label, options, flags or sort order (field_key and field_type are fixed).
   */
  'orders.update_custom_field': {
    input: OrdersUpdateCustomFieldInput;
    output: OrdersUpdateCustomFieldOutput;
  };
  /**
   * Deletes a custom field definition; values already on orders stay.
   */
  'orders.delete_custom_field': {
    input: OrdersDeleteCustomFieldInput;
    output: OrdersDeleteCustomFieldOutput;
  };
  /**
   * Sets custom field values of an order (merged; null removes one), validated against the definitions.
   */
  'orders.update_custom_fields': {
    input: OrdersUpdateCustomFieldsInput;
    output: OrdersUpdateCustomFieldsOutput;
  };
  /**
   * Creates shipments for many orders (spec 3, POST /orders/bulk/ship); each entry succeeds or fails on its own.
   */
  'orders.bulk_ship': {
    input: OrdersBulkShipInput;
    output: OrdersBulkShipOutput;
  };
  /**
   * NDR cases, newest first; open ones only with open=true.
   */
  'orders.list_ndr_cases': {
    input: OrdersListNdrCasesInput;
    output: OrdersListNdrCasesOutput;
  };
  /**
   * Decides an open NDR case: reattempt delivery or return to origin (RTO).
   */
  'orders.resolve_ndr_case': {
    input: OrdersResolveNdrCaseInput;
    output: OrdersResolveNdrCaseOutput;
  };
  /**
   * Applies one carrier tracking update to the shipment with that AWB: records the event, moves shipment and order, opens NDR cases. Used by the tracking sync and the carrier webhook.
   */
  'orders.apply_tracking_update': {
    input: OrdersApplyTrackingUpdateInput;
    output: OrdersApplyTrackingUpdateOutput;
  };
  /**
   * Polls the carrier modules for every shipment in transit and applies their updates (the 30-minute tracking sync).
   */
  'orders.sync_tracking': {
    input: OrdersSyncTrackingInput;
    output: OrdersSyncTrackingOutput;
  };
  /**
   * Creates a shipment (optionally partial, by order_item_ids), moves the order to shipped; publishes order.shipment_created and order.fulfilled. May be repeated for several packages. With book=true the carrier module books it (createShipment) and returns the AWB.
   */
  'orders.ship': {
    input: OrdersShipInput;
    output: OrdersShipOutput;
  };
  /**
   * Records a shipment another module booked (carrier and tracking number as it names them) for every item of the order, which moves to shipped; once per order and recording module.
   */
  'orders.record_shipment': {
    input: OrdersRecordShipmentInput;
    output: OrdersRecordShipmentOutput;
  };
  /**
   * Reports the delivery of the shipment the calling module recorded: the shipment and the order become delivered; once.
   */
  'orders.mark_delivered': {
    input: OrdersMarkDeliveredInput;
    output: OrdersMarkDeliveredOutput;
  };
  /**
   * All shipments of an order with their tracking events and NDR cases.
   */
  'orders.list_shipments': {
    input: OrdersListShipmentsInput;
    output: OrdersListShipmentsOutput;
  };
  /**
   * Asks a carrier (shipping.getRates: the one named, else the tenant's chosen shipping provider) for rates for this order.
   */
  'orders.shipping_rates': {
    input: OrdersShippingRatesInput;
    output: OrdersShippingRatesOutput;
  };
  /**
   * Total orders, revenue, average order value, unique customers, breakdowns by status and payment status.
   */
  'orders.analytics_dashboard': {
    input: OrdersAnalyticsDashboardInput;
    output: OrdersAnalyticsDashboardOutput;
  };
  /**
   * Daily order counts and revenue.
   */
  'orders.analytics_revenue': {
    input: OrdersAnalyticsRevenueInput;
    output: OrdersAnalyticsRevenueOutput;
  };
  /**
   * Delivery, cancellation and RTO rates.
   */
  'orders.analytics_fulfillment': {
    input: OrdersAnalyticsFulfillmentInput;
    output: OrdersAnalyticsFulfillmentOutput;
  };
  /**
   * Orders and revenue by source module.
   */
  'orders.analytics_sources': {
    input: OrdersAnalyticsSourcesInput;
    output: OrdersAnalyticsSourcesOutput;
  };
  /**
   * Top products by quantity (or revenue with sort=revenue).
   */
  'orders.analytics_products': {
    input: OrdersAnalyticsProductsInput;
    output: OrdersAnalyticsProductsOutput;
  };
  /**
   * COD versus prepaid count and revenue.
   */
  'orders.analytics_cod_vs_prepaid': {
    input: OrdersAnalyticsCodVsPrepaidInput;
    output: OrdersAnalyticsCodVsPrepaidOutput;
  };
  /**
   * Order statistics of a date range in one answer: total orders, revenue, average order value, unique customers, counts by status and payment status, delivery/cancellation/RTO rates, COD versus prepaid.
   */
  'orders.getStats': {
    input: OrdersGetStatsInput;
    output: OrdersGetStatsOutput;
  };
  /**
   * Refreshes the analytics materialized views concurrently (also run every 15 minutes by the schedule analytics_refresh).
   */
  'orders.refresh_analytics': {
    input: OrdersRefreshAnalyticsInput;
    output: OrdersRefreshAnalyticsOutput;
  };
  /**
   * Registers an outbound webhook endpoint {url, secret, events[], is_active}.
   */
  'orders.create_webhook': {
    input: OrdersCreateWebhookInput;
    output: OrdersCreateWebhookOutput;
  };
  /**
   * Outbound webhook endpoints (secrets shown as a hint only).
   */
  'orders.list_webhooks': {
    input: OrdersListWebhooksInput;
    output: OrdersListWebhooksOutput;
  };
  /**
   * One webhook endpoint.
   */
  'orders.get_webhook': {
    input: OrdersGetWebhookInput;
    output: OrdersGetWebhookOutput;
  };
  /**
   * Changes a webhook endpoint; is_active=true re-enables one that was auto-disabled.
   */
  'orders.update_webhook': {
    input: OrdersUpdateWebhookInput;
    output: OrdersUpdateWebhookOutput;
  };
  /**
   * Deletes a webhook endpoint; its queued retries are cancelled.
   */
  'orders.delete_webhook': {
    input: OrdersDeleteWebhookInput;
    output: OrdersDeleteWebhookOutput;
  };
  /**
   * Delivery log of an endpoint, newest first: status, attempts, last response status and duration, every attempt.
   */
  'orders.list_webhook_deliveries': {
    input: OrdersListWebhookDeliveriesInput;
    output: OrdersListWebhookDeliveriesOutput;
  };
  /**
   * Attempts every webhook delivery whose retry is due (run every minute by the schedule webhook_retries).
   */
  'orders.deliver_webhooks': {
    input: OrdersDeliverWebhooksInput;
    output: OrdersDeliverWebhooksOutput;
  };
  /**
   * Creates a notification rule {name, event, channel, recipient_type, template, conditions, is_active}; unknown placeholders and channels whose provider module is not installed are refused.
   */
  'orders.create_notification_rule': {
    input: OrdersCreateNotificationRuleInput;
    output: OrdersCreateNotificationRuleOutput;
  };
  /**
   * Notification rules, oldest first; filters event, channel, is_active.
   */
  'orders.list_notification_rules': {
    input: OrdersListNotificationRulesInput;
    output: OrdersListNotificationRulesOutput;
  };
  /**
   * One notification rule.
   */
  'orders.get_notification_rule': {
    input: OrdersGetNotificationRuleInput;
    output: OrdersGetNotificationRuleOutput;
  };
  /**
   * Changes a notification rule (fields given are replaced; the whole rule is checked again).
   */
  'orders.update_notification_rule': {
    input: OrdersUpdateNotificationRuleInput;
    output: OrdersUpdateNotificationRuleOutput;
  };
  /**
   * Deletes a notification rule; its send log stays.
   */
  'orders.delete_notification_rule': {
    input: OrdersDeleteNotificationRuleInput;
    output: OrdersDeleteNotificationRuleOutput;
  };
  /**
   * Renders the rule for an order (order_id) or sample values and sends it to `to`/`user_id` or the rule's recipient; dry_run only renders. Answers what was sent.
   */
  'orders.test_notification_rule': {
    input: OrdersTestNotificationRuleInput;
    output: OrdersTestNotificationRuleOutput;
  };
  /**
   * Send log of a rule, newest first: event, order, channel, recipient, status (sending, retrying, sent, failed, skipped), attempts, next_attempt_at, error (the last attempt's), provider message id.
   */
  'orders.list_notification_sends': {
    input: OrdersListNotificationSendsInput;
    output: OrdersListNotificationSendsOutput;
  };
  /**
   * Sends again every notification whose retry is due (transient failures: 1, 5, 15 minutes; run every minute by the schedule notification_retries).
   */
  'orders.retry_notification_sends': {
    input: OrdersRetryNotificationSendsInput;
    output: OrdersRetryNotificationSendsOutput;
  };
  /**
   * Creates an order: items priced, GST computed per line, totals, order.created published.
   */
  'orders.create': {
    input: OrdersCreateInput;
    output: OrdersCreateOutput;
  };
  /**
   * Lists orders: filters (status, payment_status, is_cod, customer, dates, custom fields), search over order number, customer id and customer name, sort, pagination.
   */
  'orders.list': {
    input: OrdersListInput;
    output: OrdersListOutput;
  };
  /**
   * One order by id or order_number, with items, totals and can_ship.
   */
  'orders.get': {
    input: OrdersGetInput;
    output: OrdersGetOutput;
  };
  /**
   * Moves an order along its lifecycle (confirmed → processing → ready_to_ship, cancelled, and the tracking states); shipped only through ship.
   */
  'orders.update_status': {
    input: OrdersUpdateStatusInput;
    output: OrdersUpdateStatusOutput;
  };
  /**
   * Cancels an order that has not shipped.
   */
  'orders.cancel': {
    input: OrdersCancelInput;
    output: OrdersCancelOutput;
  };
  /**
   * Deletes an order that has no payments, invoices or shipments.
   */
  'orders.delete': {
    input: OrdersDeleteInput;
    output: OrdersDeleteOutput;
  };
  /**
   * Status history of an order.
   */
  'orders.history': {
    input: OrdersHistoryInput;
    output: OrdersHistoryOutput;
  };
  /**
   * A payment provider module reports a pending refund's outcome (from its gateway's webhook): completes it (reconciled, order.refund_processed) or fails it (amount released), once.
   */
  'orders.apply_refund_update': {
    input: OrdersApplyRefundUpdateInput;
    output: OrdersApplyRefundUpdateOutput;
  };
  /**
   * Asks the provider (<alias>.refund_status) about refunds still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule refund_sync).
   */
  'orders.sync_refunds': {
    input: OrdersSyncRefundsInput;
    output: OrdersSyncRefundsOutput;
  };
  /**
   * A payment provider module reports what became of a payment link (its gateway's webhook or the payment_link_sync poll): paid completes the pending payment with the gateway's payment id and amount (reconciled, order.payment_updated); expired or cancelled fails it. Applied once.
   */
  'orders.apply_payment_update': {
    input: OrdersApplyPaymentUpdateInput;
    output: OrdersApplyPaymentUpdateOutput;
  };
  /**
   * Asks the provider (<alias>.link_status) about payment links still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule payment_link_sync).
   */
  'orders.sync_payment_links': {
    input: OrdersSyncPaymentLinksInput;
    output: OrdersSyncPaymentLinksOutput;
  };
  /**
   * Records a payment (cod with collected_by, bank_transfer, or an online gateway) and reconciles total_paid, balance_due and payment_status in the same transaction; publishes order.payment_updated.
   */
  'orders.record_payment': {
    input: OrdersRecordPaymentInput;
    output: OrdersRecordPaymentOutput;
  };
  /**
   * Payments of an order.
   */
  'orders.list_payments': {
    input: OrdersListPaymentsInput;
    output: OrdersListPaymentsOutput;
  };
  /**
   * Asks a payment provider (payment.createLink: the provider_module named, else the setting default_payment_provider, else the tenant's chosen payment provider) for a link for the balance due; records a pending payment with the link.
   */
  'orders.create_payment_link': {
    input: OrdersCreatePaymentLinkInput;
    output: OrdersCreatePaymentLinkOutput;
  };
  /**
   * Marks a pending (link) payment completed or failed, e.g. from a gateway callback; reconciles the order.
   */
  'orders.confirm_payment': {
    input: OrdersConfirmPaymentInput;
    output: OrdersConfirmPaymentOutput;
  };
  /**
   * Refunds part or all of a completed payment; forwarded to the provider module when the payment was external. A refund the gateway answers pending stays pending (its amount reserved, not yet in total_refunded) until the gateway's webhook or the refund_sync poll settles it; order.refund_processed is published once, when it completes.
   */
  'orders.refund': {
    input: OrdersRefundInput;
    output: OrdersRefundOutput;
  };
  /**
   * Refunds of an order.
   */
  'orders.list_refunds': {
    input: OrdersListRefundsInput;
    output: OrdersListRefundsOutput;
  };
  /**
   * Issues an invoice, credit note or proforma: items loaded, GST calculated, next gap-free number <PREFIX>-<YYYYMM>-<NNNN>, due 30 days out, PDF rendered.
   */
  'orders.create_invoice': {
    input: OrdersCreateInvoiceInput;
    output: OrdersCreateInvoiceOutput;
  };
  /**
   * Credit note for a partial or full refund, with an amount and a reason (internal; also POST /orders/{id}/invoices with type credit_note).
   */
  'orders.create_credit_note': {
    input: OrdersCreateCreditNoteInput;
    output: OrdersCreateCreditNoteOutput;
  };
  /**
   * Invoices, credit notes and proformas of an order.
   */
  'orders.list_invoices': {
    input: OrdersListInvoicesInput;
    output: OrdersListInvoicesOutput;
  };
  /**
   * GST on an amount (spec 3 tax calculation): rate by the four-step lookup; CGST+SGST halves intra-state, IGST inter-state.
   */
  'orders.calculate_tax': {
    input: OrdersCalculateTaxInput;
    output: OrdersCalculateTaxOutput;
  };
  /**
   * Tax configurations.
   */
  'orders.list_tax_configs': {
    input: OrdersListTaxConfigsInput;
    output: OrdersListTaxConfigsOutput;
  };
  /**
   * Creates a tax configuration; is_default replaces the type's previous default.
   */
  'orders.create_tax_config': {
    input: OrdersCreateTaxConfigInput;
    output: OrdersCreateTaxConfigOutput;
  };
  /**
   * One tax configuration.
   */
  'orders.get_tax_config': {
    input: OrdersGetTaxConfigInput;
    output: OrdersGetTaxConfigOutput;
  };
  /**
   * Updates a tax configuration.
   */
  'orders.update_tax_config': {
    input: OrdersUpdateTaxConfigInput;
    output: OrdersUpdateTaxConfigOutput;
  };
  /**
   * Deletes a tax configuration.
   */
  'orders.delete_tax_config': {
    input: OrdersDeleteTaxConfigInput;
    output: OrdersDeleteTaxConfigOutput;
  };
  /**
   * Orders settings of the tenant (seller state for GST, default payment provider, NDR rules).
   */
  'orders.get_settings': {
    input: OrdersGetSettingsInput;
    output: OrdersGetSettingsOutput;
  };
  /**
   * Changes orders settings.
   */
  'orders.update_settings': {
    input: OrdersUpdateSettingsInput;
    output: OrdersUpdateSettingsOutput;
  };
  /**
   * The tenant's business profile: the supplier's name, address and GSTIN printed on tax invoices and credit notes.
   */
  'orders.get_business_profile': {
    input: OrdersGetBusinessProfileInput;
    output: OrdersGetBusinessProfileOutput;
  };
  /**
   * Sets the business profile (fields given are merged; the whole profile is checked: legal name, address with state and PIN code, GSTIN format, check character and state). Its state becomes the seller state for GST.
   */
  'orders.update_business_profile': {
    input: OrdersUpdateBusinessProfileInput;
    output: OrdersUpdateBusinessProfileOutput;
  };
}
export interface OrdersBulkStatusInput {
  /**
   * order UUIDs or order numbers, at most 500
   *
   * @minItems 1
   * @maxItems 500
   *
   * Items: order UUID or order_number
   */
  order_ids: [string, ...string[]];
  reason?: string;
  status:
    | 'pending'
    | 'confirmed'
    | 'processing'
    | 'ready_to_ship'
    | 'shipped'
    | 'out_for_delivery'
    | 'delivered'
    | 'rto_initiated'
    | 'rto_received'
    | 'cancelled';
}
export interface OrdersBulkStatusOutput {
  failed: number;
  results: (
    | {
        changed: boolean;
        id: string;
        ok: true;
        old_status: string;
        /**
         * the reference as given
         */
        order_id: string;
        order_number: string;
        status: string;
      }
    | {
        error: {
          code: string;
          details?: {
            /**
             * This interface was referenced by `undefined`'s JSON-Schema definition
             * via the `patternProperty` "^(.*)$".
             */
            [k: string]: unknown;
          };
          message: string;
        };
        ok: false;
        /**
         * the reference as given
         */
        order_id: string;
      }
  )[];
  succeeded: number;
}
export interface OrdersBulkCancelInput {
  /**
   * order UUIDs or order numbers, at most 500
   *
   * @minItems 1
   * @maxItems 500
   *
   * Items: order UUID or order_number
   */
  order_ids: [string, ...string[]];
  reason: string;
}
export interface OrdersBulkCancelOutput {
  failed: number;
  results: (
    | {
        changed: boolean;
        id: string;
        ok: true;
        old_status: string;
        /**
         * the reference as given
         */
        order_id: string;
        order_number: string;
        status: string;
      }
    | {
        error: {
          code: string;
          details?: {
            /**
             * This interface was referenced by `undefined`'s JSON-Schema definition
             * via the `patternProperty` "^(.*)$".
             */
            [k: string]: unknown;
          };
          message: string;
        };
        ok: false;
        /**
         * the reference as given
         */
        order_id: string;
      }
  )[];
  succeeded: number;
}
export interface OrdersStartImportInput {
  source?: string;
  upload: {
    content_type: string;
    filename: string;
    id: string;
    size: number;
  };
}
export interface OrdersStartImportOutput {
  import_id: string;
  status: 'queued';
}
export interface OrdersGetImportInput {
  import_id: string;
}
export interface OrdersGetImportOutput {
  cancel_requested: boolean;
  created: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  error_count: number;
  errors: {
    field?: string;
    line: number;
    message: string;
  }[];
  errors_truncated: boolean;
  failed: number;
  failure_reason: string | null;
  file_size: number | null;
  filename: string | null;
  /**
   * ISO 8601 timestamp
   */
  finished_at: string | null;
  import_id: string;
  processed_rows: number;
  source: string;
  /**
   * ISO 8601 timestamp
   */
  started_at: string | null;
  status: 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
  total_rows: number;
  unchanged: number;
  updated: number;
}
export interface OrdersCancelImportInput {
  import_id: string;
}
export interface OrdersCancelImportOutput {
  cancel_requested: boolean;
  created: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  error_count: number;
  errors: {
    field?: string;
    line: number;
    message: string;
  }[];
  errors_truncated: boolean;
  failed: number;
  failure_reason: string | null;
  file_size: number | null;
  filename: string | null;
  /**
   * ISO 8601 timestamp
   */
  finished_at: string | null;
  import_id: string;
  processed_rows: number;
  source: string;
  /**
   * ISO 8601 timestamp
   */
  started_at: string | null;
  status: 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
  total_rows: number;
  unchanged: number;
  updated: number;
}
export interface OrdersImportChunkInput {
  chunk_index?: number;
  context: {
    import_id: string;
  };
  error?: string;
  header?: string[];
  job_id?: string;
  phase: 'chunk' | 'end';
  /**
   * @maxItems 1000
   */
  rows?: [unknown, unknown] | [unknown, unknown, unknown][];
  rows_read?: number;
  status?: 'completed' | 'cancelled' | 'failed';
  total_rows?: number | null;
}
export interface OrdersImportChunkOutput {
  cancelled?: boolean;
  progress: {
    cancel_requested: boolean;
    created: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    error_count: number;
    errors: {
      field?: string;
      line: number;
      message: string;
    }[];
    errors_truncated: boolean;
    failed: number;
    failure_reason: string | null;
    file_size: number | null;
    filename: string | null;
    /**
     * ISO 8601 timestamp
     */
    finished_at: string | null;
    import_id: string;
    processed_rows: number;
    source: string;
    /**
     * ISO 8601 timestamp
     */
    started_at: string | null;
    status: 'queued' | 'processing' | 'completed' | 'completed_with_errors' | 'failed' | 'cancelled';
    total_rows: number;
    unchanged: number;
    updated: number;
  };
}
export interface OrdersExportPageInput {
  /**
   * @maxItems 50
   */
  columns?: string[];
  cursor?: string | null;
  filters?: {
    date_from?: string;
    date_to?: string;
    payment_status?: string | string[];
    source?: string;
    status?: string | string[];
  };
}
export interface OrdersExportPageOutput {
  columns: string[];
  filename: string;
  next_cursor: string | null;
  rows: (string | number | boolean | null)[][];
}
export interface OrdersCreateCustomFieldInput {
  /**
   * snake_case key in the order's custom_fields
   */
  field_key: string;
  field_label: string;
  field_type: 'text' | 'number' | 'select' | 'boolean' | 'date';
  is_filterable?: boolean;
  is_required?: boolean;
  /**
   * choices of a select field
   *
   * @maxItems 200
   */
  options?: string[];
  sort_order?: number;
}
export interface OrdersCreateCustomFieldOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  field_key: string;
  field_label: string;
  field_type: string;
  id: string;
  is_filterable: boolean;
  is_required: boolean;
  options: unknown;
  sort_order: number;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersListCustomFieldsInput {}
export interface OrdersListCustomFieldsOutput {
  data: {
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    field_key: string;
    field_label: string;
    field_type: string;
    id: string;
    is_filterable: boolean;
    is_required: boolean;
    options: unknown;
    sort_order: number;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
  }[];
}
export interface OrdersGetCustomFieldInput {
  /**
   * custom field id or field_key
   */
  field: string;
}
export interface OrdersGetCustomFieldOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  field_key: string;
  field_label: string;
  field_type: string;
  id: string;
  is_filterable: boolean;
  is_required: boolean;
  options: unknown;
  sort_order: number;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersUpdateCustomFieldInput {
  /**
   * custom field id or field_key
   */
  field: string;
  /**
   * snake_case key in the order's custom_fields
   */
  field_key?: string;
  field_label?: string;
  field_type?: 'text' | 'number' | 'select' | 'boolean' | 'date';
  is_filterable?: boolean;
  is_required?: boolean;
  /**
   * choices of a select field
   *
   * @maxItems 200
   */
  options?: string[];
  sort_order?: number;
}
export interface OrdersUpdateCustomFieldOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  field_key: string;
  field_label: string;
  field_type: string;
  id: string;
  is_filterable: boolean;
  is_required: boolean;
  options: unknown;
  sort_order: number;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersDeleteCustomFieldInput {
  /**
   * custom field id or field_key
   */
  field: string;
}
export interface OrdersDeleteCustomFieldOutput {
  deleted: true;
  field_key: string;
  id: string;
}
export interface OrdersUpdateCustomFieldsInput {
  custom_fields: {};
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersUpdateCustomFieldsOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
export interface OrdersBulkShipInput {
  /**
   * @minItems 1
   * @maxItems 500
   */
  shipments: [
    {
      awb_number: string;
      carrier_module: string;
      order_id: string;
      tracking_url?: string;
      [k: string]: unknown;
    },
    ...{
      awb_number: string;
      carrier_module: string;
      order_id: string;
      tracking_url?: string;
      [k: string]: unknown;
    }[]
  ];
}
export interface OrdersBulkShipOutput {
  failed: number;
  results: {
    ok: boolean;
    order_id: string;
  }[];
  succeeded: number;
}
export interface OrdersListNdrCasesInput {
  limit?: number;
  open?: boolean;
  shipment_id?: string;
}
export interface OrdersListNdrCasesOutput {
  cases: {
    action: string | null;
    attempt_number: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    escalated: boolean;
    id: string;
    order_id: string;
    reason: string | null;
    /**
     * ISO 8601 timestamp
     */
    resolved_at: string | null;
    shipment_id: string;
  }[];
}
export interface OrdersResolveNdrCaseInput {
  action: 'reattempt' | 'return_to_origin';
  case_id: string;
}
export interface OrdersResolveNdrCaseOutput {
  action: string | null;
  attempt_number: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  escalated: boolean;
  id: string;
  order_id: string;
  reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  resolved_at: string | null;
  shipment_id: string;
}
export interface OrdersApplyTrackingUpdateInput {
  awb_number: string;
  carrier_module?: string;
  description?: string;
  location?: string;
  occurred_at?: string;
  raw_data?: {};
  reason?: string;
  status:
    | 'picked_up'
    | 'in_transit'
    | 'out_for_delivery'
    | 'delivered'
    | 'ndr'
    | 'rto_initiated'
    | 'rto_received'
    | 'cancelled';
}
export interface OrdersApplyTrackingUpdateOutput {
  duplicate: boolean;
  ndr_case: {
    action: string | null;
    attempt_number: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    escalated: boolean;
    id: string;
    order_id: string;
    reason: string | null;
    /**
     * ISO 8601 timestamp
     */
    resolved_at: string | null;
    shipment_id: string;
  } | null;
  ndr_count: number;
  shipment_id: string;
  status: string;
}
export interface OrdersSyncTrackingInput {
  limit?: number;
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersSyncTrackingOutput {
  applied: number;
  checked: number;
  errors: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: string;
  };
}
export interface OrdersShipInput {
  awb_number?: string;
  book?: boolean;
  carrier_module: string;
  dimensions?: {
    height?: number | string;
    length?: number | string;
    weight?: number | string;
    width?: number | string;
    [k: string]: unknown;
  };
  estimated_delivery_at?: string;
  /**
   * order UUID or order_number
   */
  id: string;
  label_url?: string;
  /**
   * @minItems 1
   */
  order_item_ids?: [string, ...string[]];
  pickup_address?: {};
  tracking_url?: string;
}
export interface OrdersShipOutput {
  awb_number: string;
  carrier_module: string;
  carrier_name: string | null;
  /**
   * decimal, as a string
   */
  cod_amount: string;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  dimensions: unknown;
  /**
   * ISO 8601 timestamp
   */
  estimated_delivery_at: string | null;
  id: string;
  label_url: string | null;
  /**
   * ISO 8601 timestamp
   */
  last_synced_at: string | null;
  ndr_count: number;
  order: {
    fulfillment_status: string;
    id: string;
    order_number: string;
    status: string;
  };
  order_id: string;
  order_item_ids: unknown;
  pickup_token: string | null;
  recorded_by: string | null;
  /**
   * ISO 8601 timestamp
   */
  shipped_at: string | null;
  status: string;
  tracking_url: string | null;
}
export interface OrdersRecordShipmentInput {
  carrier: string;
  /**
   * order UUID or order_number
   */
  id: string;
  shipped_at?: string;
  tracking_number: string;
  tracking_url?: string;
}
export interface OrdersRecordShipmentOutput {
  applied: boolean;
  order: {
    id: string;
    order_number: string;
    status: string;
  };
  shipment: {
    carrier: string | null;
    delivered_at: string | null;
    id: string;
    shipped_at: string | null;
    status: string;
    tracking_number: string;
  };
}
export interface OrdersMarkDeliveredInput {
  delivered_at?: string;
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersMarkDeliveredOutput {
  applied: boolean;
  order: {
    id: string;
    order_number: string;
    status: string;
  };
  shipment: {
    carrier: string | null;
    delivered_at: string | null;
    id: string;
    shipped_at: string | null;
    status: string;
    tracking_number: string;
  };
}
export interface OrdersListShipmentsInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersListShipmentsOutput {
  fulfillment_status: string;
  order_id: string;
  order_number: string;
  shipments: {
    awb_number: string;
    carrier_module: string;
    carrier_name: string | null;
    /**
     * decimal, as a string
     */
    cod_amount: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    delivered_at: string | null;
    dimensions: unknown;
    /**
     * ISO 8601 timestamp
     */
    estimated_delivery_at: string | null;
    events: {
      description: string | null;
      id: string;
      location: string | null;
      /**
       * ISO 8601 timestamp
       */
      occurred_at: string;
      raw_data: unknown;
      shipment_id: string;
      status: string;
    }[];
    id: string;
    label_url: string | null;
    /**
     * ISO 8601 timestamp
     */
    last_synced_at: string | null;
    ndr_cases: {
      action: string | null;
      attempt_number: number;
      /**
       * ISO 8601 timestamp
       */
      created_at: string;
      escalated: boolean;
      id: string;
      order_id: string;
      reason: string | null;
      /**
       * ISO 8601 timestamp
       */
      resolved_at: string | null;
      shipment_id: string;
    }[];
    ndr_count: number;
    order_id: string;
    order_item_ids: unknown;
    pickup_token: string | null;
    recorded_by: string | null;
    /**
     * ISO 8601 timestamp
     */
    shipped_at: string | null;
    status: string;
    tracking_url: string | null;
  }[];
  status: string;
}
export interface OrdersShippingRatesInput {
  carrier_module?: string;
  dimensions?: {};
  /**
   * order UUID or order_number
   */
  id: string;
  pickup_pincode: string;
  weight?: number | string;
}
export interface OrdersShippingRatesOutput {
  carrier_module: string;
  rates: {
    courier_name: string;
    /**
     * decimal, as a string
     */
    rate: string;
  }[];
}
export interface OrdersAnalyticsDashboardInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsDashboardOutput {
  average_order_value: string;
  by_payment_status: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: {
      orders: number;
      revenue: string;
    };
  };
  by_status: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: {
      orders: number;
      revenue: string;
    };
  };
  from: string;
  refreshed_at: string | null;
  revenue: string;
  to: string;
  total_orders: number;
  unique_customers: number;
}
export interface OrdersAnalyticsRevenueInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsRevenueOutput {
  data: {
    date: string;
    orders: number;
    revenue: string;
  }[];
  from: string;
  refreshed_at: string | null;
  to: string;
}
export interface OrdersAnalyticsFulfillmentInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsFulfillmentOutput {
  cancellation_rate: string;
  cancelled: number;
  delivered: number;
  delivery_rate: string;
  from: string;
  refreshed_at: string | null;
  rto: number;
  rto_rate: string;
  to: string;
  total_orders: number;
}
export interface OrdersAnalyticsSourcesInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsSourcesOutput {
  data: {
    orders: number;
    revenue: string;
    source: string;
  }[];
  from: string;
  refreshed_at: string | null;
  to: string;
}
export interface OrdersAnalyticsProductsInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  limit?: number;
  sort?: 'quantity' | 'revenue';
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsProductsOutput {
  data: {
    name: string;
    quantity: number;
    revenue: string;
    sku: string | null;
  }[];
  from: string;
  refreshed_at: string | null;
  to: string;
}
export interface OrdersAnalyticsCodVsPrepaidInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersAnalyticsCodVsPrepaidOutput {
  cod: {
    orders: number;
    revenue: string;
  };
  from: string;
  prepaid: {
    orders: number;
    revenue: string;
  };
  refreshed_at: string | null;
  to: string;
}
export interface OrdersGetStatsInput {
  /**
   * first day, inclusive (YYYY-MM-DD); default 29 days before to
   */
  from?: string;
  /**
   * last day, inclusive (YYYY-MM-DD); default today (UTC)
   */
  to?: string;
}
export interface OrdersGetStatsOutput {
  average_order_value: string;
  by_payment_status: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: {
      orders: number;
      revenue: string;
    };
  };
  by_status: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: {
      orders: number;
      revenue: string;
    };
  };
  cancellation_rate: string;
  cod: {
    orders: number;
    revenue: string;
  };
  delivery_rate: string;
  from: string;
  prepaid: {
    orders: number;
    revenue: string;
  };
  refreshed_at: string | null;
  revenue: string;
  rto_rate: string;
  to: string;
  total_orders: number;
  unique_customers: number;
}
export interface OrdersRefreshAnalyticsInput {
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersRefreshAnalyticsOutput {
  refreshed_at: string;
  views: {
    concurrently: boolean;
    duration_ms: number;
    view: string;
  }[];
}
export interface OrdersCreateWebhookInput {
  description?: string;
  /**
   * @minItems 1
   * @maxItems 20
   */
  events:
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string]
    | [string, string, string, string, string, string]
    | [string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string, string]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ];
  is_active?: boolean;
  /**
   * HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended
   */
  secret: string;
  url: string;
}
export interface OrdersCreateWebhookOutput {
  consecutive_failures: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  description: string | null;
  /**
   * ISO 8601 timestamp
   */
  disabled_at: string | null;
  disabled_reason: string | null;
  events: unknown;
  id: string;
  is_active: boolean;
  secret_hint: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  url: string;
}
export interface OrdersListWebhooksInput {}
export interface OrdersListWebhooksOutput {
  data: {
    consecutive_failures: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    description: string | null;
    /**
     * ISO 8601 timestamp
     */
    disabled_at: string | null;
    disabled_reason: string | null;
    events: unknown;
    id: string;
    is_active: boolean;
    secret_hint: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    url: string;
  }[];
}
export interface OrdersGetWebhookInput {
  webhook_id: string;
}
export interface OrdersGetWebhookOutput {
  consecutive_failures: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  description: string | null;
  /**
   * ISO 8601 timestamp
   */
  disabled_at: string | null;
  disabled_reason: string | null;
  events: unknown;
  id: string;
  is_active: boolean;
  secret_hint: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  url: string;
}
export interface OrdersUpdateWebhookInput {
  description?: string;
  /**
   * @minItems 1
   * @maxItems 20
   */
  events?:
    | [string]
    | [string, string]
    | [string, string, string]
    | [string, string, string, string]
    | [string, string, string, string, string]
    | [string, string, string, string, string, string]
    | [string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string]
    | [string, string, string, string, string, string, string, string, string, string, string, string, string]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ]
    | [
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string,
        string
      ];
  is_active?: boolean;
  /**
   * HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended
   */
  secret?: string;
  url?: string;
  webhook_id: string;
}
export interface OrdersUpdateWebhookOutput {
  consecutive_failures: number;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  description: string | null;
  /**
   * ISO 8601 timestamp
   */
  disabled_at: string | null;
  disabled_reason: string | null;
  events: unknown;
  id: string;
  is_active: boolean;
  secret_hint: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  url: string;
}
export interface OrdersDeleteWebhookInput {
  webhook_id: string;
}
export interface OrdersDeleteWebhookOutput {
  deleted: true;
  id: string;
}
export interface OrdersListWebhookDeliveriesInput {
  limit?: number;
  offset?: number;
  status?: 'pending' | 'retrying' | 'delivered' | 'failed' | 'cancelled';
  webhook_id: string;
}
export interface OrdersListWebhookDeliveriesOutput {
  data: {
    attempt_log: unknown;
    attempts: number;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    /**
     * ISO 8601 timestamp
     */
    delivered_at: string | null;
    endpoint_id: string;
    event: string;
    event_id: string | null;
    id: string;
    last_duration_ms: number | null;
    last_error: string | null;
    last_status: number | null;
    /**
     * ISO 8601 timestamp
     */
    next_attempt_at: string | null;
    payload: unknown;
    status: string;
  }[];
  total: number;
}
export interface OrdersDeliverWebhooksInput {
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersDeliverWebhooksOutput {
  attempted: number;
}
export interface OrdersCreateNotificationRuleInput {
  channel: 'sms' | 'whatsapp' | 'email' | 'in_app';
  /**
   * all must hold: status, old_status, new_status, payment_status, fulfillment_status, currency, source, carrier_module (string or list), is_cod (boolean), total_gte/total_gt/total_lte/total_lt (decimal)
   */
  conditions?: {};
  /**
   * order.created, order.status_changed, order.fulfilled, order.delivered, … (orders.* accepted)
   */
  event: string;
  is_active?: boolean;
  name: string;
  /**
   * recipient_type custom: a phone number (sms, whatsapp) or an email address (email)
   */
  recipient?: string;
  /**
   * sms/whatsapp/email: customer or custom; in_app: user or staff
   */
  recipient_type?: 'customer' | 'custom' | 'user' | 'staff';
  /**
   * recipient_type user: the platform user's id
   */
  recipient_user_id?: number;
  /**
   * email subject / in-app title, placeholders allowed; default "Order {{order_number}}: {{status}}"
   */
  subject?: string;
  /**
   * text with {{order_number}} {{customer_name}} {{total}} {{status}} {{tracking_url}} {{return_number}}
   */
  template: string;
}
export interface OrdersCreateNotificationRuleOutput {
  channel: string;
  conditions: unknown;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  event: string;
  id: string;
  is_active: boolean;
  name: string;
  recipient: string | null;
  recipient_type: string;
  recipient_user_id: number | null;
  subject: string | null;
  template: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  warnings?: string[];
}
export interface OrdersListNotificationRulesInput {
  channel?: 'sms' | 'whatsapp' | 'email' | 'in_app';
  event?: string;
  is_active?: boolean;
}
export interface OrdersListNotificationRulesOutput {
  data: {
    channel: string;
    conditions: unknown;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    event: string;
    id: string;
    is_active: boolean;
    name: string;
    recipient: string | null;
    recipient_type: string;
    recipient_user_id: number | null;
    subject: string | null;
    template: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
  }[];
}
export interface OrdersGetNotificationRuleInput {
  rule_id: string;
}
export interface OrdersGetNotificationRuleOutput {
  channel: string;
  conditions: unknown;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  event: string;
  id: string;
  is_active: boolean;
  name: string;
  recipient: string | null;
  recipient_type: string;
  recipient_user_id: number | null;
  subject: string | null;
  template: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersUpdateNotificationRuleInput {
  channel?: 'sms' | 'whatsapp' | 'email' | 'in_app';
  /**
   * all must hold: status, old_status, new_status, payment_status, fulfillment_status, currency, source, carrier_module (string or list), is_cod (boolean), total_gte/total_gt/total_lte/total_lt (decimal)
   */
  conditions?: {};
  /**
   * order.created, order.status_changed, order.fulfilled, order.delivered, … (orders.* accepted)
   */
  event?: string;
  is_active?: boolean;
  name?: string;
  /**
   * recipient_type custom: a phone number (sms, whatsapp) or an email address (email)
   */
  recipient?: string;
  /**
   * sms/whatsapp/email: customer or custom; in_app: user or staff
   */
  recipient_type?: 'customer' | 'custom' | 'user' | 'staff';
  /**
   * recipient_type user: the platform user's id
   */
  recipient_user_id?: number;
  rule_id: string;
  /**
   * email subject / in-app title, placeholders allowed; default "Order {{order_number}}: {{status}}"
   */
  subject?: string;
  /**
   * text with {{order_number}} {{customer_name}} {{total}} {{status}} {{tracking_url}} {{return_number}}
   */
  template?: string;
}
export interface OrdersUpdateNotificationRuleOutput {
  channel: string;
  conditions: unknown;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  event: string;
  id: string;
  is_active: boolean;
  name: string;
  recipient: string | null;
  recipient_type: string;
  recipient_user_id: number | null;
  subject: string | null;
  template: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  warnings?: string[];
}
export interface OrdersDeleteNotificationRuleInput {
  rule_id: string;
}
export interface OrdersDeleteNotificationRuleOutput {
  deleted: true;
  id: string;
}
export interface OrdersTestNotificationRuleInput {
  dry_run?: boolean;
  order_id?: string;
  rule_id: string;
  sample?: {
    customer_name?: string;
    order_number?: string;
    return_number?: string;
    status?: string;
    total?: string;
    tracking_url?: string;
  };
  /**
   * phone number or email address for this test
   */
  to?: string;
  /**
   * in_app: the user to notify
   */
  user_id?: number;
}
export interface OrdersTestNotificationRuleOutput {
  channel: string;
  /**
   * null without an order
   */
  conditions_match: boolean | null;
  dry_run: boolean;
  error?: string | null;
  provider_message_id?: string | null;
  /**
   * why nothing could be sent
   */
  reason?: string;
  recipient: string | null;
  rule_id: string;
  send_id?: string;
  sent: boolean;
  status: 'rendered' | 'sent' | 'failed';
  subject: string;
  text: string;
}
export interface OrdersListNotificationSendsInput {
  limit?: number;
  offset?: number;
  order_id?: string;
  rule_id: string;
  status?: 'sending' | 'retrying' | 'sent' | 'failed' | 'skipped';
}
export interface OrdersListNotificationSendsOutput {
  data: {
    attempts: number;
    channel: string;
    /**
     * ISO 8601 timestamp
     */
    claimed_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    error: string | null;
    event: string | null;
    event_id: string | null;
    id: string;
    is_test: boolean;
    /**
     * ISO 8601 timestamp
     */
    next_attempt_at: string | null;
    order_id: string | null;
    order_number: string | null;
    provider_message_id: string | null;
    recipient: string | null;
    rule_id: string;
    /**
     * ISO 8601 timestamp
     */
    sent_at: string | null;
    status: string;
    subject: string | null;
    text: string | null;
  }[];
  total: number;
}
export interface OrdersRetryNotificationSendsInput {
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersRetryNotificationSendsOutput {
  attempted: number;
}
export interface OrdersCreateInput {
  billing_address?: {
    city?: string;
    country?: string;
    line1?: string;
    line2?: string;
    name?: string;
    phone?: string;
    pincode?: string;
    /**
     * state name or GST state code
     */
    state?: string;
    [k: string]: unknown;
  };
  /**
   * the buyer's GSTIN (15 characters, checked) when registered
   */
  billing_gstin?: string;
  currency?: string;
  custom_fields?: {};
  customer: {
    email?: string;
    id?: string;
    name?: string;
    phone?: string;
  };
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  discount?: string | number;
  is_cod?: boolean;
  /**
   * @minItems 1
   * @maxItems 500
   */
  items: [
    {
      /**
       * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
       */
      discount?: string | number;
      hsn_code?: string;
      name: string;
      quantity: number | string;
      sku?: string;
      /**
       * rate_override for this line (0, 5, 12, 18, 28)
       */
      tax_rate?: string | number;
      /**
       * unit or Unique Quantity Code printed on the invoice (NOS, PCS, KGS, MTR, …); default NOS
       */
      unit?: string;
      /**
       * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
       */
      unit_price: string | number;
      weight?: string | number;
    },
    ...{
      /**
       * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
       */
      discount?: string | number;
      hsn_code?: string;
      name: string;
      quantity: number | string;
      sku?: string;
      /**
       * rate_override for this line (0, 5, 12, 18, 28)
       */
      tax_rate?: string | number;
      /**
       * unit or Unique Quantity Code printed on the invoice (NOS, PCS, KGS, MTR, …); default NOS
       */
      unit?: string;
      /**
       * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
       */
      unit_price: string | number;
      weight?: string | number;
    }[]
  ];
  notes?: string;
  order_number?: string;
  /**
   * intra-state supply (CGST+SGST); default: compare the shipping address state with the seller state, else true
   */
  same_state?: boolean;
  shipping_address?: {
    city?: string;
    country?: string;
    line1?: string;
    line2?: string;
    name?: string;
    phone?: string;
    pincode?: string;
    /**
     * state name or GST state code
     */
    state?: string;
    [k: string]: unknown;
  };
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  shipping_total?: string | number;
  source?: string;
  status?: 'pending' | 'confirmed';
}
export interface OrdersCreateOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
export interface OrdersListInput {
  /**
   * is_filterable custom fields, {field_key: value}, all must match; in a query string custom_fields[field_key]=value
   */
  custom_fields?: {};
  customer_id?: string;
  from?: string;
  fulfillment_status?: string;
  is_cod?: boolean;
  page?: number;
  payment_status?: string;
  per_page?: number;
  /**
   * part of the order number, customer id or customer name, any case
   */
  search?: string;
  /**
   * a column, - first for descending; or spec 1's screen words newest, oldest, price_asc, price_desc
   */
  sort?:
    | 'created_at'
    | '-created_at'
    | 'total'
    | '-total'
    | 'order_number'
    | '-order_number'
    | 'newest'
    | 'oldest'
    | 'price_asc'
    | 'price_desc';
  status?: string;
  to?: string;
  [k: string]: unknown;
}
export interface OrdersListOutput {
  data: {
    /**
     * decimal, as a string
     */
    balance_due: string;
    billing_address: unknown;
    billing_gstin: string | null;
    can_ship: boolean;
    cancel_reason: string | null;
    /**
     * ISO 8601 timestamp
     */
    cancelled_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    currency: string;
    custom_fields: unknown;
    customer: unknown;
    customer_id: string | null;
    customer_name: string | null;
    /**
     * ISO 8601 timestamp
     */
    delivered_at: string | null;
    /**
     * decimal, as a string
     */
    discount: string;
    fulfillment_status: string;
    id: string;
    import_hash: string | null;
    is_cod: boolean;
    notes: string | null;
    order_number: string;
    payment_status: string;
    same_state: boolean;
    shipping_address: unknown;
    /**
     * decimal, as a string
     */
    shipping_total: string;
    source: string | null;
    status: string;
    /**
     * decimal, as a string
     */
    subtotal: string;
    tax_details: unknown;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    total: string;
    /**
     * decimal, as a string
     */
    total_credited: string;
    /**
     * decimal, as a string
     */
    total_paid: string;
    /**
     * decimal, as a string
     */
    total_refunded: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
    version: number;
  }[];
  pagination: {
    current_page: number;
    last_page: number;
    per_page: number;
    total: number;
  };
}
export interface OrdersGetInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersGetOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
export interface OrdersUpdateStatusInput {
  /**
   * order UUID or order_number
   */
  id: string;
  reason?: string;
  status:
    | 'pending'
    | 'confirmed'
    | 'processing'
    | 'ready_to_ship'
    | 'shipped'
    | 'out_for_delivery'
    | 'delivered'
    | 'rto_initiated'
    | 'rto_received'
    | 'cancelled';
}
export interface OrdersUpdateStatusOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
export interface OrdersCancelInput {
  /**
   * order UUID or order_number
   */
  id: string;
  reason?: string;
}
export interface OrdersCancelOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
export interface OrdersDeleteInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersDeleteOutput {
  deleted: true;
  id: string;
}
export interface OrdersHistoryInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersHistoryOutput {
  history: {
    actor: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    from_status: string | null;
    /**
     * bigint, as a string
     */
    id: string;
    order_id: string;
    reason: string | null;
    to_status: string;
  }[];
  order_id: string;
}
export interface OrdersApplyRefundUpdateInput {
  external_refund_id: string;
  failure_reason?: string;
  provider_module: string;
  /**
   * the orders refund id the gateway keeps as a reference
   */
  refund_id?: string;
  status: 'completed' | 'failed';
}
export interface OrdersApplyRefundUpdateOutput {
  applied: boolean;
  order: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  refund: {
    /**
     * decimal, as a string
     */
    amount: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    credit_note_requested: boolean;
    external_refund_id: string | null;
    failure_reason: string | null;
    id: string;
    order_id: string;
    payment_id: string | null;
    /**
     * ISO 8601 timestamp
     */
    processed_at: string | null;
    provider_module: string | null;
    reason: string;
    status: string;
  };
}
export interface OrdersSyncRefundsInput {
  limit?: number;
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersSyncRefundsOutput {
  checked: number;
  completed: number;
  errors: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: string;
  };
  failed: number;
  pending: number;
}
export interface OrdersApplyPaymentUpdateInput {
  /**
   * the amount the gateway received, when it says
   */
  amount?: string;
  /**
   * the gateway's payment id (paid links)
   */
  external_payment_id?: string;
  link_id: string;
  /**
   * the gateway's own word for the link's state, kept in metadata
   */
  link_status?: string;
  provider_module: string;
  status: 'completed' | 'failed' | 'pending';
}
export interface OrdersApplyPaymentUpdateOutput {
  applied: boolean;
  order?: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  payment: {
    /**
     * decimal, as a string
     */
    amount: string;
    collected_by: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    currency: string;
    external_payment_id: string | null;
    id: string;
    metadata: unknown;
    method: string;
    order_id: string;
    /**
     * ISO 8601 timestamp
     */
    paid_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    payment_link_expires_at: string | null;
    payment_link_url: string | null;
    provider_module: string | null;
    /**
     * decimal, as a string
     */
    refunded_amount: string;
    status: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
  };
}
export interface OrdersSyncPaymentLinksInput {
  limit?: number;
  schedule?: string;
  scheduled_at?: string;
}
export interface OrdersSyncPaymentLinksOutput {
  checked: number;
  completed: number;
  errors: {
    /**
     * This interface was referenced by `undefined`'s JSON-Schema definition
     * via the `patternProperty` "^(.*)$".
     */
    [k: string]: string;
  };
  failed: number;
  pending: number;
}
export interface OrdersRecordPaymentInput {
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  amount: string | number;
  collected_by?: string;
  external_payment_id?: string;
  /**
   * order UUID or order_number
   */
  id: string;
  metadata?: {};
  method: string;
  paid_at?: string;
  provider_module?: string;
  status?: 'pending' | 'completed' | 'failed';
}
export interface OrdersRecordPaymentOutput {
  /**
   * decimal, as a string
   */
  amount: string;
  collected_by: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  external_payment_id: string | null;
  id: string;
  metadata: unknown;
  method: string;
  order: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  order_id: string;
  /**
   * ISO 8601 timestamp
   */
  paid_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  payment_link_expires_at: string | null;
  payment_link_url: string | null;
  provider_module: string | null;
  /**
   * decimal, as a string
   */
  refunded_amount: string;
  status: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersListPaymentsInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersListPaymentsOutput {
  order: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  payments: {
    /**
     * decimal, as a string
     */
    amount: string;
    collected_by: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    currency: string;
    external_payment_id: string | null;
    id: string;
    metadata: unknown;
    method: string;
    order_id: string;
    /**
     * ISO 8601 timestamp
     */
    paid_at: string | null;
    /**
     * ISO 8601 timestamp
     */
    payment_link_expires_at: string | null;
    payment_link_url: string | null;
    provider_module: string | null;
    /**
     * decimal, as a string
     */
    refunded_amount: string;
    status: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
  }[];
}
export interface OrdersCreatePaymentLinkInput {
  expires_in_minutes?: number;
  /**
   * order UUID or order_number
   */
  id: string;
  provider_module?: string;
}
export interface OrdersCreatePaymentLinkOutput {
  /**
   * decimal, as a string
   */
  amount: string;
  collected_by: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  external_payment_id: string | null;
  id: string;
  metadata: unknown;
  method: string;
  order_id: string;
  /**
   * ISO 8601 timestamp
   */
  paid_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  payment_link_expires_at: string | null;
  payment_link_url: string | null;
  provider_module: string | null;
  /**
   * decimal, as a string
   */
  refunded_amount: string;
  status: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersConfirmPaymentInput {
  external_payment_id?: string;
  /**
   * order UUID or order_number
   */
  id: string;
  metadata?: {};
  payment_id: string;
  status: 'completed' | 'failed';
}
export interface OrdersConfirmPaymentOutput {
  /**
   * decimal, as a string
   */
  amount: string;
  collected_by: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  external_payment_id: string | null;
  id: string;
  metadata: unknown;
  method: string;
  order: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  order_id: string;
  /**
   * ISO 8601 timestamp
   */
  paid_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  payment_link_expires_at: string | null;
  payment_link_url: string | null;
  provider_module: string | null;
  /**
   * decimal, as a string
   */
  refunded_amount: string;
  status: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersRefundInput {
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  amount: string | number;
  /**
   * order UUID or order_number
   */
  id: string;
  issue_credit_note?: boolean;
  payment_id: string;
  reason: string;
}
export interface OrdersRefundOutput {
  /**
   * decimal, as a string
   */
  amount: string;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  credit_note?: {
    billing_gstin: string | null;
    billing_name: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    currency: string;
    /**
     * decimal, as a string
     */
    discount: string;
    /**
     * ISO 8601 timestamp
     */
    due_at: string | null;
    id: string;
    invoice_number: string;
    /**
     * ISO 8601 timestamp
     */
    issued_at: string | null;
    line_items: unknown;
    order_id: string;
    original_invoice: unknown;
    pdf_path: string | null;
    pdf_url: string | null;
    place_of_supply: unknown;
    reason: string | null;
    refund_id: string | null;
    seller: unknown;
    status: string;
    /**
     * decimal, as a string
     */
    subtotal: string;
    tax_details: unknown;
    /**
     * decimal, as a string
     */
    total: string;
    /**
     * decimal, as a string
     */
    total_tax: string;
    type: string;
  };
  credit_note_requested: boolean;
  external_refund_id: string | null;
  failure_reason: string | null;
  id: string;
  order: {
    balance_due: string;
    currency: string;
    id: string;
    order_number: string;
    payment_status: string;
    status: string;
    total: string;
    total_paid: string;
    total_refunded: string;
  };
  order_id: string;
  payment_id: string | null;
  /**
   * ISO 8601 timestamp
   */
  processed_at: string | null;
  provider_module: string | null;
  reason: string;
  status: string;
}
export interface OrdersListRefundsInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersListRefundsOutput {
  refunds: {
    /**
     * decimal, as a string
     */
    amount: string;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    credit_note_requested: boolean;
    external_refund_id: string | null;
    failure_reason: string | null;
    id: string;
    order_id: string;
    payment_id: string | null;
    /**
     * ISO 8601 timestamp
     */
    processed_at: string | null;
    provider_module: string | null;
    reason: string;
    status: string;
  }[];
}
export interface OrdersCreateInvoiceInput {
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  amount?: string | number;
  /**
   * the buyer's GSTIN (checked); default the order's
   */
  billing_gstin?: string;
  billing_name?: string;
  /**
   * order UUID or order_number
   */
  id: string;
  pdf?: boolean;
  reason?: string;
  refund_id?: string;
  type?: 'invoice' | 'credit_note' | 'proforma';
}
export interface OrdersCreateInvoiceOutput {
  billing_gstin: string | null;
  billing_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  /**
   * decimal, as a string
   */
  discount: string;
  /**
   * ISO 8601 timestamp
   */
  due_at: string | null;
  id: string;
  invoice_number: string;
  /**
   * ISO 8601 timestamp
   */
  issued_at: string | null;
  line_items: unknown;
  order_id: string;
  original_invoice: unknown;
  pdf_path: string | null;
  pdf_url: string | null;
  place_of_supply: unknown;
  reason: string | null;
  refund_id: string | null;
  seller: unknown;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_tax: string;
  type: string;
}
export interface OrdersCreateCreditNoteInput {
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  amount: string | number;
  /**
   * order UUID or order_number
   */
  id: string;
  reason: string;
  refund_id?: string;
}
export interface OrdersCreateCreditNoteOutput {
  billing_gstin: string | null;
  billing_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  /**
   * decimal, as a string
   */
  discount: string;
  /**
   * ISO 8601 timestamp
   */
  due_at: string | null;
  id: string;
  invoice_number: string;
  /**
   * ISO 8601 timestamp
   */
  issued_at: string | null;
  line_items: unknown;
  order_id: string;
  original_invoice: unknown;
  pdf_path: string | null;
  pdf_url: string | null;
  place_of_supply: unknown;
  reason: string | null;
  refund_id: string | null;
  seller: unknown;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_tax: string;
  type: string;
}
export interface OrdersListInvoicesInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersListInvoicesOutput {
  invoices: {
    billing_gstin: string | null;
    billing_name: string | null;
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    currency: string;
    /**
     * decimal, as a string
     */
    discount: string;
    /**
     * ISO 8601 timestamp
     */
    due_at: string | null;
    id: string;
    invoice_number: string;
    /**
     * ISO 8601 timestamp
     */
    issued_at: string | null;
    line_items: unknown;
    order_id: string;
    original_invoice: unknown;
    pdf_path: string | null;
    pdf_url: string | null;
    place_of_supply: unknown;
    reason: string | null;
    refund_id: string | null;
    seller: unknown;
    status: string;
    /**
     * decimal, as a string
     */
    subtotal: string;
    tax_details: unknown;
    /**
     * decimal, as a string
     */
    total: string;
    /**
     * decimal, as a string
     */
    total_tax: string;
    type: string;
  }[];
}
export interface OrdersCalculateTaxInput {
  /**
   * decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)
   */
  amount: string | number;
  hsn_code?: string;
  rate_override?: string | number;
  same_state?: boolean;
}
export interface OrdersCalculateTaxOutput {
  /**
   * decimal, as a string
   */
  amount: string;
  /**
   * decimal, as a string
   */
  cgst: string;
  /**
   * decimal, as a string
   */
  igst: string;
  /**
   * decimal, as a string
   */
  rate: string;
  rate_source: 'override' | 'hsn' | 'default' | 'fallback';
  same_state: boolean;
  /**
   * decimal, as a string
   */
  sgst: string;
  /**
   * decimal, as a string
   */
  total_tax: string;
}
export interface OrdersListTaxConfigsInput {
  type?: 'gst' | 'vat' | 'sales_tax';
}
export interface OrdersListTaxConfigsOutput {
  data: {
    /**
     * ISO 8601 timestamp
     */
    created_at: string;
    hsn_codes: unknown;
    id: number;
    is_default: boolean;
    name: string;
    /**
     * decimal, as a string
     */
    rate: string;
    type: string;
    /**
     * ISO 8601 timestamp
     */
    updated_at: string;
  }[];
}
export interface OrdersCreateTaxConfigInput {
  /**
   * @maxItems 1000
   */
  hsn_codes?: (string | number)[];
  is_default?: boolean;
  name: string;
  rate: string | number;
  type: 'gst' | 'vat' | 'sales_tax';
}
export interface OrdersCreateTaxConfigOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  hsn_codes: unknown;
  id: number;
  is_default: boolean;
  name: string;
  /**
   * decimal, as a string
   */
  rate: string;
  type: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersGetTaxConfigInput {
  config_id: number;
}
export interface OrdersGetTaxConfigOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  hsn_codes: unknown;
  id: number;
  is_default: boolean;
  name: string;
  /**
   * decimal, as a string
   */
  rate: string;
  type: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersUpdateTaxConfigInput {
  config_id: number;
  /**
   * @maxItems 1000
   */
  hsn_codes?: (string | number)[];
  is_default?: boolean;
  name?: string;
  rate?: string | number;
  type?: 'gst' | 'vat' | 'sales_tax';
}
export interface OrdersUpdateTaxConfigOutput {
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  hsn_codes: unknown;
  id: number;
  is_default: boolean;
  name: string;
  /**
   * decimal, as a string
   */
  rate: string;
  type: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
}
export interface OrdersDeleteTaxConfigInput {
  config_id: number;
}
export interface OrdersDeleteTaxConfigOutput {
  deleted: true;
  id: number;
}
export interface OrdersGetSettingsInput {}
export interface OrdersGetSettingsOutput {
  default_payment_provider: string | null;
  ndr_auto_reattempt: boolean;
  ndr_max_attempts: number;
  seller_state: string | null;
  webhook_retry_backoff_ms: number;
}
export interface OrdersUpdateSettingsInput {
  default_payment_provider?: string;
  ndr_auto_reattempt?: boolean;
  ndr_max_attempts?: number;
  seller_state?: string;
  webhook_retry_backoff_ms?: number;
}
export interface OrdersUpdateSettingsOutput {
  default_payment_provider: string | null;
  ndr_auto_reattempt: boolean;
  ndr_max_attempts: number;
  seller_state: string | null;
  webhook_retry_backoff_ms: number;
}
export interface OrdersGetBusinessProfileInput {}
export interface OrdersGetBusinessProfileOutput {
  business_profile: {
    address: {
      city: string;
      country: string;
      line1: string;
      line2?: string;
      pincode: string;
      state: string;
      state_code: string;
    };
    email?: string;
    gstin: string | null;
    legal_name: string;
    phone?: string;
    signatory?: string;
    trade_name?: string;
    updated_at?: string;
  } | null;
}
export interface OrdersUpdateBusinessProfileInput {
  address?: {
    city?: string;
    country?: string;
    line1?: string;
    line2?: string;
    pincode?: string;
    /**
     * state name or GST state code; must match the GSTIN's
     */
    state?: string;
  };
  email?: string;
  /**
   * 15 characters: state code, PAN, entity number, Z, check character; null when not registered
   */
  gstin?: string | null;
  legal_name?: string;
  phone?: string;
  /**
   * name printed above Authorised Signatory
   */
  signatory?: string;
  trade_name?: string;
}
export interface OrdersUpdateBusinessProfileOutput {
  business_profile: {
    address: {
      city: string;
      country: string;
      line1: string;
      line2?: string;
      pincode: string;
      state: string;
      state_code: string;
    };
    email?: string;
    gstin: string | null;
    legal_name: string;
    phone?: string;
    signatory?: string;
    trade_name?: string;
    updated_at?: string;
  };
}
