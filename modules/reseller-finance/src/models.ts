/**
 * The reseller-finance tables (spec 3, Wallet, transaction, remittance). Each tenant keeps its own
 * rows: its wallet, its ledger, its copy of each remittance it pays or receives, its COD collections.
 */
import type { Column, Data } from '../../../sdk';

const NOW = { $fn: 'now' } as const;
const col = (type: Column['type'], options: Omit<Column, 'type'> = {}): Column => ({ type, ...options });
const money = () => col('decimal', { precision: 14, scale: 2, nullable: false, default: '0' });
const id = () => col('uuid', { primaryKey: true, default: { $fn: 'uuid' } });

export const data: Data = {
  models: {
    /** One row per tenant. `version` is the compare-and-set guard of every balance change. */
    Wallet: {
      table: 'wallets',
      columns: {
        id: id(),
        singleton: col('boolean', { nullable: false, default: true, unique: true }),
        balance: money(),
        pending_credits: money(),
        pending_debits: money(),
        total_earned: money(),
        total_paid_out: money(),
        credit_limit: money(),
        /** Held for remittances being processed (hold until the recipient is credited). */
        held: money(),
        currency: col('string', { length: 3, nullable: false, default: 'INR' }),
        last_settlement_at: col('datetime'),
        version: col('integer', { nullable: false, default: 0 }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
    },
    /** A wallet movement (spec 3: types credit, debit, hold, release). Amount is positive. */
    Transaction: {
      table: 'transactions',
      columns: {
        id: id(),
        type: col('string', { length: 10, nullable: false }),
        amount: money(),
        balance_after: money(),
        reference_type: col('string', { length: 30, nullable: false }),
        reference_id: col('string', { length: 100, nullable: false }),
        counterparty_tenant_id: col('string', { length: 63 }),
        description: col('string', { length: 255, nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      // One credit and one debit per reference at most (migration 002's partial unique index): a
      // redelivered settlement writes nothing twice; holds and releases may repeat (a failed delivery).
      indexes: [{ fields: ['reference_type', 'reference_id'] }, { fields: ['created_at', 'id'] }, { fields: ['type'] }],
    },
    /** Double entry: every transaction is two entries whose amounts sum to zero. */
    Entry: {
      table: 'ledger_entries',
      columns: {
        id: id(),
        transaction_id: col('uuid', { nullable: false }),
        account: col('string', { length: 80, nullable: false }),
        amount: col('decimal', { precision: 14, scale: 2, nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['transaction_id'] }, { fields: ['account'] }],
    },
    /** This tenant's copy of a remittance between two adjacent levels of a chain. */
    Remittance: {
      table: 'remittances',
      columns: {
        id: id(),
        chain_ref: col('string', { length: 100, nullable: false }),
        chain_order_id: col('string', { length: 100, nullable: false }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        direction: col('string', { length: 10, nullable: false }),
        payer_tenant_id: col('string', { length: 63, nullable: false }),
        recipient_tenant_id: col('string', { length: 63, nullable: false }),
        counterparty_name: col('string', { length: 255 }),
        amount: money(),
        flow_type: col('string', { length: 10, nullable: false, default: 'upstream' }),
        status: col('string', { length: 20, nullable: false, default: 'pending' }),
        due_date: col('date', { nullable: false }),
        is_overdue: col('boolean', { nullable: false, default: false }),
        due_notified_at: col('datetime'),
        overdue_notified_at: col('datetime'),
        completed_at: col('datetime'),
        created_at: col('datetime', { nullable: false, default: NOW }),
        /**
         * '' for the delivery's remittance; the refund id of a partial refund's adjustment, or
         * `reversal` for what a return or full refund leaves owed back (refund-share.ts, reversal.ts).
         */
        adjustment_ref: col('string', { length: 100, nullable: false, default: '' }),
      },
      indexes: [
        // One per pair and cause (migration 004 drops the pair-only index that came before adjustments).
        { name: 'remittances_pair_adjustment_key', fields: ['chain_ref', 'payer_tenant_id', 'recipient_tenant_id', 'adjustment_ref'], unique: true },
        { fields: ['status', 'direction'] },
        { fields: ['due_date'] },
      ],
    },
    /** Money this tenant collected or is owed for one delivered chain order (spec 3: COD collection). */
    Collection: {
      table: 'collections',
      columns: {
        id: id(),
        chain_ref: col('string', { length: 100, nullable: false, unique: true }),
        chain_order_id: col('string', { length: 100, nullable: false }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        collector_tenant_id: col('string', { length: 63, nullable: false }),
        cod_amount: money(),
        amount: money(),
        /** At the origin: the GST its invoice charged the customer, within `amount` but owed to the tax authority, never earnings. */
        tax_amount: money(),
        /**
         * The GST of the invoices between levels in this level's money (README: Tax): on its invoice to
         * its child (owed to the tax authority) and on its parent's invoice to it (its input tax credit).
         * Within the remittances, never earnings.
         */
        gst_charged: money(),
        gst_paid: money(),
        flow_type: col('string', { length: 10, nullable: false, default: 'upstream' }),
        status: col('string', { length: 10, nullable: false, default: 'pending' }),
        collected_at: col('datetime', { nullable: false, default: NOW }),
        settled_at: col('datetime'),
      },
      indexes: [{ fields: ['status', 'collected_at'] }],
    },
    /**
     * A partial refund of a delivered chain order applied at this level (refund-share.ts), once per
     * refund: what this level gave back to the customer (the collector only) and the GST in it.
     */
    RefundShare: {
      table: 'refund_shares',
      columns: {
        id: id(),
        chain_ref: col('string', { length: 100, nullable: false }),
        refund_id: col('string', { length: 100, nullable: false }),
        chain_order_id: col('string', { length: 100, nullable: false }),
        origin_order_number: col('string', { length: 100, nullable: false }),
        given_back: money(),
        tax_given_back: money(),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['chain_ref', 'refund_id'], unique: true }],
    },
    /**
     * A bank transfer the tenant recorded (README: top-ups and payouts): money it paid into its
     * wallet (top_up) or took out of it to its bank account (payout). The bank's reference (UTR)
     * is unique per kind, so a transfer is recorded once however often it is sent.
     */
    BankTransfer: {
      table: 'bank_transfers',
      columns: {
        id: id(),
        kind: col('string', { length: 10, nullable: false }),
        amount: money(),
        bank_reference: col('string', { length: 64, nullable: false }),
        account_name: col('string', { length: 255, nullable: false }),
        account_number: col('string', { length: 34 }),
        bank_name: col('string', { length: 255 }),
        transfer_date: col('date', { nullable: false }),
        note: col('string', { length: 500 }),
        transaction_id: col('uuid', { nullable: false }),
        recorded_by: col('string', { length: 100 }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['kind', 'bank_reference'], unique: true }],
    },
  },
  migrations: [
    { id: '001_constraints', up: 'migrations/001_constraints.up.sql', down: 'migrations/001_constraints.down.sql' },
    { id: '002_holds', up: 'migrations/002_holds.up.sql', down: 'migrations/002_holds.down.sql' },
    { id: '003_reversals', up: 'migrations/003_reversals.up.sql', down: 'migrations/003_reversals.down.sql' },
    { id: '004_adjustments', up: 'migrations/004_adjustments.up.sql', down: 'migrations/004_adjustments.down.sql' },
  ],
};
