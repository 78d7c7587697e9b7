/**
 * `shipping@1`: what spec 3 asks of a carrier (Shipping): `shipping.getRates` (pickup_pincode,
 * delivery_pincode, weight, dimensions), `shipping.createShipment` (order_number, pickup_address,
 * delivery_address, items, weight, cod_amount: the order total for COD orders and 0 otherwise), and
 * tracking for the 30-minute sync of in-transit shipments.
 */
import * as Type from '../runtime/schema';
import { defineContract } from './contract';

const Pincode = Type.String({ pattern: '^\\d{6}$' });
const Dimensions = Type.Unsafe<Record<string, unknown> | null>({ type: ['object', 'null'] });
/** The address fields a carrier reads; the schema stays an open object. */
type Address = { name?: string; line1?: string; line2?: string; city?: string; state?: string; pincode?: string; country?: string; phone?: string; email?: string };
const Address = Type.Unsafe<Address>({ type: 'object', description: 'name, line1, line2, city, state, pincode, country, phone, email' });
/** Shipment statuses a carrier reports (spec 3, Shipment), plus `ndr` for a failed delivery attempt. */
const ShipmentStatus = Type.StringEnum(['picked_up', 'in_transit', 'out_for_delivery', 'delivered', 'ndr', 'rto_initiated', 'rto_received', 'cancelled']);

export const shipping = defineContract('shipping', 1, {
  describe: {
    description: 'Who the carrier is: the name records keep (`shipping-<carrier>`, spec 3 Shipment) and what it supports.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ carrier_module: Type.String(), name: Type.String(), supports: Type.Array(Type.String()) }),
  },
  getRates: {
    description: 'Courier rates between two pincodes for a weight (kg).',
    input: Type.Object(
      {
        pickup_pincode: Pincode,
        delivery_pincode: Pincode,
        weight: Type.Unsafe<string | number>({ type: ['string', 'number'] }),
        dimensions: Type.Optional(Dimensions),
        cod: Type.Optional(Type.Boolean()),
        cod_amount: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      carrier_module: Type.String(),
      rates: Type.Array(Type.Object({ courier_name: Type.String(), rate: Type.String({ pattern: '^\\d+\\.\\d{2}$' }), cod: Type.Boolean() })),
    }),
  },
  createShipment: {
    description: 'Books a shipment; cod_amount is the order total for COD orders and 0 otherwise.',
    input: Type.Object(
      {
        order_number: Type.String({ minLength: 1 }),
        pickup_address: Type.Optional(Address),
        delivery_address: Address,
        items: Type.Unsafe<Array<{ name: string; sku?: string | null; quantity: number; unit_price: string; hsn_code?: string | null }>>({ type: 'array', minItems: 1 }),
        weight: Type.Optional(Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] })),
        dimensions: Type.Optional(Dimensions),
        cod_amount: Type.String(),
        customer: Type.Optional(Address),
        payment_method: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      awb_number: Type.String(),
      tracking_url: Type.String(),
      pickup_token: Type.String({ description: "the carrier's shipment id" }),
    }),
  },
  track: {
    description: 'Tracking events of an AWB, oldest first, mapped to shipment statuses.',
    input: Type.Object({ awb_number: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
    output: Type.Object({
      awb_number: Type.String(),
      events: Type.Array(
        Type.Object({
          status: ShipmentStatus,
          location: Type.Optional(Type.String()),
          description: Type.Optional(Type.String()),
          reason: Type.Optional(Type.String()),
          occurred_at: Type.Optional(Type.String({ format: 'date-time' })),
          raw: Type.Record(Type.String(), Type.Unknown()),
        }),
      ),
    }),
  },
});
