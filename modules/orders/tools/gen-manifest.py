# Writes modules/orders/module.json (the manifest is long; this keeps its repetitive parts consistent).
# Run: python3 modules/orders/tools/gen-manifest.py
import json, os
here = os.path.dirname(os.path.abspath(__file__))
S = lambda **kw: {"type": "string", **kw}
MONEY = {"type": ["string", "number"], "description": "decimal amount (a string such as \"199.50\"; numbers with at most 2 decimals accepted)"}
ID = S(minLength=1, maxLength=100, description="order UUID or order_number")
UUID = S(format="uuid")
def obj(props, required=(), extra=False):
    o = {"type": "object", "properties": props, "additionalProperties": extra}
    if required: o["required"] = list(required)
    return o
ORDER_OUT = {"type": "object", "description": "an order with its items, computed totals and can_ship"}
ops = []
routes = []
def op(method, desc, perm, inp, out=None, route=None, public=False):
    o = {"name": f"orders.{method}", "description": desc, "permission": perm, "input": inp}
    if out: o["output"] = out
    ops.append(o)
    if route:
        m, p = route
        routes.append({"method": m, "path": p, "operation": f"orders.{method}", "permission": perm})

ADDRESS = {"type": "object", "properties": {"name": S(), "line1": S(), "line2": S(), "city": S(), "state": S(description="state name or GST state code"), "pincode": S(), "country": S(), "phone": S()}, "additionalProperties": True}
ITEM = obj({"name": S(minLength=1, maxLength=255), "sku": S(maxLength=100), "hsn_code": S(maxLength=20), "quantity": {"type": ["integer", "string"]}, "unit_price": MONEY, "discount": MONEY, "tax_rate": {"type": ["string", "number"], "description": "rate_override for this line (0, 5, 12, 18, 28)"}, "weight": {"type": ["string", "number"]},
             "unit": S(minLength=1, maxLength=10, description="unit or Unique Quantity Code printed on the invoice (NOS, PCS, KGS, MTR, …); default NOS")}, ["name", "quantity", "unit_price"])
CUSTOMER = obj({"id": S(maxLength=100), "name": S(maxLength=255), "email": S(maxLength=255), "phone": S(maxLength=30)}, extra=False)

# Specific routes first: the router takes the first match in declaration order.
op("bulk_ship", "Creates shipments for many orders (spec 3, POST /orders/bulk/ship); each entry succeeds or fails on its own.", "orders.manage",
   obj({"shipments": {"type": "array", "minItems": 1, "maxItems": 500, "items": obj({"order_id": S(), "carrier_module": S(), "awb_number": S(), "tracking_url": S()}, ["order_id", "carrier_module", "awb_number"], True)}}, ["shipments"]),
   route=("POST", "/orders/bulk/ship"))
# Bulk status and cancel (spec 3; bodies designed in README.md): before /orders/:id/status and /orders/:id/cancel.
BULK_IDS = {"type": "array", "minItems": 1, "maxItems": 500, "uniqueItems": True, "items": ID, "description": "order UUIDs or order numbers, at most 500"}
BULK_OUT = {"type": "object", "properties": {"results": {"type": "array"}, "succeeded": {"type": "integer"}, "failed": {"type": "integer"}}}
op("bulk_status", "Moves many orders to one status; each order in its own transaction under the single-order transition rules, order.status_changed once per changed order; per-order results.", "orders.manage",
   obj({"order_ids": BULK_IDS, "status": S(enum=["pending", "confirmed", "processing", "ready_to_ship", "shipped", "out_for_delivery", "delivered", "rto_initiated", "rto_received", "cancelled"]), "reason": S(maxLength=500)}, ["order_ids", "status"]),
   BULK_OUT, ("POST", "/orders/bulk/status"))
op("bulk_cancel", "Cancels many orders with one reason; each on its own, per-order results.", "orders.manage",
   obj({"order_ids": BULK_IDS, "reason": S(minLength=1, maxLength=500)}, ["order_ids", "reason"]), BULK_OUT, ("POST", "/orders/bulk/cancel"))
# Custom fields (spec 3): definitions, and the values of one order.
CF = {"field_key": S(minLength=1, maxLength=64, pattern="^[a-z][a-z0-9]*(_[a-z0-9]+)*$", description="snake_case key in the order's custom_fields"), "field_label": S(minLength=1, maxLength=255),
      "field_type": S(enum=["text", "number", "select", "boolean", "date"]), "options": {"type": "array", "maxItems": 200, "uniqueItems": True, "items": S(minLength=1, maxLength=255), "description": "choices of a select field"},
      "is_required": {"type": "boolean", "default": False}, "is_filterable": {"type": "boolean", "default": False}, "sort_order": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 0}}
CFREF = S(minLength=1, maxLength=100, description="custom field id or field_key")
op("create_custom_field", "Defines an order custom field {field_key, field_label, field_type, options, is_required, is_filterable, sort_order}.", "orders.manage", obj(CF, ["field_key", "field_label", "field_type"]), route=("POST", "/order-custom-fields"))
op("list_custom_fields", "Custom field definitions by sort_order.", "orders.view", obj({}), route=("GET", "/order-custom-fields"))
op("get_custom_field", "One custom field definition.", "orders.view", obj({"field": CFREF}, ["field"]), route=("GET", "/order-custom-fields/:field"))
# No defaults on update: the HTTP edge would fill them in and reset what the body leaves out.
CF_CHANGES = {k: {kk: vv for kk, vv in v.items() if kk != "default"} for k, v in CF.items()}
op("update_custom_field", "Changes a custom field's label, options, flags or sort order (field_key and field_type are fixed).", "orders.manage", obj({"field": CFREF, **CF_CHANGES}, ["field"]), route=("PUT", "/order-custom-fields/:field"))
op("delete_custom_field", "Deletes a custom field definition; values already on orders stay.", "orders.manage", obj({"field": CFREF}, ["field"]), route=("DELETE", "/order-custom-fields/:field"))
op("update_custom_fields", "Sets custom field values of an order (merged; null removes one), validated against the definitions.", "orders.manage",
   obj({"id": ID, "custom_fields": {"type": "object"}}, ["id", "custom_fields"]), ORDER_OUT, ("PATCH", "/orders/:id/custom-fields"))
# Bulk import and export (spec 3 Bulk operations): the host streams the files (routes with upload / stream).
IMPORTID = S(minLength=1, maxLength=100)
UPLOAD = obj({"id": S(), "filename": S(), "size": {"type": "integer"}, "content_type": S()}, ["id", "filename", "size", "content_type"])
op("start_import", "Queues a CSV import (multipart: file, source): 202 {import_id, status}. Chunks of 500 rows, idempotent upsert by order_number, progress pushed as .orders.import.progress.", "orders.create",
   obj({"upload": UPLOAD, "source": S(maxLength=100)}, ["upload"]))
routes.append({"method": "POST", "path": "/orders/bulk/import", "operation": "orders.start_import", "permission": "orders.create", "success_status": 202,
               "upload": {"field": "file", "max_bytes": 104857600, "accept": ["text/csv", "application/csv", "text/plain", "application/vnd.ms-excel", "application/octet-stream"]}})
op("get_import", "Status of an import: counts, errors with line numbers (first 100, with error_count), timestamps.", "orders.view", obj({"import_id": IMPORTID}, ["import_id"]), route=("GET", "/orders/bulk/import/:import_id"))
op("cancel_import", "Asks a queued or running import to stop before its next chunk.", "orders.create", obj({"import_id": IMPORTID}, ["import_id"]))
routes.append({"method": "POST", "path": "/orders/bulk/import/:import_id/cancel", "operation": "orders.cancel_import", "permission": "orders.create", "success_status": 200})
# A row as the host sends it (core/bulk/csv-chunks.ts): [line, fields in header order, shape error?].
CSVROW = {"type": "array", "minItems": 2, "maxItems": 3, "description": "[line, cells, error?]"}
op("import_chunk", "Called by the host's CSV job (files.process_csv): one chunk of rows, or the end of the import. Not routed.", "orders.create",
   obj({"phase": S(enum=["chunk", "end"]), "context": obj({"import_id": S()}, ["import_id"]), "job_id": S(), "chunk_index": {"type": "integer", "minimum": 0}, "header": {"type": "array", "items": S()},
        "rows": {"type": "array", "maxItems": 1000, "items": CSVROW}, "total_rows": {"type": ["integer", "null"]}, "rows_read": {"type": "integer"}, "status": S(enum=["completed", "cancelled", "failed"]), "error": S()}, ["phase", "context"]))
op("export_page", "One page of the CSV export (POST /orders/bulk/export, streamed by the host): filters {status, payment_status, source, date_from, date_to}, columns; keyset cursor on order_number.", "orders.view",
   obj({"filters": obj({"status": {"type": ["string", "array"], "items": S()}, "payment_status": {"type": ["string", "array"], "items": S()}, "source": S(maxLength=100), "date_from": S(maxLength=40), "date_to": S(maxLength=40)}),
        "columns": {"type": "array", "maxItems": 50, "items": S(maxLength=50)}, "cursor": {"type": ["string", "null"], "maxLength": 100}}))
routes.append({"method": "POST", "path": "/orders/bulk/export", "operation": "orders.export_page", "permission": "orders.view", "stream": {"format": "csv", "timeout_s": 300, "concurrency": 2}})
op("list_ndr_cases", "NDR cases, newest first; open ones only with open=true.", "orders.view",
   obj({"open": {"type": "boolean"}, "shipment_id": UUID, "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}}), route=("GET", "/orders/ndr-cases"))
op("resolve_ndr_case", "Decides an open NDR case: reattempt delivery or return to origin (RTO).", "orders.manage",
   obj({"case_id": UUID, "action": S(enum=["reattempt", "return_to_origin"])}, ["case_id", "action"]), route=("POST", "/orders/ndr-cases/:case_id/resolve"))
op("apply_tracking_update", "Applies one carrier tracking update to the shipment with that AWB: records the event, moves shipment and order, opens NDR cases. Used by the tracking sync and the carrier webhook.", "orders.manage",
   obj({"carrier_module": S(), "awb_number": S(minLength=1), "status": S(enum=["picked_up", "in_transit", "out_for_delivery", "delivered", "ndr", "rto_initiated", "rto_received", "cancelled"]), "location": S(), "description": S(), "occurred_at": S(), "reason": S(), "raw_data": {"type": "object"}}, ["awb_number", "status"]),
   route=("POST", "/orders/shipments/tracking"))
op("sync_tracking", "Polls the carrier modules for every shipment in transit and applies their updates (the 30-minute tracking sync).", "orders.manage",
   obj({"limit": {"type": "integer", "minimum": 1, "maximum": 1000}, "schedule": S(maxLength=50), "scheduled_at": S(maxLength=40)}), route=("POST", "/orders/shipments/sync"))
# Refund outcomes: from a provider's webhook, or the poll of pending refunds (schedule refund_sync).
op("apply_refund_update", "A payment provider module reports a pending refund's outcome (from its gateway's webhook): completes it (reconciled, order.refund_processed) or fails it (amount released), once.", "orders.manage",
   obj({"provider_module": S(minLength=2, maxLength=100), "external_refund_id": S(minLength=1, maxLength=255), "refund_id": S(maxLength=100, description="the orders refund id the gateway keeps as a reference"),
        "status": S(enum=["completed", "failed"]), "failure_reason": S(maxLength=1000)}, ["provider_module", "external_refund_id", "status"]))
op("sync_refunds", "Asks the provider (<alias>.refund_status) about refunds still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule refund_sync).", "orders.manage",
   obj({"limit": {"type": "integer", "minimum": 1, "maximum": 1000}, "schedule": S(maxLength=50), "scheduled_at": S(maxLength=40)}), route=("POST", "/orders/refunds/sync"))
# Payment-link outcomes: from a provider's webhook, or the poll of pending links (schedule payment_link_sync).
op("apply_payment_update", "A payment provider module reports what became of a payment link (its gateway's webhook or the payment_link_sync poll): paid completes the pending payment with the gateway's payment id and amount (reconciled, order.payment_updated); expired or cancelled fails it. Applied once.", "orders.manage",
   obj({"provider_module": S(minLength=2, maxLength=100), "link_id": S(minLength=1, maxLength=255), "status": S(enum=["completed", "failed", "pending"]),
        "external_payment_id": S(minLength=1, maxLength=255, description="the gateway's payment id (paid links)"), "amount": S(maxLength=30, description="the amount the gateway received, when it says"),
        "link_status": S(maxLength=50, description="the gateway's own word for the link's state, kept in metadata")}, ["provider_module", "link_id", "status"]))
op("sync_payment_links", "Asks the provider (<alias>.link_status) about payment links still pending 5 minutes after they were made and applies the answers (run every 5 minutes by the schedule payment_link_sync).", "orders.manage",
   obj({"limit": {"type": "integer", "minimum": 1, "maximum": 1000}, "schedule": S(maxLength=50), "scheduled_at": S(maxLength=40)}), route=("POST", "/orders/payment-links/sync"))
# Analytics (spec 3): read the materialized views; refreshed by the schedule analytics_refresh.
RANGE = {"from": S(maxLength=40, description="first day, inclusive (YYYY-MM-DD); default 29 days before to"), "to": S(maxLength=40, description="last day, inclusive (YYYY-MM-DD); default today (UTC)")}
op("analytics_dashboard", "Total orders, revenue, average order value, unique customers, breakdowns by status and payment status.", "orders.view", obj(RANGE), route=("GET", "/orders/analytics/dashboard"))
op("analytics_revenue", "Daily order counts and revenue.", "orders.view", obj(RANGE), route=("GET", "/orders/analytics/revenue"))
op("analytics_fulfillment", "Delivery, cancellation and RTO rates.", "orders.view", obj(RANGE), route=("GET", "/orders/analytics/fulfillment"))
op("analytics_sources", "Orders and revenue by source module.", "orders.view", obj(RANGE), route=("GET", "/orders/analytics/sources"))
op("analytics_products", "Top products by quantity (or revenue with sort=revenue).", "orders.view",
   obj({**RANGE, "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}, "sort": S(enum=["quantity", "revenue"], default="quantity")}), route=("GET", "/orders/analytics/products"))
op("analytics_cod_vs_prepaid", "COD versus prepaid count and revenue.", "orders.view", obj(RANGE), route=("GET", "/orders/analytics/cod-vs-prepaid"))
op("getStats", "Order statistics of a date range in one answer: total orders, revenue, average order value, unique customers, counts by status and payment status, delivery/cancellation/RTO rates, COD versus prepaid.", "orders.view", obj(RANGE), route=("GET", "/orders/stats"))
op("refresh_analytics", "Refreshes the analytics materialized views concurrently (also run every 15 minutes by the schedule analytics_refresh).", "orders.manage",
   obj({"schedule": S(), "scheduled_at": S()}), route=("POST", "/orders/analytics/refresh"))
# Outbound webhooks (spec 3).
WH = {"url": S(minLength=8, maxLength=2000), "secret": S(minLength=1, maxLength=500, description="HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended"),
      "events": {"type": "array", "minItems": 1, "maxItems": 20, "items": S(maxLength=100)}, "is_active": {"type": "boolean"}, "description": S(maxLength=500)}
WHID = S(minLength=1, maxLength=100)
op("create_webhook", "Registers an outbound webhook endpoint {url, secret, events[], is_active}.", "orders.manage", obj(WH, ["url", "secret", "events"]), route=("POST", "/order-webhooks"))
op("list_webhooks", "Outbound webhook endpoints (secrets shown as a hint only).", "orders.view", obj({}), route=("GET", "/order-webhooks"))
op("get_webhook", "One webhook endpoint.", "orders.view", obj({"webhook_id": WHID}, ["webhook_id"]), route=("GET", "/order-webhooks/:webhook_id"))
op("update_webhook", "Changes a webhook endpoint; is_active=true re-enables one that was auto-disabled.", "orders.manage", obj({"webhook_id": WHID, **WH}, ["webhook_id"]), route=("PUT", "/order-webhooks/:webhook_id"))
op("delete_webhook", "Deletes a webhook endpoint; its queued retries are cancelled.", "orders.manage", obj({"webhook_id": WHID}, ["webhook_id"]), route=("DELETE", "/order-webhooks/:webhook_id"))
op("list_webhook_deliveries", "Delivery log of an endpoint, newest first: status, attempts, last response status and duration, every attempt.", "orders.view",
   obj({"webhook_id": WHID, "status": S(enum=["pending", "retrying", "delivered", "failed", "cancelled"]), "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}, "offset": {"type": "integer", "minimum": 0, "default": 0}}, ["webhook_id"]),
   route=("GET", "/order-webhooks/:webhook_id/deliveries"))
op("deliver_webhooks", "Attempts every webhook delivery whose retry is due (run every minute by the schedule webhook_retries).", "orders.manage",
   obj({"schedule": S(), "scheduled_at": S()}), route=("POST", "/order-webhooks/retry-due"))
# Notification rules (spec 3); sending in src/notification-dispatch.ts, channels in src/notification-channels.ts.
TPL = S(minLength=1, maxLength=2000, description="text with {{order_number}} {{customer_name}} {{total}} {{status}} {{tracking_url}} {{return_number}}")
NR = {"name": S(minLength=1, maxLength=255), "event": S(minLength=1, maxLength=100, description="order.created, order.status_changed, order.fulfilled, order.delivered, … (orders.* accepted)"),
      "channel": S(enum=["sms", "whatsapp", "email", "in_app"]), "recipient_type": S(enum=["customer", "custom", "user", "staff"], description="sms/whatsapp/email: customer or custom; in_app: user or staff"),
      "recipient": S(minLength=3, maxLength=254, description="recipient_type custom: a phone number (sms, whatsapp) or an email address (email)"),
      "recipient_user_id": {"type": "integer", "minimum": 1, "description": "recipient_type user: the platform user's id"},
      "subject": S(minLength=1, maxLength=255, description="email subject / in-app title, placeholders allowed; default \"Order {{order_number}}: {{status}}\""),
      "template": TPL, "conditions": {"type": "object", "maxProperties": 20, "description": "all must hold: status, old_status, new_status, payment_status, fulfillment_status, currency, source, carrier_module (string or list), is_cod (boolean), total_gte/total_gt/total_lte/total_lt (decimal)"},
      "is_active": {"type": "boolean"}}
RULE = S(minLength=1, maxLength=100)
op("create_notification_rule", "Creates a notification rule {name, event, channel, recipient_type, template, conditions, is_active}; unknown placeholders and channels whose provider module is not installed are refused.", "orders.manage",
   obj(NR, ["name", "event", "channel", "template"]), route=("POST", "/order-notification-rules"))
op("list_notification_rules", "Notification rules, oldest first; filters event, channel, is_active.", "orders.view",
   obj({"event": S(maxLength=100), "channel": S(enum=["sms", "whatsapp", "email", "in_app"]), "is_active": {"type": "boolean"}}), route=("GET", "/order-notification-rules"))
op("get_notification_rule", "One notification rule.", "orders.view", obj({"rule_id": RULE}, ["rule_id"]), route=("GET", "/order-notification-rules/:rule_id"))
op("update_notification_rule", "Changes a notification rule (fields given are replaced; the whole rule is checked again).", "orders.manage", obj({"rule_id": RULE, **NR}, ["rule_id"]), route=("PUT", "/order-notification-rules/:rule_id"))
op("delete_notification_rule", "Deletes a notification rule; its send log stays.", "orders.manage", obj({"rule_id": RULE}, ["rule_id"]), route=("DELETE", "/order-notification-rules/:rule_id"))
op("test_notification_rule", "Renders the rule for an order (order_id) or sample values and sends it to `to`/`user_id` or the rule's recipient; dry_run only renders. Answers what was sent.", "orders.manage",
   obj({"rule_id": RULE, "order_id": S(minLength=1, maxLength=100), "sample": obj({k: S(maxLength=500) for k in ["order_number", "customer_name", "total", "status", "tracking_url", "return_number"]}),
        "to": S(minLength=3, maxLength=254, description="phone number or email address for this test"), "user_id": {"type": "integer", "minimum": 1, "description": "in_app: the user to notify"},
        "dry_run": {"type": "boolean", "default": False}}, ["rule_id"]),
   route=("POST", "/order-notification-rules/:rule_id/test"))
op("list_notification_sends", "Send log of a rule, newest first: event, order, channel, recipient, status (sending, retrying, sent, failed, skipped), attempts, next_attempt_at, error (the last attempt's), provider message id.", "orders.view",
   obj({"rule_id": RULE, "status": S(enum=["sending", "retrying", "sent", "failed", "skipped"]), "order_id": UUID, "limit": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}, "offset": {"type": "integer", "minimum": 0, "default": 0}}, ["rule_id"]),
   route=("GET", "/order-notification-rules/:rule_id/sends"))
op("retry_notification_sends", "Sends again every notification whose retry is due (transient failures: 1, 5, 15 minutes; run every minute by the schedule notification_retries).", "orders.manage",
   obj({"schedule": S(), "scheduled_at": S()}), route=("POST", "/order-notification-rules/retry-due"))
op("create", "Creates an order: items priced, GST computed per line, totals, order.created published.", "orders.create",
   obj({"order_number": S(minLength=1, maxLength=50, pattern="^[A-Za-z0-9_./-]+$"), "customer": CUSTOMER, "items": {"type": "array", "minItems": 1, "maxItems": 500, "items": ITEM},
        "currency": S(pattern="^[A-Z]{3}$", default="INR"), "is_cod": {"type": "boolean", "default": False}, "same_state": {"type": "boolean", "description": "intra-state supply (CGST+SGST); default: compare the shipping address state with the seller state, else true"},
        "status": S(enum=["pending", "confirmed"], default="pending"), "discount": MONEY, "shipping_total": MONEY, "billing_address": ADDRESS, "shipping_address": ADDRESS, "billing_gstin": S(maxLength=20, description="the buyer's GSTIN (15 characters, checked) when registered"),
        "custom_fields": {"type": "object"}, "notes": S(maxLength=5000), "source": S(maxLength=100)}, ["customer", "items"]),
   ORDER_OUT, ("POST", "/orders"))
op("list", "Lists orders: filters (status, payment_status, is_cod, customer, dates, custom fields), search over order number, customer id and customer name, sort, pagination.", "orders.view",
   obj({"status": S(), "payment_status": S(), "fulfillment_status": S(), "is_cod": {"type": "boolean"}, "customer_id": S(), "search": S(maxLength=100, description="part of the order number, customer id or customer name, any case"), "from": S(), "to": S(),
        "sort": S(enum=["created_at", "-created_at", "total", "-total", "order_number", "-order_number", "newest", "oldest", "price_asc", "price_desc"], default="-created_at", description="a column, - first for descending; or spec 1's screen words newest, oldest, price_asc, price_desc"), "page": {"type": "integer", "minimum": 1, "default": 1}, "per_page": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
        "custom_fields": {"type": "object", "description": "is_filterable custom fields, {field_key: value}, all must match; in a query string custom_fields[field_key]=value"}}, extra=True),
   {"type": "object", "properties": {"data": {"type": "array"}, "pagination": {"type": "object"}}}, ("GET", "/orders"))
op("get", "One order by id or order_number, with items, totals and can_ship.", "orders.view", obj({"id": ID}, ["id"]), ORDER_OUT, ("GET", "/orders/:id"))
op("update_status", "Moves an order along its lifecycle (confirmed → processing → ready_to_ship, cancelled, and the tracking states); shipped only through ship.", "orders.manage",
   obj({"id": ID, "status": S(enum=["pending", "confirmed", "processing", "ready_to_ship", "shipped", "out_for_delivery", "delivered", "rto_initiated", "rto_received", "cancelled"]), "reason": S(maxLength=500)}, ["id", "status"]),
   ORDER_OUT, ("POST", "/orders/:id/status"))
op("cancel", "Cancels an order that has not shipped.", "orders.manage", obj({"id": ID, "reason": S(maxLength=500)}, ["id"]), ORDER_OUT, ("POST", "/orders/:id/cancel"))
op("delete", "Deletes an order that has no payments, invoices or shipments.", "orders.delete", obj({"id": ID}, ["id"]), route=("DELETE", "/orders/:id"))
op("history", "Status history of an order.", "orders.view", obj({"id": ID}, ["id"]), route=("GET", "/orders/:id/history"))
op("record_payment", "Records a payment (cod with collected_by, bank_transfer, or an online gateway) and reconciles total_paid, balance_due and payment_status in the same transaction; publishes order.payment_updated.", "orders.manage",
   obj({"id": ID, "method": S(minLength=2, maxLength=50), "amount": MONEY, "status": S(enum=["pending", "completed", "failed"], default="completed"), "external_payment_id": S(maxLength=255), "provider_module": S(maxLength=100),
        "metadata": {"type": "object"}, "collected_by": S(maxLength=255), "paid_at": S()}, ["id", "method", "amount"]), route=("POST", "/orders/:id/payments"))
op("list_payments", "Payments of an order.", "orders.view", obj({"id": ID}, ["id"]), route=("GET", "/orders/:id/payments"))
op("create_payment_link", "Asks a payment provider module (payment.createLink contract) for a link for the balance due; records a pending payment with the link.", "orders.manage",
   obj({"id": ID, "provider_module": S(minLength=2, maxLength=100), "expires_in_minutes": {"type": "integer", "minimum": 15, "maximum": 259200}}, ["id"]), route=("POST", "/orders/:id/payments/link"))
op("confirm_payment", "Marks a pending (link) payment completed or failed, e.g. from a gateway callback; reconciles the order.", "orders.manage",
   obj({"id": ID, "payment_id": UUID, "status": S(enum=["completed", "failed"]), "external_payment_id": S(maxLength=255), "metadata": {"type": "object"}}, ["id", "payment_id", "status"]),
   route=("POST", "/orders/:id/payments/:payment_id/confirm"))
op("refund", "Refunds part or all of a completed payment; forwarded to the provider module when the payment was external. A refund the gateway answers pending stays pending (its amount reserved, not yet in total_refunded) until the gateway's webhook or the refund_sync poll settles it; order.refund_processed is published once, when it completes.", "orders.manage",
   obj({"id": ID, "payment_id": UUID, "amount": MONEY, "reason": S(minLength=1, maxLength=500), "issue_credit_note": {"type": "boolean", "default": False}}, ["id", "payment_id", "amount", "reason"]),
   route=("POST", "/orders/:id/refund"))
op("list_refunds", "Refunds of an order.", "orders.view", obj({"id": ID}, ["id"]), route=("GET", "/orders/:id/refunds"))
op("create_invoice", "Issues an invoice, credit note or proforma: items loaded, GST calculated, next gap-free number <PREFIX>-<YYYYMM>-<NNNN>, due 30 days out, PDF rendered.", "orders.manage",
   obj({"id": ID, "type": S(enum=["invoice", "credit_note", "proforma"], default="invoice"), "amount": MONEY, "reason": S(maxLength=500), "refund_id": UUID, "billing_name": S(maxLength=255), "billing_gstin": S(maxLength=20, description="the buyer's GSTIN (checked); default the order's"), "pdf": {"type": "boolean", "default": True}}, ["id"]),
   route=("POST", "/orders/:id/invoices"))
op("create_credit_note", "Credit note for a partial or full refund, with an amount and a reason (internal; also POST /orders/{id}/invoices with type credit_note).", "orders.manage",
   obj({"id": ID, "amount": MONEY, "reason": S(minLength=1, maxLength=500), "refund_id": UUID}, ["id", "amount", "reason"]))
op("list_invoices", "Invoices, credit notes and proformas of an order.", "orders.view", obj({"id": ID}, ["id"]), route=("GET", "/orders/:id/invoices"))
op("ship", "Creates a shipment (optionally partial, by order_item_ids), moves the order to shipped; publishes order.shipment_created and order.fulfilled. May be repeated for several packages. With book=true the carrier module books it (createShipment) and returns the AWB.", "orders.manage",
   obj({"id": ID, "carrier_module": S(minLength=2, maxLength=100), "awb_number": S(minLength=1, maxLength=100), "tracking_url": S(maxLength=2000), "label_url": S(maxLength=2000), "estimated_delivery_at": S(),
        "dimensions": obj({"length": {"type": ["number", "string"]}, "width": {"type": ["number", "string"]}, "height": {"type": ["number", "string"]}, "weight": {"type": ["number", "string"]}}, extra=True),
        "order_item_ids": {"type": "array", "items": UUID, "minItems": 1}, "book": {"type": "boolean", "default": False}, "pickup_address": {"type": "object"}}, ["id", "carrier_module"]),
   route=("POST", "/orders/:id/ship"))
op("list_shipments", "All shipments of an order with their tracking events and NDR cases.", "orders.view", obj({"id": ID}, ["id"]), route=("GET", "/orders/:id/shipments"))
op("shipping_rates", "Asks a carrier module (shipping.getRates contract) for rates for this order.", "orders.view",
   obj({"id": ID, "carrier_module": S(minLength=2), "pickup_pincode": S(), "weight": {"type": ["number", "string"]}, "dimensions": {"type": "object"}}, ["id", "carrier_module", "pickup_pincode"]),
   route=("POST", "/orders/:id/shipping-rates"))
op("calculate_tax", "GST on an amount (spec 3 tax calculation): rate by the four-step lookup; CGST+SGST halves intra-state, IGST inter-state.", "orders.view",
   obj({"amount": MONEY, "hsn_code": S(maxLength=20), "same_state": {"type": "boolean", "default": True}, "rate_override": {"type": ["string", "number"]}}, ["amount"]),
   {"type": "object", "properties": {"rate": S(), "cgst": S(), "sgst": S(), "igst": S(), "total_tax": S(), "rate_source": S()}}, ("POST", "/order-tax/calculate"))
TAXCFG = {"name": S(minLength=1, maxLength=100), "rate": {"type": ["string", "number"]}, "type": S(enum=["gst", "vat", "sales_tax"]), "is_default": {"type": "boolean"}, "hsn_codes": {"type": "array", "items": {"type": ["string", "integer"]}, "maxItems": 1000}}
op("list_tax_configs", "Tax configurations.", "orders.view", obj({"type": S(enum=["gst", "vat", "sales_tax"])}), route=("GET", "/order-tax-configurations"))
op("create_tax_config", "Creates a tax configuration; is_default replaces the type's previous default.", "orders.manage", obj(TAXCFG, ["name", "rate", "type"]), route=("POST", "/order-tax-configurations"))
op("get_tax_config", "One tax configuration.", "orders.view", obj({"config_id": {"type": "integer", "minimum": 1}}, ["config_id"]), route=("GET", "/order-tax-configurations/:config_id"))
op("update_tax_config", "Updates a tax configuration.", "orders.manage", obj({"config_id": {"type": "integer", "minimum": 1}, **TAXCFG}, ["config_id"]), route=("PUT", "/order-tax-configurations/:config_id"))
op("delete_tax_config", "Deletes a tax configuration.", "orders.manage", obj({"config_id": {"type": "integer", "minimum": 1}}, ["config_id"]), route=("DELETE", "/order-tax-configurations/:config_id"))
SETTINGS = {"seller_state": S(maxLength=50), "default_payment_provider": S(maxLength=100), "ndr_max_attempts": {"type": "integer", "minimum": 1, "maximum": 10}, "ndr_auto_reattempt": {"type": "boolean"}, "webhook_retry_backoff_ms": {"type": "integer", "minimum": 1000, "maximum": 3600000}}
op("get_settings", "Orders settings of the tenant (seller state for GST, default payment provider, NDR rules).", "orders.view", obj({}), route=("GET", "/order-settings"))
op("update_settings", "Changes orders settings.", "orders.manage", obj(SETTINGS), route=("PUT", "/order-settings"))
# The supplier on tax invoices (Rule 46 of the CGST Rules); spec 3 leaves the route unshown.
PROFILE = {"legal_name": S(minLength=1, maxLength=255), "trade_name": S(maxLength=255), "gstin": {"type": ["string", "null"], "maxLength": 20, "description": "15 characters: state code, PAN, entity number, Z, check character; null when not registered"},
           "address": obj({"line1": S(maxLength=255), "line2": S(maxLength=255), "city": S(maxLength=100), "state": S(maxLength=60, description="state name or GST state code; must match the GSTIN's"), "pincode": S(maxLength=10), "country": S(maxLength=60)}),
           "email": S(maxLength=255), "phone": S(maxLength=30), "signatory": S(maxLength=255, description="name printed above Authorised Signatory")}
op("get_business_profile", "The tenant's business profile: the supplier's name, address and GSTIN printed on tax invoices and credit notes.", "orders.view", obj({}), route=("GET", "/order-settings/business-profile"))
op("update_business_profile", "Sets the business profile (fields given are merged; the whole profile is checked: legal name, address with state and PIN code, GSTIN format, check character and state). Its state becomes the seller state for GST.", "orders.manage",
   obj(PROFILE), route=("PUT", "/order-settings/business-profile"))

def col(t, **kw): return {"type": t, **kw}
M = lambda: col("decimal", precision=14, scale=2, nullable=False, default="0")
NOW = {"$fn": "now"}
models = {
  "Order": {"table": "orders", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_number": col("string", length=50, nullable=False, unique=True),
    "status": col("string", length=30, nullable=False, default="pending"), "payment_status": col("string", length=20, nullable=False, default="pending"),
    "fulfillment_status": col("string", length=20, nullable=False, default="unfulfilled"),
    "customer_id": col("string", length=100), "customer": col("json", nullable=False, default={}),
    # customer.name as a column, for the list's search (host.db compares json columns only by containment).
    "customer_name": col("string", length=255), "currency": col("string", length=3, nullable=False, default="INR"),
    "is_cod": col("boolean", nullable=False, default=False), "same_state": col("boolean", nullable=False, default=True),
    "subtotal": M(), "discount": M(), "shipping_total": M(), "tax_total": M(), "total": M(), "total_paid": M(), "total_refunded": M(), "total_credited": M(), "balance_due": M(),
    "tax_details": col("json", nullable=False, default={}), "billing_address": col("json"), "shipping_address": col("json"), "billing_gstin": col("string", length=15),
    "custom_fields": col("json", nullable=False, default={}), "notes": col("text"), "source": col("string", length=100),
    "version": col("integer", nullable=False, default=1), "cancel_reason": col("string", length=500), "cancelled_at": col("datetime"), "delivered_at": col("datetime"),
    "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW),
    "import_hash": col("string", length=120)},
    "indexes": [{"fields": ["status", "created_at"]}, {"fields": ["payment_status"]}, {"fields": ["customer_id"]}, {"fields": ["created_at"]}]},
  "OrderItem": {"table": "order_items", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_id": col("uuid", nullable=False), "position": col("integer", nullable=False),
    "name": col("string", length=255, nullable=False), "sku": col("string", length=100), "hsn_code": col("string", length=20), "quantity": col("integer", nullable=False),
    "unit_price": M(), "discount": M(), "taxable_amount": M(), "tax_rate": col("decimal", precision=5, scale=2, nullable=False), "rate_source": col("string", length=20),
    "cgst": M(), "sgst": M(), "igst": M(), "tax_total": M(), "total": M(), "weight": col("decimal", precision=10, scale=3), "unit": col("string", length=10)},
    "indexes": [{"fields": ["order_id", "position"], "unique": True}]},
  "StatusChange": {"table": "order_status_history", "columns": {
    "id": col("bigint", primaryKey=True, autoIncrement=True), "order_id": col("uuid", nullable=False), "from_status": col("string", length=30), "to_status": col("string", length=30, nullable=False),
    "reason": col("string", length=500), "actor": col("string", length=100), "created_at": col("datetime", nullable=False, default=NOW)}, "indexes": [{"fields": ["order_id", "id"]}]},
  "Payment": {"table": "payments", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_id": col("uuid", nullable=False), "provider_module": col("string", length=100), "external_payment_id": col("string", length=255),
    "method": col("string", length=50, nullable=False), "status": col("string", length=20, nullable=False), "amount": M(), "refunded_amount": M(), "currency": col("string", length=3, nullable=False),
    "payment_link_url": col("string", length=2000), "payment_link_expires_at": col("datetime"), "metadata": col("json", nullable=False, default={}), "collected_by": col("string", length=255),
    "paid_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW)},
    "indexes": [{"fields": ["order_id"]}, {"fields": ["provider_module", "external_payment_id"], "unique": True}]},
  "Refund": {"table": "refunds", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_id": col("uuid", nullable=False), "payment_id": col("uuid"), "provider_module": col("string", length=100),
    "external_refund_id": col("string", length=255), "amount": M(), "reason": col("string", length=500, nullable=False), "status": col("string", length=20, nullable=False),
    "failure_reason": col("string", length=1000), "processed_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW),
    "credit_note_requested": col("boolean", nullable=False, default=False)},
    "indexes": [{"fields": ["order_id"]}, {"fields": ["provider_module", "external_refund_id"]}, {"fields": ["status", "created_at"]}]},
  "TaxConfig": {"table": "tax_configurations", "columns": {
    "id": col("integer", primaryKey=True, autoIncrement=True), "name": col("string", length=100, nullable=False), "rate": col("decimal", precision=5, scale=2, nullable=False),
    "type": col("string", length=20, nullable=False), "is_default": col("boolean", nullable=False, default=False), "hsn_codes": col("json", nullable=False, default=[]),
    "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW)}},
  "Invoice": {"table": "invoices", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_id": col("uuid", nullable=False), "invoice_number": col("string", length=30, nullable=False, unique=True),
    "type": col("string", length=20, nullable=False), "status": col("string", length=20, nullable=False), "subtotal": M(), "tax_details": col("json", nullable=False, default={}), "total_tax": M(),
    "discount": M(), "total": M(), "currency": col("string", length=3, nullable=False, default="INR"), "billing_name": col("string", length=255), "billing_gstin": col("string", length=15),
    "line_items": col("json", nullable=False, default=[]), "reason": col("string", length=500), "refund_id": col("uuid"), "pdf_path": col("string", length=1000), "pdf_url": col("string", length=1000),
    "issued_at": col("datetime"), "due_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW),
    # As at issue: the supplier (business profile), the place of supply, and for a credit note the invoice it adjusts.
    "seller": col("json"), "place_of_supply": col("json"), "original_invoice": col("json")}, "indexes": [{"fields": ["order_id"]}]},
  "Shipment": {"table": "shipments", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "order_id": col("uuid", nullable=False), "carrier_module": col("string", length=100, nullable=False), "awb_number": col("string", length=100, nullable=False),
    "status": col("string", length=30, nullable=False, default="pending"), "tracking_url": col("string", length=2000), "label_url": col("string", length=2000), "pickup_token": col("string", length=255),
    "estimated_delivery_at": col("datetime"), "order_item_ids": col("json", nullable=False, default=[]), "dimensions": col("json"), "cod_amount": M(), "ndr_count": col("integer", nullable=False, default=0),
    "shipped_at": col("datetime"), "delivered_at": col("datetime"), "last_synced_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW)},
    "indexes": [{"fields": ["order_id"]}, {"fields": ["carrier_module", "awb_number"], "unique": True}, {"fields": ["status"]}]},
  "ShipmentEvent": {"table": "shipment_events", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "shipment_id": col("uuid", nullable=False), "status": col("string", length=30, nullable=False), "location": col("string", length=255),
    "description": col("string", length=1000), "raw_data": col("json"), "occurred_at": col("datetime", nullable=False), "fingerprint": col("string", length=300, nullable=False)},
    "indexes": [{"fields": ["shipment_id", "occurred_at"]}, {"fields": ["shipment_id", "fingerprint"], "unique": True}]},
  "NdrCase": {"table": "ndr_cases", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "shipment_id": col("uuid", nullable=False), "order_id": col("uuid", nullable=False), "attempt_number": col("integer", nullable=False),
    "reason": col("string", length=500), "action": col("string", length=30), "escalated": col("boolean", nullable=False, default=False), "resolved_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW)},
    "indexes": [{"fields": ["shipment_id", "attempt_number"], "unique": True}]},
  "WebhookEndpoint": {"table": "webhook_endpoints", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "url": col("string", length=2000, nullable=False), "secret": col("string", length=500, nullable=False),
    "events": col("json", nullable=False, default=[]), "is_active": col("boolean", nullable=False, default=True), "description": col("string", length=500),
    "consecutive_failures": col("integer", nullable=False, default=0), "disabled_at": col("datetime"), "disabled_reason": col("string", length=500),
    "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW)}},
  "WebhookDelivery": {"table": "webhook_deliveries", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "endpoint_id": col("uuid", nullable=False), "event": col("string", length=100, nullable=False),
    "payload": col("json", nullable=False, default={}), "status": col("string", length=20, nullable=False), "attempts": col("integer", nullable=False, default=0),
    "next_attempt_at": col("datetime"), "last_status": col("integer"), "last_duration_ms": col("integer"), "last_error": col("text"),
    "attempt_log": col("json", nullable=False, default=[]), "created_at": col("datetime", nullable=False, default=NOW), "delivered_at": col("datetime"),
    # The module event's id: one delivery per endpoint and event, however often the event is redelivered.
    "event_id": col("string", length=100)},
    "indexes": [{"fields": ["endpoint_id", "created_at"]}, {"fields": ["status", "next_attempt_at"]}, {"fields": ["endpoint_id", "event_id"], "unique": True}]},
  "CustomField": {"table": "custom_fields", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "field_key": col("string", length=64, nullable=False, unique=True), "field_label": col("string", length=255, nullable=False),
    "field_type": col("string", length=20, nullable=False), "options": col("json", nullable=False, default=[]), "is_required": col("boolean", nullable=False, default=False),
    "is_filterable": col("boolean", nullable=False, default=False), "sort_order": col("integer", nullable=False, default=0),
    "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW)}},
  "NotificationRule": {"table": "notification_rules", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "name": col("string", length=255, nullable=False), "event": col("string", length=100, nullable=False),
    "channel": col("string", length=20, nullable=False), "recipient_type": col("string", length=20, nullable=False), "recipient": col("string", length=254), "recipient_user_id": col("integer"),
    "subject": col("string", length=255), "template": col("text", nullable=False), "conditions": col("json", nullable=False, default={}), "is_active": col("boolean", nullable=False, default=True),
    "created_at": col("datetime", nullable=False, default=NOW), "updated_at": col("datetime", nullable=False, default=NOW)},
    "indexes": [{"fields": ["event", "is_active"]}]},
  # One row per (rule, event id): inserting it claims the send, so a redelivered event sends nothing.
  "NotificationSend": {"table": "notification_sends", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "rule_id": col("uuid", nullable=False), "event_id": col("string", length=100), "event": col("string", length=100),
    "order_id": col("uuid"), "order_number": col("string", length=100), "channel": col("string", length=20, nullable=False), "recipient": col("string", length=254),
    "subject": col("string", length=255), "text": col("text"), "status": col("string", length=20, nullable=False), "error": col("text"), "provider_message_id": col("string", length=255),
    "is_test": col("boolean", nullable=False, default=False), "attempts": col("integer", nullable=False, default=1), "claimed_at": col("datetime"),
    "next_attempt_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW), "sent_at": col("datetime")},
    "indexes": [{"fields": ["rule_id", "event_id"], "unique": True}, {"fields": ["rule_id", "created_at"]}, {"fields": ["status", "next_attempt_at"]}]},
  "OrderImport": {"table": "order_imports", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "status": col("string", length=30, nullable=False), "source": col("string", length=100, nullable=False),
    "filename": col("string", length=255), "file_size": col("integer"), "total_rows": col("integer", nullable=False, default=0), "processed_rows": col("integer", nullable=False, default=0),
    "created": col("integer", nullable=False, default=0), "updated": col("integer", nullable=False, default=0), "unchanged": col("integer", nullable=False, default=0), "failed": col("integer", nullable=False, default=0),
    "error_count": col("integer", nullable=False, default=0), "errors": col("json", nullable=False, default=[]), "failure_reason": col("text"), "requested_by": col("string", length=100),
    "cancel_requested_at": col("datetime"), "started_at": col("datetime"), "finished_at": col("datetime"), "created_at": col("datetime", nullable=False, default=NOW)},
    "indexes": [{"fields": ["created_at"]}]},
  "OrderImportChunk": {"table": "order_import_chunks", "columns": {
    "id": col("uuid", primaryKey=True, default={"$fn": "uuid"}), "import_id": col("uuid", nullable=False), "chunk_index": col("integer", nullable=False),
    "rows": col("integer", nullable=False), "created": col("integer", nullable=False), "updated": col("integer", nullable=False), "unchanged": col("integer", nullable=False),
    "failed": col("integer", nullable=False), "error_count": col("integer", nullable=False), "errors": col("json", nullable=False, default=[])},
    "indexes": [{"fields": ["import_id", "chunk_index"], "unique": True}]},
  "Setting": {"table": "settings", "columns": {"key": col("string", length=100, primaryKey=True), "value": col("json")}},
}

# Spec 2 Tools: orders offers 10 AI tools. Reads an assistant needs, plus actions whose names let
# rule 2 infer the permission they really need (create -> orders.create, update -> orders.manage);
# everything else (internal jobs, provider callbacks, configuration, money movements) is ai_tool: false.
AI_TOOLS = ["orders.get", "orders.getStats", "orders.list", "orders.history", "orders.list_payments", "orders.list_refunds",
            "orders.list_shipments", "orders.calculate_tax", "orders.create", "orders.update_status"]
assert len(AI_TOOLS) == 10 and all(any(o["name"] == t for o in ops) for t in AI_TOOLS)
for o in ops:
    if o["name"] not in AI_TOOLS: o["ai_tool"] = False
events = ["order.created", "order.status_changed", "order.payment_updated", "order.refund_processed", "order.shipment_created", "order.fulfilled", "order.delivered"]
def node_config(opn):
    """A node's config is its operation's input; the order id may come from the node's input instead."""
    inp = next(o for o in ops if o["name"] == opn).get("input", {})
    req = [k for k in inp.get("required", []) if k != "id"]
    return {"type": "object", "properties": dict(inp.get("properties", {})), **({"required": req} if req else {})}
node = lambda slug, name, cat, desc, opn: {"type": f"orders:{slug}", "name": name, "category": cat, "description": desc, "operation": opn, "icon": "shopping-cart", "color": "#2563eb",
   "inputs": [{"name": "input", "type": "object", "required": False}], "outputs": [{"name": "output", "type": "object"}], "configSchema": node_config(opn)}
nodes = [
  {"type": "orders:order-created", "name": "Order created", "category": "trigger", "description": "Starts when an order is created.", "event": "order.created", "icon": "shopping-cart", "color": "#2563eb", "outputs": [{"name": "output", "type": "object"}]},
  {"type": "orders:status-changed", "name": "Order status changed", "category": "trigger", "description": "Starts on any order status transition.", "event": "order.status_changed", "icon": "shopping-cart", "color": "#2563eb", "outputs": [{"name": "output", "type": "object"}]},
  {"type": "orders:delivered", "name": "Order delivered", "category": "trigger", "description": "Starts when an order is delivered.", "event": "order.delivered", "icon": "shopping-cart", "color": "#2563eb", "outputs": [{"name": "output", "type": "object"}]},
  node("get-order", "Get order", "action", "Loads an order by id or number.", "orders.get"),
  node("update-status", "Update order status", "action", "Moves an order to a new status.", "orders.update_status"),
  node("record-payment", "Record payment", "action", "Records a payment on an order.", "orders.record_payment"),
  node("payment-link", "Send payment link", "action", "Creates a payment link for the balance due.", "orders.create_payment_link"),
  node("create-invoice", "Create invoice", "action", "Issues an invoice, credit note or proforma.", "orders.create_invoice"),
  node("ship-order", "Ship order", "action", "Creates a shipment for an order.", "orders.ship"),
  node("calculate-gst", "Calculate GST", "transformer", "GST on an amount.", "orders.calculate_tax"),
]
manifest = {
  "$schema": "../../sdk/manifest/manifest.schema.json",
  "name": "orders", "version": "1.0.0",
  "description": "Orders: lifecycle, payments and refunds with reconciliation, Indian GST, gap-free invoice numbering with credit notes and PDFs, shipments with partial fulfilment, carrier tracking and NDR (spec 3).",
  "compatibility": {"platform": "^2.0.0"}, "main": "dist/index.js",
  "api": {"provides": ops, "consumes": ["payment_razorpay.*", "shipping_shiprocket.*", "sms_msg91.*", "whatsapp_cloud.*", "documents.render_pdf"]},
  "events": {"namespace": "order", "publishes": events + ["order.imported"], "subscribes": events + ["order.imported"]},
  "schedules": [{"name": "analytics_refresh", "operation": "orders.refresh_analytics", "every_ms": 900000}, {"name": "webhook_retries", "operation": "orders.deliver_webhooks", "every_ms": 60000}, {"name": "notification_retries", "operation": "orders.retry_notification_sends", "every_ms": 60000}, {"name": "tracking_sync", "operation": "orders.sync_tracking", "every_ms": 1800000}, {"name": "refund_sync", "operation": "orders.sync_refunds", "every_ms": 300000}, {"name": "payment_link_sync", "operation": "orders.sync_payment_links", "every_ms": 300000}],
  "http": {"routes": routes},
  "permissions": [
    {"name": "orders.view", "description": "See orders, their payments, refunds, invoices, shipments and tax settings."},
    {"name": "orders.create", "description": "Create orders."},
    {"name": "orders.manage", "description": "Change orders: status, payments, refunds, invoices, shipping, tax configurations and settings."},
    {"name": "orders.delete", "description": "Delete orders that have no payments, invoices or shipments."}],
  "graphql": {"schema": "graphql/schema.graphql", "resolvers": "graphql/resolvers.json"},
  "mobile": {"screens": [
      {"id": "orders.list", "title": "Orders", "icon": "shopping-cart", "layout": "scroll", "route": "/orders", "version": 1},
      {"id": "orders.detail", "title": "Order", "icon": "receipt", "layout": "scroll", "route": "/orders/:id", "version": 1}],
    "screenProviders": {"orders.list": {"file": "screens/orders.list.json"}, "orders.detail": {"file": "screens/orders.detail.json"}}},
  "workflow": {"nodes": nodes},
  "data": {"models": models, "migrations": [{"id": "001_analytics_views", "up": "migrations/001_analytics_views.up.sql", "down": "migrations/001_analytics_views.down.sql"}, {"id": "002_custom_fields_index", "up": "migrations/002_custom_fields_index.up.sql", "down": "migrations/002_custom_fields_index.down.sql"}, {"id": "003_customer_name", "up": "migrations/003_customer_name.up.sql", "down": "migrations/003_customer_name.down.sql"}]},
  "limits": {"memory_mb": 128, "timeout_ms": 15000},
}
with open(os.path.join(here, "..", "module.json"), "w") as f:
    json.dump(manifest, f, indent=2)
    f.write("\n")
print(len(ops), "operations,", len(routes), "routes")
