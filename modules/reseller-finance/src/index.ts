/**
 * reseller-finance (spec 3, Wallet, transaction, remittance; Endpoints: Finance): each tenant's
 * wallet and double-entry ledger, the COD collections and remittances of delivered chain orders,
 * and their settlement between adjacent levels of the reseller chain. Declared here beside the
 * handlers; `mandi module build` writes module.json. Decisions the spec leaves open: README.md.
 */
import { defineModule, jobs, operation, related, Type, type HandlerContext } from '../../../sdk';
import { contended, financeErrors, messageOf, notFound, onlyModule, onlyRelated, superAdminOnly } from './errors';
import { data } from './models';
import { reverseDelivery } from './reversal';
import { AMOUNT_PATTERN, D, money } from './money';
import { adminStats, networkFigures, TenantFigures } from './network-stats';
import { allRows, exportPage, filterWhere, listPage, periodStart, PERIODS, settlementSummary, total, walletSummary, type Period } from './reports';
import { completeRemittances, DELIVER_ATTEMPTS, envelope, holdRemittances, paidItem, payHeld, receiveRemittances, recordDelivery, releaseRemittance, remittanceData, type CollectionRow, type RemittanceRow } from './settlement';
import { applyRefundShare } from './refund-share';
import { inTransaction, walletOf, walletView, type TransactionRow, type WalletRow } from './wallet';
import { recordTransfer } from './bank-transfers';
import { statement, statementCsvPage, statementDocument, statementPeriod } from './statement';
import { statementLayout } from './statement-layout';

const Money = Type.String({ pattern: AMOUNT_PATTERN, description: 'decimal amount with at most 2 places, e.g. "1388.88"' });
const Uuid = Type.String({ format: 'uuid' });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD (UTC)' });
const PerPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 }));
const PageNo = Type.Optional(Type.Integer({ minimum: 1, default: 1 }));
const PeriodIn = Type.Optional(Type.StringEnum(PERIODS, { default: 'month' }));
const Loose = Type.Object({}, { additionalProperties: true });
const Pagination = Type.Object({ current_page: Type.Integer(), last_page: Type.Integer(), per_page: Type.Integer(), total: Type.Integer() });
/** The filters of the transaction list and of its CSV export. */
const TRANSACTION_FILTERS = {
  type: Type.Optional(Type.StringEnum(['credit', 'debit', 'hold', 'release'])),
  reference_type: Type.Optional(Type.StringEnum(['chain_order', 'chain_refund', 'remittance', 'top_up', 'payout'])),
  from_date: Type.Optional(Day),
  to_date: Type.Optional(Day),
};
/** Spec 3, Errors and Limits: {error, code, details}; per user, reads 100, writes 30, exports 5 a minute. */
const READ = { error_shape: 'reseller', rate_limit: '100/60' } as const;
const WRITE = { error_shape: 'reseller', rate_limit: '30/60' } as const;
const EXPORT = { error_shape: 'reseller', rate_limit: '5/60' } as const;

const WalletOut = Type.Object({
  id: Type.String(),
  balance: Type.String(),
  available_balance: Type.String(),
  held: Type.String(),
  effective_balance: Type.String(),
  pending_credits: Type.String(),
  pending_debits: Type.String(),
  total_earned: Type.String(),
  total_paid_out: Type.String(),
  credit_limit: Type.String(),
  currency: Type.String(),
  last_settlement_at: Type.Nullable(Type.String()),
});

const Counterparty = Type.Object({ tenant_id: Type.String({ minLength: 1, maxLength: 63 }), name: Type.Optional(Type.Nullable(Type.String())), amount: Money }, { additionalProperties: false });

/** A statement's period (README, Statements): whole UTC days, both ends included; by default this month to today. */
const STATEMENT_PERIOD = { from: Type.Optional(Day), to: Type.Optional(Day) };
const StatementTotals = {
  from: Type.String(),
  to: Type.String(),
  opening_balance: Type.String(),
  credits_total: Type.String(),
  debits_total: Type.String(),
  closing_balance: Type.String(),
  movements_count: Type.Integer(),
};
const StatementLineOut = Type.Object({
  id: Type.String(),
  date: Type.String(),
  type: Type.String(),
  reference_type: Type.String(),
  reference_id: Type.String(),
  chain_order_id: Type.Nullable(Type.String()),
  order_number: Type.Nullable(Type.String()),
  description: Type.String(),
  amount: Type.String(),
  balance: Type.String(),
});
/** A bank transfer's details (README, Top-ups and payouts): the bank reference (UTR) is the transfer's identity. */
const TransferIn = Type.Object(
  {
    amount: Type.String({ pattern: '^(?!0+(\\.0{1,2})?$)\\d{1,12}(\\.\\d{1,2})?$', description: 'positive decimal amount with at most 2 places' }),
    bank_reference: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9/-]{3,63}$', description: "the bank's reference of the transfer (UTR, IMPS/NEFT/RTGS reference): recorded once" }),
    account_name: Type.String({ minLength: 1, maxLength: 255 }),
    account_number: Type.Optional(Type.Nullable(Type.String({ pattern: '^[A-Za-z0-9]{4,34}$' }))),
    bank_name: Type.Optional(Type.Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    transfer_date: Day,
    note: Type.Optional(Type.Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false },
);
const TransferOut = Type.Object({ transfer: Loose, transaction: Loose, wallet: WalletOut, replayed: Type.Boolean() });

const isoNow = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();
const internal = { graphql_expose: false, ai_tool: false } as const;

/** The super admin's tenant is level 0 of the reseller network (platform.get_tenant, public). */
async function requireTop(ctx: HandlerContext) {
  const { reseller_level: level } = await ctx.host.call<{ reseller_level: number | null }>('platform.get_tenant', {});
  if (level !== 0) throw superAdminOnly();
}

/**
 * Marks pending remittances due on or before `today` as due, and those past it as overdue, with
 * their events. Each is marked by a conditional update first, so a rerun emits nothing twice.
 */
async function sweep(ctx: HandlerContext, today: string) {
  const at = isoNow(ctx);
  let due = 0;
  let overdue = 0;
  for (const r of await allRows<RemittanceRow>(ctx.host.db, 'Remittance', { where: { status: 'pending', due_date: { $lte: today }, due_notified_at: null } })) {
    if ((await ctx.host.db.update<RemittanceRow>('Remittance', { due_notified_at: at }, { where: { id: r.id, due_notified_at: null } })) !== 1) continue;
    due++;
    await ctx.host.emit('remittance.due', envelope(ctx, 'remittance.due', remittanceData(r)));
  }
  for (const r of await allRows<RemittanceRow>(ctx.host.db, 'Remittance', { where: { status: 'pending', due_date: { $lt: today }, is_overdue: false } })) {
    if ((await ctx.host.db.update<RemittanceRow>('Remittance', { is_overdue: true, overdue_notified_at: at }, { where: { id: r.id, is_overdue: false } })) !== 1) continue;
    overdue++;
    await ctx.host.emit('remittance.overdue', envelope(ctx, 'remittance.overdue', remittanceData(r)));
  }
  return { due, overdue };
}

async function processOne(ctx: HandlerContext, id: string) {
  const { held, errors } = await holdRemittances(ctx, [id]);
  const refused = errors.get(id);
  if (refused) throw refused;
  const [{ remittance, wallet }] = await payHeld(ctx, held);
  const paid = remittance.status === 'completed';
  return {
    message: paid ? 'Remittance processed.' : 'Remittance processing: the amount is held until the recipient is credited.',
    remittance: { id: remittance.id, status: remittance.status, completed_at: paid ? remittance.completed_at : null },
    wallet: { new_balance: wallet.balance, deducted: paid ? remittance.amount : '0.00' },
  };
}

export default defineModule({
  name: 'reseller_finance',
  version: '1.1.0',
  description: 'Reseller network finance: wallets, a double-entry ledger, COD collections and remittances settled between the levels of a reseller chain.',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  permissions: [
    { name: 'reseller_finance.view', description: "See the tenant's wallet, transactions, collections, remittances and summaries." },
    { name: 'reseller_finance.settle', description: 'Process (pay) remittances the tenant owes.' },
    { name: 'reseller_finance.export', description: "Download the wallet's transactions as CSV." },
    { name: 'reseller_finance.record_transfers', description: "Record bank-transfer top-ups and payouts of the tenant's wallet." },
    { name: 'reseller_finance.admin', description: "Set sub-resellers' credit limits; the super admin's finance stats." },
  ],
  mobile: {
    screens: [{ id: 'reseller_finance.wallet', title: 'Wallet', icon: 'credit-card', layout: 'scroll', route: '/finance/wallet', version: 1 }],
    screenProviders: { 'reseller_finance.wallet': { file: 'screens/reseller_finance.wallet.json' } },
  },
  data,
  events: {
    namespace: ['remittance', 'wallet'],
    publishes: ['remittance.created', 'remittance.due', 'remittance.overdue', 'wallet.low_balance'],
  },
  jobs: {
    sweep: { operation: 'reseller_finance.sweep', attempts: 3, timeout_seconds: 30 },
    deliver: { operation: 'reseller_finance.deliver', attempts: DELIVER_ATTEMPTS, backoff: { type: 'exponential', delay_seconds: 30 }, timeout_seconds: 20 },
  },
  schedules: [{ name: 'daily_due_sweep', operation: 'reseller_finance.start_sweep', cron: '0 1 * * *' }],
  limits: { timeout_ms: 60000 },
  operations: {
    get_wallet: operation({
      description: "The tenant's wallet: balance, available and effective balance, pending credits and debits, totals, credit limit.",
      permission: 'reseller_finance.view',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ wallet: WalletOut }),
      http: { method: 'GET', path: '/finance/wallet', ...READ },
      async handler(_input, ctx) {
        return { wallet: walletView(await walletOf(ctx.host.db)) };
      },
    }),

    wallet_summary: operation({
      description: "The wallet's movements over a period (week, month, quarter, year).",
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object({ period: PeriodIn }, { additionalProperties: false }),
      output: Type.Object({ summary: Loose }),
      http: { method: 'GET', path: '/finance/wallet/summary', ...READ },
      async handler(input, ctx) {
        const period = (input.period ?? 'month') as Period;
        const start = periodStart(ctx.host.now(), period);
        const wallet = walletView(await walletOf(ctx.host.db));
        return { summary: { period, start_date: start, end_date: isoNow(ctx), balance: wallet.balance, ...(await walletSummary(ctx.host.db, start)) } };
      },
    }),

    transactions: operation({
      description: "The wallet's transactions, newest first, filtered by type, reference_type and dates.",
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object(
        {
          ...TRANSACTION_FILTERS,
          per_page: PerPage,
          page: PageNo,
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ transactions: Type.Array(Loose), pagination: Pagination }),
      http: { method: 'GET', path: '/finance/wallet/transactions', ...READ },
      async handler(input, ctx) {
        const where = filterWhere(input, ['type', 'reference_type'], 'created_at');
        const { rows, pagination } = await listPage<TransactionRow>(ctx.host.db, 'Transaction', where, 'created_at', input);
        return { transactions: rows, pagination };
      },
    }),

    export_transactions: operation({
      description: "One page of the wallet's transactions as CSV rows (the streamed export route pages through it).",
      permission: 'reseller_finance.export',
      ...internal,
      input: Type.Object(
        {
          ...TRANSACTION_FILTERS,
          cursor: Type.Optional(Type.Nullable(Type.String({ maxLength: 200 }))),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ columns: Type.Array(Type.String()), rows: Type.Array(Type.Array(Type.Unknown())), next_cursor: Type.Nullable(Type.String()), filename: Type.String() }),
      http: { method: 'GET', path: '/finance/wallet/transactions/export', ...EXPORT, stream: { format: 'csv', timeout_s: 300, concurrency: 2 } },
      async handler(input, ctx) {
        return exportPage(ctx.host.db, filterWhere(input, ['type', 'reference_type'], 'created_at'), input.cursor ?? null);
      },
    }),

    transaction: operation({
      description: 'One wallet transaction with its two ledger entries.',
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({ transaction: Loose }),
      http: { method: 'GET', path: '/finance/wallet/transactions/:id', ...READ },
      async handler(input, ctx) {
        const tx = await ctx.host.db.findOne<TransactionRow>('Transaction', { where: { id: input.id } });
        if (!tx) throw notFound('Transaction', input.id);
        const entries = await ctx.host.db.find<{ transaction_id: string; account: string; amount: string }>('Entry', { where: { transaction_id: tx.id }, attributes: ['account', 'amount'], order: [['amount', 'DESC']] });
        return { transaction: { ...tx, entries } };
      },
    }),

    trial_balance: operation({
      description: "The ledger's balance per account (wallet, cod_clearing, tenant:<id>) and their sum, which double entry keeps at zero.",
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ accounts: Type.Record(Type.String(), Type.String()), total: Type.String() }),
      http: { method: 'GET', path: '/finance/ledger/trial-balance', ...READ },
      async handler(_input, ctx) {
        const entries = await allRows<{ id: string; account: string; amount: string }>(ctx.host.db, 'Entry', { attributes: ['id', 'account', 'amount'], order: [['id', 'ASC']] });
        const accounts = new Map<string, InstanceType<typeof D>>();
        for (const e of entries) accounts.set(e.account, (accounts.get(e.account) ?? new D(0)).plus(e.amount));
        return { accounts: Object.fromEntries([...accounts].map(([a, v]) => [a, money(v)])), total: money(entries.reduce((a, e) => a.plus(e.amount), new D(0))) };
      },
    }),

    statement: operation({
      description: "The wallet's statement of a period (from, to: UTC days): opening balance, every credit and debit with its chain order and running balance, closing balance.",
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object(STATEMENT_PERIOD, { additionalProperties: false }),
      output: Type.Object({ statement: Type.Object({ currency: Type.String(), ...StatementTotals, movements: Type.Array(StatementLineOut) }) }),
      http: { method: 'GET', path: '/finance/statements', ...READ },
      async handler(input, ctx) {
        const period = statementPeriod(input, ctx.host.now());
        const wallet = await walletOf(ctx.host.db);
        return { statement: { currency: wallet.currency, ...(await statement(ctx.host.db, period)) } };
      },
    }),

    export_statement: operation({
      description: "One page of the wallet's statement as CSV rows: an opening_balance row, the movements, a closing_balance row (the streamed CSV route pages through it).",
      permission: 'reseller_finance.export',
      ...internal,
      input: Type.Object({ ...STATEMENT_PERIOD, cursor: Type.Optional(Type.Nullable(Type.String({ maxLength: 200 }))) }, { additionalProperties: false }),
      output: Type.Object({ columns: Type.Array(Type.String()), rows: Type.Array(Type.Array(Type.Unknown())), next_cursor: Type.Nullable(Type.String()), filename: Type.String() }),
      http: { method: 'GET', path: '/finance/statements/export', ...EXPORT, stream: { format: 'csv', timeout_s: 300, concurrency: 2 } },
      handler: (input, ctx) => statementCsvPage(ctx.host.db, statementPeriod(input, ctx.host.now()), input.cursor ?? null),
    }),

    statement_pdf: operation({
      description: "The wallet's statement of a period as a PDF, rendered by the host; answers the statement's totals and the document's download URL.",
      permission: 'reseller_finance.export',
      ...internal,
      input: Type.Object(STATEMENT_PERIOD, { additionalProperties: false }),
      output: Type.Object({ statement: Type.Object(StatementTotals), document: Type.Object({ path: Type.String(), url: Type.String(), bytes: Type.Integer() }) }),
      http: { method: 'GET', path: '/finance/statements/pdf', ...EXPORT },
      async handler(input, ctx) {
        const period = statementPeriod(input, ctx.host.now());
        const [wallet, tenant, s] = await Promise.all([walletOf(ctx.host.db), ctx.host.call<{ id: string; name: string }>('platform.get_tenant', {}), statement(ctx.host.db, period)]);
        const document = await ctx.host.call<{ path: string; url: string; bytes: number }>('documents.render_pdf', {
          template: 'layout',
          name: `statement-${period.from}-${period.to}`,
          data: statementLayout(statementDocument(s, tenant, wallet.currency, isoNow(ctx))),
        });
        const { movements: _lines, ...totals } = s;
        return { statement: totals, document };
      },
    }),

    record_top_up: operation({
      description: "Records a bank transfer into the tenant's wallet (a credit against its bank account); once per bank reference.",
      permission: 'reseller_finance.record_transfers',
      ...internal,
      input: TransferIn,
      output: TransferOut,
      http: { method: 'POST', path: '/finance/wallet/top-ups', ...WRITE },
      handler: (input, ctx) => recordTransfer(ctx, 'top_up', input),
    }),

    record_payout: operation({
      description: "Records a bank transfer out of the tenant's wallet to its bank account (a debit); once per bank reference; INSUFFICIENT_BALANCE above the available balance.",
      permission: 'reseller_finance.record_transfers',
      ...internal,
      input: TransferIn,
      output: TransferOut,
      http: { method: 'POST', path: '/finance/wallet/payouts', ...WRITE },
      handler: (input, ctx) => recordTransfer(ctx, 'payout', input),
    }),

    settlements_summary: operation({
      description: 'Settlement summary of a period: wallet balance, pending credits and debits, collections, remittances paid and received, GST collected as the origin, net earnings.',
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object({ period: PeriodIn }, { additionalProperties: false }),
      output: Type.Object({ summary: Loose }),
      http: { method: 'GET', path: '/finance/settlements/summary', ...READ },
      async handler(input, ctx) {
        const period = (input.period ?? 'month') as Period;
        const wallet = await walletOf(ctx.host.db);
        const s = await settlementSummary(ctx.host.db, periodStart(ctx.host.now(), period), ctx.tenantId);
        return { summary: { period, wallet_balance: wallet.balance, pending_credits: wallet.pending_credits, pending_debits: wallet.pending_debits, ...s } };
      },
    }),

    get_pending_settlements: operation({
      description: 'Pending remittances (and those being processed): what the tenant owes (to_pay), what it is owed (to_receive), and the totals.',
      permission: 'reseller_finance.view',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ to_pay: Type.Array(Loose), to_receive: Type.Array(Loose), totals: Type.Object({ owed: Type.String(), receivable: Type.String(), net_position: Type.String() }) }),
      http: { method: 'GET', path: '/finance/settlements/pending', ...READ },
      async handler(_input, ctx) {
        // A remittance being processed is still owed (and in pending_debits) until it completes.
        const pending = await allRows<RemittanceRow>(ctx.host.db, 'Remittance', { where: { status: { $in: ['pending', 'processing'] } }, order: [['due_date', 'ASC'], ['id', 'ASC']] });
        const toPay = pending.filter((r) => r.direction === 'outgoing');
        const toReceive = pending.filter((r) => r.direction === 'incoming');
        const owed = total(toPay);
        const receivable = total(toReceive);
        return { to_pay: toPay, to_receive: toReceive, totals: { owed, receivable, net_position: money(new D(receivable).minus(owed)) } };
      },
    }),

    collections: operation({
      description: 'COD collections of delivered chain orders, filtered by status, flow_type and dates.',
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object(
        { status: Type.Optional(Type.StringEnum(['pending', 'settled', 'reversed'])), flow_type: Type.Optional(Type.StringEnum(['upstream', 'downstream'])), from_date: Type.Optional(Day), to_date: Type.Optional(Day), per_page: PerPage, page: PageNo },
        { additionalProperties: false },
      ),
      output: Type.Object({ collections: Type.Array(Loose), pagination: Pagination }),
      http: { method: 'GET', path: '/finance/settlements/collections', ...READ },
      async handler(input, ctx) {
        const where = filterWhere(input, ['status', 'flow_type'], 'collected_at');
        const { rows, pagination } = await listPage<CollectionRow>(ctx.host.db, 'Collection', where, 'collected_at', input);
        return { collections: rows, pagination };
      },
    }),

    remittances: operation({
      description: 'Remittances, filtered by status, direction (incoming, outgoing) and dates.',
      permission: 'reseller_finance.view',
      ...internal,
      input: Type.Object(
        { status: Type.Optional(Type.StringEnum(['pending', 'processing', 'completed', 'cancelled'])), direction: Type.Optional(Type.StringEnum(['incoming', 'outgoing'])), from_date: Type.Optional(Day), to_date: Type.Optional(Day), per_page: PerPage, page: PageNo },
        { additionalProperties: false },
      ),
      output: Type.Object({ remittances: Type.Array(Loose), pagination: Pagination }),
      http: { method: 'GET', path: '/finance/settlements/remittances', ...READ },
      async handler(input, ctx) {
        const where = filterWhere(input, ['status', 'direction'], 'created_at');
        const { rows, pagination } = await listPage<RemittanceRow>(ctx.host.db, 'Remittance', where, 'created_at', input);
        return { remittances: rows, pagination };
      },
    }),

    process_remittance: operation({
      description: 'Pays a pending remittance the tenant owes: holds the amount, credits the recipient, then debits the wallet. INVALID_STATUS unless pending; INSUFFICIENT_BALANCE when the available balance plus credit limit cannot cover it.',
      permission: 'reseller_finance.settle',
      ...internal,
      input: Type.Object({ id: Uuid }, { additionalProperties: false }),
      output: Type.Object({
        message: Type.String(),
        remittance: Type.Object({ id: Type.String(), status: Type.String(), completed_at: Type.Nullable(Type.String()) }),
        wallet: Type.Object({ new_balance: Type.String(), deducted: Type.String() }),
      }),
      http: { method: 'POST', path: '/finance/settlements/remittances/:id/process', ...WRITE, success_status: 200 },
      handler: (input, ctx) => processOne(ctx, input.id),
    }),

    bulk_process: operation({
      description: 'Processes several remittances, each on its own; reports the processed ids and a message per failed id.',
      permission: 'reseller_finance.settle',
      ...internal,
      input: Type.Object({ remittance_ids: Type.Array(Uuid, { minItems: 1, maxItems: 1000, uniqueItems: true }) }, { additionalProperties: false }),
      output: Type.Object({ processed: Type.Array(Type.String()), errors: Type.Record(Type.String(), Type.String()), message: Type.String() }),
      http: { method: 'POST', path: '/finance/settlements/remittances/bulk-process', ...WRITE, success_status: 200 },
      async handler(input, ctx) {
        const { held, errors } = await holdRemittances(ctx, input.remittance_ids);
        // The recipients are credited in batches, one related call per recipient and 100 remittances.
        await payHeld(ctx, held);
        const processed = held.map((h) => h.remittance.id);
        return { processed, errors: Object.fromEntries([...errors].map(([id, err]) => [id, err.message])), message: `${processed.length} of ${input.remittance_ids.length} remittances processed.` };
      },
    }),

    get_admin_stats: operation({
      description: "The super admin's settlement stats of a period over its whole network: collections, pending and completed remittances, overdue ones, top debtors (named, with their level).",
      permission: 'reseller_finance.admin',
      input: Type.Object({ period: PeriodIn }, { additionalProperties: false }),
      output: Type.Object({
        period: Type.String(),
        start_date: Type.String(),
        totals: Type.Object({ collections: Type.String(), pending_remittances: Type.String(), completed_remittances: Type.String() }),
        overdue: Type.Object({ count: Type.Integer(), total_amount: Type.String(), items: Type.Array(Loose) }),
        top_debtors: Type.Array(Type.Object({ tenant_id: Type.String(), tenant_name: Type.String(), level: Type.Integer(), total_owed: Type.String() })),
      }),
      http: { method: 'GET', path: '/finance/admin/stats', ...READ },
      async handler(input, ctx) {
        await requireTop(ctx);
        const period = (input.period ?? 'month') as Period;
        const start = periodStart(ctx.host.now(), period);
        return { period, start_date: start, ...adminStats(await networkFigures(ctx, start)) };
      },
    }),

    network_figures: operation({
      description: "Runs in a sub-reseller for its direct parent (related call): this tenant's own finance figures since a date, and those of every tenant below it.",
      related: true,
      ...internal,
      input: Type.Object({ since: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
      output: Type.Object({ tenants: Type.Array(TenantFigures) }),
      async handler(input, ctx) {
        // Only the direct parent asks: a tenant's figures go up the chain one level at a time.
        const { tenant: parent } = await related(ctx.host).parent();
        if (!ctx.relatedFrom || parent?.id !== ctx.relatedFrom) throw onlyRelated('reseller_finance.network_figures');
        return { tenants: await networkFigures(ctx, input.since) };
      },
    }),

    run_sweep: operation({
      description: 'Marks pending remittances due or overdue now, as the daily job does (super admin); announces remittance.due and remittance.overdue.',
      permission: 'reseller_finance.admin',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ due: Type.Integer(), overdue: Type.Integer() }),
      http: { method: 'POST', path: '/finance/admin/sweep', ...WRITE, success_status: 200 },
      async handler(_input, ctx) {
        await requireTop(ctx);
        return sweep(ctx, isoNow(ctx).slice(0, 10));
      },
    }),

    set_credit_limit: operation({
      description: "Sets the credit limit of a direct sub-reseller's wallet (how far its balance may go below zero to pay remittances).",
      permission: 'reseller_finance.admin',
      input: Type.Object({ tenant_id: Type.String({ minLength: 1, maxLength: 63 }), credit_limit: Money }, { additionalProperties: false }),
      output: Type.Object({ message: Type.String(), wallet: WalletOut }),
      http: { method: 'PUT', path: '/finance/sub-resellers/:tenant_id/credit-limit', ...WRITE },
      async handler(input, ctx) {
        const { tenants } = await related(ctx.host).children({ per_page: 100 });
        const child = tenants.find((t) => t.id === input.tenant_id || t.alias === input.tenant_id);
        if (!child) throw financeErrors.notDirectChild(input.tenant_id);
        const { wallet } = await related(ctx.host).call<{ wallet: ReturnType<typeof walletView> }>(child.id, 'reseller_finance.apply_credit_limit', { credit_limit: input.credit_limit });
        return { message: 'Credit limit set.', wallet };
      },
    }),

    apply_credit_limit: operation({
      description: "Sets this tenant's credit limit; called by its parent tenant's reseller_finance only.",
      related: true,
      ...internal,
      input: Type.Object({ credit_limit: Money }, { additionalProperties: false }),
      output: Type.Object({ wallet: WalletOut }),
      async handler(input, ctx) {
        // Only the direct parent grants credit: a child reaching up is refused.
        const { tenant: parent } = await related(ctx.host).parent();
        if (!ctx.relatedFrom || parent?.id !== ctx.relatedFrom) throw onlyRelated('reseller_finance.apply_credit_limit');
        const at = isoNow(ctx);
        const wallet = await inTransaction(ctx.host.db, async (tx) => {
          const w = await walletOf(tx);
          const changed = await tx.update<WalletRow>('Wallet', { credit_limit: money(input.credit_limit), version: w.version + 1, updated_at: at }, { where: { id: w.id, version: w.version } });
          if (changed !== 1) throw contended();
          return { ...w, credit_limit: money(input.credit_limit) };
        });
        return { wallet: walletView(wallet) };
      },
    }),

    record_delivery: operation({
      description: "Records a delivered chain order's COD money and pending remittances at this level; called by reseller_orders in the same tenant.",
      ...internal,
      input: Type.Object(
        {
          chain_ref: Type.String({ minLength: 1, maxLength: 100 }),
          chain_order_id: Type.String({ minLength: 1, maxLength: 100 }),
          origin_order_number: Type.String({ minLength: 1, maxLength: 100 }),
          flow_type: Type.StringEnum(['upstream', 'downstream']),
          collector_tenant_id: Type.String({ minLength: 1, maxLength: 63 }),
          collected: Type.Nullable(Type.Object({ amount: Money, method: Type.StringEnum(['cod', 'prepaid']) }, { additionalProperties: false })),
          tax: Type.Optional(Money),
          gst_charged: Type.Optional(Money),
          gst_paid: Type.Optional(Money),
          pay: Type.Array(Counterparty, { maxItems: 2 }),
          receive: Type.Array(Counterparty, { maxItems: 2 }),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ recorded: Type.Boolean(), remittance_ids: Type.Array(Type.String()) }),
      async handler(input, ctx) {
        if (ctx.caller !== 'reseller_orders') throw onlyModule('reseller_finance.record_delivery');
        return recordDelivery(ctx, input);
      },
    }),

    reverse_delivery: operation({
      description: "Reverses a delivered chain order's money at this level when it is returned or refunded: the customer's money given back, unpaid remittances cancelled, paid ones owed back; called by reseller_orders in the same tenant.",
      ...internal,
      input: Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }), cause: Type.StringEnum(['returned', 'refunded']) }, { additionalProperties: false }),
      output: Type.Object({ reversed: Type.Boolean(), remittance_ids: Type.Array(Type.String()) }),
      async handler(input, ctx) {
        if (ctx.caller !== 'reseller_orders') throw onlyModule('reseller_finance.reverse_delivery');
        return reverseDelivery(ctx, input);
      },
    }),

    refund_share: operation({
      description: "Applies this level's share of a partial refund of a delivered chain order: the customer's money given back where it came in, each neighbour's share a new pending remittance (recorded cancelled, nothing moved, when the order was reversed here first); once per refund; called by reseller_orders in the same tenant.",
      ...internal,
      input: Type.Object(
        {
          chain_ref: Type.String({ minLength: 1, maxLength: 100 }),
          chain_order_id: Type.String({ minLength: 1, maxLength: 100 }),
          origin_order_number: Type.String({ minLength: 1, maxLength: 100 }),
          refund_id: Type.String({ minLength: 1, maxLength: 100 }),
          given_back: Type.Nullable(Money),
          tax: Type.Optional(Money),
          gst_charged: Type.Optional(Money),
          gst_paid: Type.Optional(Money),
          pay: Type.Array(Counterparty, { maxItems: 2 }),
          receive: Type.Array(Counterparty, { maxItems: 2 }),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ applied: Type.Boolean(), remittance_ids: Type.Array(Type.String()) }),
      async handler(input, ctx) {
        if (ctx.caller !== 'reseller_orders') throw onlyModule('reseller_finance.refund_share');
        return applyRefundShare(ctx, input);
      },
    }),

    receive_remittances: operation({
      description: "Credits this tenant for remittances its related payer processed; called by the payer's reseller_finance only.",
      related: true,
      ...internal,
      input: Type.Object(
        {
          items: Type.Array(
            Type.Object({ chain_ref: Type.String({ minLength: 1, maxLength: 100 }), adjustment_ref: Type.Optional(Type.String({ maxLength: 100 })), amount: Money }, { additionalProperties: false }),
            { minItems: 1, maxItems: 100 },
          ),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ received: Type.Integer() }),
      async handler(input, ctx) {
        const payer = ctx.relatedFrom;
        if (!payer) throw onlyRelated('reseller_finance.receive_remittances');
        return receiveRemittances(ctx, payer, input.items);
      },
    }),

    deliver: operation({
      description: 'Job: credits the recipient of a processing remittance after the first attempt failed, then completes it; the last failed attempt releases the hold.',
      ...internal,
      input: Type.Object({ job: Type.String(), data: Type.Object({ remittance_id: Uuid }), attempt: Type.Integer(), id: Type.String() }, { additionalProperties: true }),
      output: Type.Object({ delivered: Type.Boolean() }),
      async handler(input, ctx) {
        const rem = await ctx.host.db.findOne<RemittanceRow>('Remittance', { where: { id: input.data.remittance_id } });
        if (!rem || rem.status !== 'processing') return { delivered: false };
        try {
          await related(ctx.host).call(rem.recipient_tenant_id, 'reseller_finance.receive_remittances', { items: [paidItem(rem)] });
        } catch (err) {
          if (input.attempt < DELIVER_ATTEMPTS) throw err;
          // Spec 3, States: the payer keeps its money and may process the remittance again.
          await releaseRemittance(ctx, rem.id, `the recipient could not be credited (${messageOf(err)})`);
          return { delivered: false };
        }
        return { delivered: (await completeRemittances(ctx, [rem.id])).length === 1 };
      },
    }),

    start_sweep: operation({
      description: 'Schedule (daily): queues the sweep job that marks remittances due and overdue.',
      ...internal,
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ job_id: Type.String() }),
      async handler(_input, ctx) {
        const { id } = await jobs<{ sweep: { date: string } }>(ctx.host).enqueue('sweep', { date: isoNow(ctx).slice(0, 10) }, { key: 'sweep' });
        return { job_id: id };
      },
    }),

    sweep: operation({
      description: 'Job: marks pending remittances due on or before the date as due, and those past it as overdue, with their events.',
      ...internal,
      input: Type.Object({ job: Type.String(), data: Type.Object({ date: Day }), attempt: Type.Integer(), id: Type.String() }, { additionalProperties: true }),
      output: Type.Object({ due: Type.Integer(), overdue: Type.Integer() }),
      handler: (input, ctx) => sweep(ctx, input.data.date),
    }),
  },
});

