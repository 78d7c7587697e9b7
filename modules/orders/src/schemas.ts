/** Input schemas several orders operations share. */
import { Type, type TSchema } from '../../../sdk';

export const Money = Type.Unsafe<string | number>({
  type: ['string', 'number'],
  description: 'decimal amount (a string such as "199.50"; numbers with at most 2 decimals accepted)',
});
export const OrderRef = Type.String({ minLength: 1, maxLength: 100, description: 'order UUID or order_number' });
export const RecordId = Type.String({ minLength: 1, maxLength: 100 });
export const Uuid = Type.String({ format: 'uuid' });
export const Address = Type.Object(
  {
    name: Type.Optional(Type.String()),
    line1: Type.Optional(Type.String()),
    line2: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String({ description: 'state name or GST state code' })),
    pincode: Type.Optional(Type.String()),
    country: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
export const ItemInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    sku: Type.Optional(Type.String({ maxLength: 100 })),
    hsn_code: Type.Optional(Type.String({ maxLength: 20 })),
    quantity: Type.Unsafe<number | string>({ type: ['integer', 'string'] }),
    unit_price: Money,
    discount: Type.Optional(Money),
    tax_rate: Type.Optional(
      Type.Unsafe<string | number>({ type: ['string', 'number'], description: 'rate_override for this line (0, 5, 12, 18, 28)' }),
    ),
    weight: Type.Optional(Type.Unsafe<string | number>({ type: ['string', 'number'] })),
    unit: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10,
        description: 'unit or Unique Quantity Code printed on the invoice (NOS, PCS, KGS, MTR, …); default NOS',
      }),
    ),
  },
  { additionalProperties: false },
);
export const CustomerInput = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100 })),
    name: Type.Optional(Type.String({ maxLength: 255 })),
    email: Type.Optional(Type.String({ maxLength: 255 })),
    phone: Type.Optional(Type.String({ maxLength: 30 })),
  },
  { additionalProperties: false },
);
export const BulkOrderRefs = Type.Array(OrderRef, {
  minItems: 1,
  maxItems: 500,
  uniqueItems: true,
  description: 'order UUIDs or order numbers, at most 500',
});
export const CustomFieldRef = Type.String({ minLength: 1, maxLength: 100, description: 'custom field id or field_key' });
export const Upload = Type.Object(
  { id: Type.String(), filename: Type.String(), size: Type.Integer(), content_type: Type.String() },
  { additionalProperties: false },
);
export const CsvRow = Type.Unsafe<unknown[]>({ type: 'array', minItems: 2, maxItems: 3, description: '[line, cells, error?]' });
export const Template = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'text with {{order_number}} {{customer_name}} {{total}} {{status}} {{tracking_url}} {{return_number}}',
});
/** An operation that takes nothing. */
export const NoInput = Type.Object({}, { additionalProperties: false });
/** Any JSON object, checked by the handler that reads it. */
export const AnyObject = Type.Unsafe<Record<string, unknown>>({ type: 'object' });
/** A length or weight: a number, or a decimal string. */
export const Measure = Type.Unsafe<number | string>({ type: ['number', 'string'] });
/** The input of an operation on one record: its reference alone, under the name its route uses. */
export function recordInput<K extends string, T extends TSchema>(key: K, ref: T) {
  return Type.Object({ [key]: ref } as { [P in K]: T }, { additionalProperties: false });
}
export const OrderRefInput = recordInput('id', OrderRef);
/** What the scheduler passes to an operation it runs: the schedule's name and when it was due. */
export const ScheduleTrigger = Type.Object(
  { schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
/** A scheduled poll of records pending at a provider or carrier: at most limit of them. */
export const PollBatch = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    schedule: Type.Optional(Type.String({ maxLength: 50 })),
    scheduled_at: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
/** The days an analytics read covers (analytics.ts range): the last 30 by default. */
export const AnalyticsRangeProps = {
  from: Type.Optional(Type.String({ maxLength: 40, description: 'first day, inclusive (YYYY-MM-DD); default 29 days before to' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'last day, inclusive (YYYY-MM-DD); default today (UTC)' })),
};
export const AnalyticsRange = Type.Object(AnalyticsRangeProps, { additionalProperties: false });
/** A move of an order to a status, single or bulk, under the single-order transition rules. */
export const StatusChangeProps = {
  status: Type.StringEnum([
    'pending',
    'confirmed',
    'processing',
    'ready_to_ship',
    'shipped',
    'out_for_delivery',
    'delivered',
    'rto_initiated',
    'rto_received',
    'cancelled',
  ]),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
};
/** A page of a send or delivery log, newest first. */
export const LogPageProps = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
};
