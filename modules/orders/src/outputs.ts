/**
 * What orders operations return (their `output` schemas). Rows are described from the tables in
 * models.ts (sdk columnSchema), so a column added there shows in every output that returns its row: decimals and
 * bigints come as strings, datetimes as ISO strings, json columns as any JSON value; a column is
 * nullable unless the table says otherwise. Extra keys are allowed (a row may grow a column), a
 * missing key or a wrong type is not.
 */
import { columnSchema, Type, type Model, type TSchema } from '../../../sdk';
import { data } from './models';

const Decimal = () => Type.String({ description: 'decimal, as a string' });

/** The JSON schema of one row of a model, every column present. */
export function rowProps(model: string, only?: readonly string[]): Record<string, TSchema> {
  const columns = (data.models as Record<string, Model>)[model].columns;
  return Object.fromEntries(
    Object.entries(columns)
      .filter(([name]) => only === undefined || only.includes(name))
      .map(([name, column]) => [name, columnSchema(column)]),
  );
}

/** A row object; its TypeScript type stays that of the handler's own row types. */
export const row = (model: string, only?: readonly string[], extra: Record<string, TSchema> = {}) =>
  Type.Unsafe<Record<string, unknown>>(Type.Object({ ...rowProps(model, only), ...extra }));

export const ItemRowOut = row('OrderItem');

/** An order as get, create, update_status and cancel answer it: its row, can_ship, and its items. */
export const OrderView = row('Order', undefined, { can_ship: Type.Boolean(), items: Type.Array(ItemRowOut) });
/** An order in a list: without items. */
export const OrderListView = row('Order', undefined, { can_ship: Type.Boolean() });

/** The order's money after a payment or refund (orderSummary). */
export const OrderSummary = Type.Object({
  id: Type.String(),
  order_number: Type.String(),
  status: Type.String(),
  payment_status: Type.String(),
  total: Type.String(),
  total_paid: Type.String(),
  total_refunded: Type.String(),
  balance_due: Type.String(),
  currency: Type.String(),
});

export const Deleted = (id: TSchema, extra: Record<string, TSchema> = {}) => Type.Object({ deleted: Type.Literal(true), id, ...extra });

/** A list answer: every item, under data. */
export const DataList = (item: TSchema) => Type.Object({ data: Type.Array(item) });
/** One page of a log: its items under data, and how many there are in all. */
export const CountedList = (item: TSchema) => Type.Object({ data: Type.Array(item), total: Type.Integer() });

export const Pagination = Type.Object({
  current_page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  last_page: Type.Integer(),
});

/** Orders and revenue of one bucket (a status, a source, COD or prepaid). */
const Bucket = Type.Object({ orders: Type.Integer(), revenue: Type.String() });
const Figures = {
  from: Type.String(),
  to: Type.String(),
  refreshed_at: Type.Union([Type.String(), Type.Null()]),
};
const DashboardFigures = {
  total_orders: Type.Integer(),
  revenue: Type.String(),
  average_order_value: Type.String(),
  unique_customers: Type.Integer(),
  by_status: Type.Record(Type.String(), Bucket),
  by_payment_status: Type.Record(Type.String(), Bucket),
};
const Rates = { delivery_rate: Type.String(), cancellation_rate: Type.String(), rto_rate: Type.String() };
const Split = { cod: Bucket, prepaid: Bucket };

export const Dashboard = Type.Object({ ...Figures, ...DashboardFigures });
export const Revenue = Type.Object({ ...Figures, data: Type.Array(Type.Object({ date: Type.String(), orders: Type.Integer(), revenue: Type.String() })) });
export const Fulfillment = Type.Object({ ...Figures, total_orders: Type.Integer(), delivered: Type.Integer(), cancelled: Type.Integer(), rto: Type.Integer(), ...Rates });
export const Sources = Type.Object({ ...Figures, data: Type.Array(Type.Object({ source: Type.String(), orders: Type.Integer(), revenue: Type.String() })) });
export const Products = Type.Object({
  ...Figures,
  data: Type.Array(Type.Object({ name: Type.String(), sku: Type.Union([Type.String(), Type.Null()]), quantity: Type.Integer(), revenue: Type.String() })),
});
export const CodVsPrepaid = Type.Object({ ...Figures, ...Split });
export const Stats = Type.Object({ ...Figures, ...DashboardFigures, ...Rates, ...Split });
export const Refreshed = Type.Object({
  refreshed_at: Type.String(),
  views: Type.Array(Type.Object({ view: Type.String(), concurrently: Type.Boolean(), duration_ms: Type.Number() })),
});

/** One of the given strings; typed as a plain string, as the handlers that answer it keep it. */
const OneOf = (values: readonly string[]) => Type.Unsafe<string>({ type: 'string', enum: [...values] });

/** What a bulk status change or cancel did to each order, in request order (bulk-plan.ts). */
export const BulkOutcome = Type.Object({
  results: Type.Array(
    Type.Union([
      Type.Object({
        order_id: Type.String({ description: 'the reference as given' }),
        ok: Type.Literal(true),
        id: Type.String(),
        order_number: Type.String(),
        old_status: Type.String(),
        status: Type.String(),
        changed: Type.Boolean(),
      }),
      Type.Object({
        order_id: Type.String({ description: 'the reference as given' }),
        ok: Type.Literal(false),
        error: Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
      }),
    ]),
  ),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
});

/** GST on an amount (tax.ts taxResult), with the amount and supply it was computed for. */
export const TaxOut = Type.Object({
  amount: Decimal(),
  same_state: Type.Boolean(),
  rate: Decimal(),
  cgst: Decimal(),
  sgst: Decimal(),
  igst: Decimal(),
  total_tax: Decimal(),
  rate_source: Type.StringEnum(['override', 'hsn', 'default', 'fallback']),
});

const IMPORT_STATUSES = ['queued', 'processing', 'completed', 'completed_with_errors', 'failed', 'cancelled'];
const IMPORT_COUNTS = ['source', 'filename', 'file_size', 'total_rows', 'processed_rows', 'created', 'updated', 'unchanged', 'failed', 'error_count'];
/** An import as GET /orders/bulk/import/:id answers it (bulk-import.ts importView). */
export const ImportView = Type.Object({
  import_id: Type.String(),
  status: OneOf(IMPORT_STATUSES),
  ...rowProps('OrderImport', [...IMPORT_COUNTS, 'failure_reason', 'started_at', 'finished_at', 'created_at']),
  errors: Type.Array(Type.Object({ line: Type.Integer(), field: Type.Optional(Type.String()), message: Type.String() })),
  errors_truncated: Type.Boolean(),
  cancel_requested: Type.Boolean(),
});
export const ImportStarted = Type.Object({ import_id: Type.String(), status: OneOf(['queued']) });
/** A chunk answers its progress, and whether the import was found cancelled (or ended) before it. */
export const ImportProgress = Type.Object({ cancelled: Type.Optional(Type.Boolean()), progress: ImportView });

/** One page of the CSV export: cells are the column values, scalars only. */
export const ExportPage = Type.Object({
  columns: Type.Array(Type.String()),
  rows: Type.Array(Type.Array(Type.Unsafe<string | number | boolean | null>({ type: ['string', 'number', 'boolean', 'null'] }))),
  next_cursor: Type.Nullable(Type.String()),
  filename: Type.String(),
});

/** The carrier contract's answer (`<carrier>.getRates`), passed through as the carrier gave it. */
export const ShippingRates = Type.Object({
  carrier_module: Type.String(),
  rates: Type.Array(Type.Object({ courier_name: Type.String(), rate: Decimal() })),
});

/** A schedule run that sent what was due. */
export const Attempted = Type.Object({ attempted: Type.Integer() });

/** A poll of pending provider records (refunds, payment links): how each ended, errors by record id. */
export const SyncOutcome = Type.Object({
  checked: Type.Integer(),
  completed: Type.Integer(),
  failed: Type.Integer(),
  pending: Type.Integer(),
  errors: Type.Record(Type.String(), Type.String()),
});

/** A webhook endpoint: its row, the secret only as a hint (webhooks.ts view). */
export const WebhookView = row(
  'WebhookEndpoint',
  Object.keys(rowProps('WebhookEndpoint')).filter((c) => c !== 'secret'),
  { secret_hint: Type.String() },
);

/** A notification rule as saved, with what the tenant lacks for it to send. */
export const RuleView = row('NotificationRule', undefined, { warnings: Type.Optional(Type.Array(Type.String())) });

/** What a test send of a notification rule rendered and, unless a dry run, how the send went. */
export const RuleTest = Type.Object({
  rule_id: Type.String(),
  channel: Type.String(),
  recipient: Type.Nullable(Type.String()),
  subject: Type.String(),
  text: Type.String(),
  conditions_match: Type.Nullable(Type.Boolean({ description: 'null without an order' })),
  dry_run: Type.Boolean(),
  sent: Type.Boolean(),
  status: OneOf(['rendered', 'sent', 'failed']),
  reason: Type.Optional(Type.String({ description: 'why nothing could be sent' })),
  send_id: Type.Optional(Type.String()),
  provider_message_id: Type.Optional(Type.Nullable(Type.String())),
  error: Type.Optional(Type.Nullable(Type.String())),
});

/** The orders settings, every key with its value or default (config.ts). */
export const Settings = Type.Unsafe<Record<string, unknown>>(
  Type.Object({
    seller_state: Type.Nullable(Type.String()),
    default_payment_provider: Type.Nullable(Type.String()),
    ndr_max_attempts: Type.Integer(),
    ndr_auto_reattempt: Type.Boolean(),
    webhook_retry_backoff_ms: Type.Integer(),
  }),
);

/** The supplier printed on tax invoices (business-profile.ts), as saved. */
const BusinessProfile = Type.Object({
  legal_name: Type.String(),
  trade_name: Type.Optional(Type.String()),
  gstin: Type.Nullable(Type.String()),
  address: Type.Object({
    line1: Type.String(),
    line2: Type.Optional(Type.String()),
    city: Type.String(),
    state: Type.String(),
    state_code: Type.String(),
    pincode: Type.String(),
    country: Type.String(),
  }),
  email: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  signatory: Type.Optional(Type.String()),
  updated_at: Type.Optional(Type.String()),
});
export const ProfileOut = Type.Object({ business_profile: Type.Nullable(BusinessProfile) });
export const ProfileSaved = Type.Object({ business_profile: BusinessProfile });
