/**
 * What orders operations return (their `output` schemas). Rows are described from the tables in
 * models.ts, so a column added there shows in every output that returns its row: decimals and
 * bigints come as strings, datetimes as ISO strings, json columns as any JSON value; a column is
 * nullable unless the table says otherwise. Extra keys are allowed (a row may grow a column), a
 * missing key or a wrong type is not.
 */
import { Type, type Column, type Model, type TSchema } from '../../../sdk';
import { data } from './models';

const COLUMN_TYPES: Record<string, () => TSchema> = {
  uuid: () => Type.String(),
  string: () => Type.String(),
  text: () => Type.String(),
  decimal: () => Type.String({ description: 'decimal, as a string' }),
  bigint: () => Type.String({ description: 'bigint, as a string' }),
  integer: () => Type.Integer(),
  boolean: () => Type.Boolean(),
  datetime: () => Type.String({ description: 'ISO 8601 timestamp' }),
  json: () => Type.Unknown(),
};

function columnSchema(column: Column): TSchema {
  const schema = COLUMN_TYPES[column.type]();
  if (column.type === 'json' || column.primaryKey || column.nullable === false) return schema;
  return Type.Nullable(schema);
}

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
