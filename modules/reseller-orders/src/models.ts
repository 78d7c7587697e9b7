/**
 * The reseller-orders tables (spec 3, Chain order). Every tenant an order passes through keeps its
 * own copy, with what it may see: its own cost, its price to the level below, the path so far.
 */
import type { Column, Data } from '../../../sdk';

const NOW = { $fn: 'now' } as const;
const col = (type: Column['type'], options: Omit<Column, 'type'> = {}): Column => ({ type, ...options });
const money = () => col('decimal', { precision: 14, scale: 2, nullable: false, default: '0' });

export const data: Data = {
  models: {
    ChainOrder: {
      table: 'chain_orders',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        /** Names the order across the copies of all levels: "<origin tenant>:<origin order id>". */
        chain_ref: col('string', { length: 100, nullable: false, unique: true }),
        origin_tenant_id: col('string', { length: 63, nullable: false }),
        origin_order_id: col('string', { length: 100 }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        chain_status: col('string', { length: 20, nullable: false, default: 'pending_forward' }),
        chain_path: col('json', { nullable: false, default: [] }),
        child_tenant_id: col('string', { length: 63 }),
        parent_tenant_id: col('string', { length: 63 }),
        is_fulfiller: col('boolean', { nullable: false, default: false }),
        customer: col('json', { nullable: false, default: {} }),
        customer_name: col('string', { length: 255 }),
        shipping_address: col('json'),
        items: col('json', { nullable: false, default: [] }),
        origin_total: money(),
        your_cost: money(),
        /** What this level charges the level below (its child's cost); the customer's total at the origin. */
        sell_total: money(),
        cod_amount: money(),
        payment_method: col('string', { length: 20, nullable: false, default: 'cod' }),
        payment_status: col('string', { length: 20, nullable: false, default: 'pending' }),
        carrier: col('string', { length: 100 }),
        tracking_number: col('string', { length: 100 }),
        shipped_at: col('datetime'),
        delivered_at: col('datetime'),
        /** The fulfiller's stock reservation closed (stock-repair.ts: null on copies finished before it was kept). */
        stock_closed_at: col('datetime'),
        cancel_reason: col('string', { length: 500 }),
        /** The child as the buyer on this level's GST invoice to it (level-gst.ts), sent with the forward. */
        buyer_party: col('json'),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['chain_status', 'created_at'] }, { fields: ['origin_order_number'] }, { fields: ['created_at'] }],
    },
    TimelineEntry: {
      table: 'chain_order_timeline',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        chain_order_id: col('uuid', { nullable: false }),
        status: col('string', { length: 20, nullable: false }),
        note: col('string', { length: 500 }),
        tenant_id: col('string', { length: 63, nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['chain_order_id', 'created_at'] }],
    },
    /**
     * A GST tax invoice or credit note this level issued to the level below for its sale of a chain
     * order (README: GST invoices between levels). The parties, place of supply and lines are kept as
     * they were at issue, so a later change of profile never alters an issued document.
     */
    LevelInvoice: {
      table: 'chain_order_level_invoices',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        /** Once each: "<chain_ref>:invoice", "<chain_ref>:credit_note" (return, full refund), "<chain_ref>:credit_note:<refund id>" (partial refund). */
        key: col('string', { length: 250, nullable: false, unique: true }),
        chain_order_id: col('uuid', { nullable: false }),
        chain_ref: col('string', { length: 100, nullable: false }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        type: col('string', { length: 20, nullable: false }),
        invoice_number: col('string', { length: 16, nullable: false, unique: true }),
        buyer_tenant_id: col('string', { length: 63, nullable: false }),
        seller: col('json', { nullable: false }),
        buyer: col('json', { nullable: false }),
        place_of_supply: col('json'),
        same_state: col('boolean', { nullable: false }),
        lines: col('json', { nullable: false, default: [] }),
        taxable_value: money(),
        cgst: money(),
        sgst: money(),
        igst: money(),
        total_tax: money(),
        total: money(),
        currency: col('string', { length: 3, nullable: false, default: 'INR' }),
        /** Credit notes: the invoice they reverse (Rule 53). */
        original_invoice: col('json'),
        reason: col('string', { length: 500 }),
        pdf_path: col('string', { length: 500 }),
        pdf_url: col('string', { length: 500 }),
        issued_at: col('datetime', { nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['chain_order_id'] }, { fields: ['issued_at'] }, { fields: ['buyer_tenant_id', 'issued_at'] }],
    },
    /** The buyer's own PDF of an invoice its parent issued to it, rendered once (its files are its own: core/services/documents). */
    ReceivedInvoicePdf: {
      table: 'chain_order_received_invoice_pdfs',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        invoice_id: col('uuid', { nullable: false, unique: true }),
        pdf_path: col('string', { length: 500, nullable: false }),
        pdf_url: col('string', { length: 500, nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
    },
    /**
     * A state handed to a level below that did not arrive at once (spec 3, States and transitions:
     * every level sees the order's progress): retried by the push job, then, once its attempts are
     * spent, stuck with its reason until the re-drive schedule or an admin's retry applies it.
     */
    Propagation: {
      table: 'chain_order_propagations',
      columns: {
        id: col('uuid', { primaryKey: true, default: { $fn: 'uuid' } }),
        /** One per chain order, level below and state: "<chain_ref>:<tenant>:<status>" (the push job's key). */
        key: col('string', { length: 200, nullable: false, unique: true }),
        chain_order_id: col('uuid', { nullable: false }),
        chain_ref: col('string', { length: 100, nullable: false }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        target_tenant_id: col('string', { length: 63, nullable: false }),
        status: col('string', { length: 20, nullable: false }),
        values: col('json', { nullable: false, default: {} }),
        /** retrying (the push job has attempts left), stuck (re-driven by the schedule), done, superseded (the copy below moved past it). */
        state: col('string', { length: 20, nullable: false, default: 'retrying' }),
        attempts: col('integer', { nullable: false, default: 0 }),
        /** Re-drives that failed since it got stuck: the schedule's backoff. */
        redrives: col('integer', { nullable: false, default: 0 }),
        last_error_code: col('string', { length: 100 }),
        last_error_message: col('string', { length: 500 }),
        last_attempt_at: col('datetime'),
        next_retry_at: col('datetime'),
        stuck_at: col('datetime'),
        done_at: col('datetime'),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['state', 'next_retry_at'] }, { fields: ['chain_order_id'] }],
    },
  },
};
