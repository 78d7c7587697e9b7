/** orders operations: shipments, carrier rates and tracking, NDR cases. */
import { operation, Type } from '../../../../sdk';
import { row, ShippingRates } from '../outputs';
import { AnyObject, Measure, OrderRef, OrderRefInput, PollBatch, RecordId, Uuid } from '../schemas';
import { markDelivered, recordShipment } from '../recorded-shipments';
import { applyTrackingUpdate, bulkShip, listNdrCases, listShipments, resolveNdrCase, ship, shippingRates, syncTracking } from '../shipping';
import { orderNode } from '../workflow-nodes';

const RecordedShipment = Type.Object({
  applied: Type.Boolean(),
  shipment: Type.Object({ id: Type.String(), carrier: Type.Nullable(Type.String()), tracking_number: Type.String(), status: Type.String(), shipped_at: Type.Nullable(Type.String()), delivered_at: Type.Nullable(Type.String()) }),
  order: Type.Object({ id: Type.String(), order_number: Type.String(), status: Type.String() }),
});

export const shippingOperations = {
  bulk_ship: operation({
    description: 'Creates shipments for many orders (spec 3, POST /orders/bulk/ship); each entry succeeds or fails on its own.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        shipments: Type.Array(
          Type.Object(
            {
              order_id: Type.String(),
              carrier_module: Type.String(),
              awb_number: Type.String(),
              tracking_url: Type.Optional(Type.String()),
            },
            { additionalProperties: true },
          ),
          { minItems: 1, maxItems: 500 },
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      results: Type.Array(Type.Object({ order_id: Type.String(), ok: Type.Boolean() })),
      succeeded: Type.Integer(),
      failed: Type.Integer(),
    }),
    http: { method: 'POST', path: '/orders/bulk/ship' },
    handler: bulkShip,
  }),
  list_ndr_cases: operation({
    description: 'NDR cases, newest first; open ones only with open=true.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        open: Type.Optional(Type.Boolean()),
        shipment_id: Type.Optional(Uuid),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ cases: Type.Array(row('NdrCase')) }),
    http: { method: 'GET', path: '/orders/ndr-cases' },
    handler: listNdrCases,
  }),
  resolve_ndr_case: operation({
    description: 'Decides an open NDR case: reattempt delivery or return to origin (RTO).',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ case_id: Uuid, action: Type.StringEnum(['reattempt', 'return_to_origin']) }, { additionalProperties: false }),
    output: row('NdrCase'),
    http: { method: 'POST', path: '/orders/ndr-cases/:case_id/resolve' },
    handler: resolveNdrCase,
  }),
  apply_tracking_update: operation({
    description:
      'Applies one carrier tracking update to the shipment with that AWB: records the event, moves shipment and order, opens NDR cases. Used by the tracking sync and the carrier webhook.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        carrier_module: Type.Optional(Type.String()),
        awb_number: Type.String({ minLength: 1 }),
        status: Type.StringEnum([
          'picked_up',
          'in_transit',
          'out_for_delivery',
          'delivered',
          'ndr',
          'rto_initiated',
          'rto_received',
          'cancelled',
        ]),
        location: Type.Optional(Type.String()),
        description: Type.Optional(Type.String()),
        occurred_at: Type.Optional(Type.String()),
        reason: Type.Optional(Type.String()),
        raw_data: Type.Optional(AnyObject),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      shipment_id: Type.String(),
      status: Type.String(),
      ndr_count: Type.Integer(),
      duplicate: Type.Boolean(),
      ndr_case: Type.Nullable(row('NdrCase')),
    }),
    http: { method: 'POST', path: '/orders/shipments/tracking' },
    handler: applyTrackingUpdate,
  }),
  sync_tracking: operation({
    description: 'Polls the carrier modules for every shipment in transit and applies their updates (the 30-minute tracking sync).',
    permission: 'orders.manage',
    ai_tool: false,
    input: PollBatch,
    output: Type.Object({ checked: Type.Integer(), applied: Type.Integer(), errors: Type.Record(Type.String(), Type.String()) }),
    http: { method: 'POST', path: '/orders/shipments/sync' },
    handler: syncTracking,
  }),
  ship: operation({
    description:
      'Creates a shipment (optionally partial, by order_item_ids), moves the order to shipped; publishes order.shipment_created and order.fulfilled. May be repeated for several packages. With book=true the carrier module books it (createShipment) and returns the AWB.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        carrier_module: Type.String({ minLength: 2, maxLength: 100 }),
        awb_number: Type.Optional(RecordId),
        tracking_url: Type.Optional(Type.String({ maxLength: 2000 })),
        label_url: Type.Optional(Type.String({ maxLength: 2000 })),
        estimated_delivery_at: Type.Optional(Type.String()),
        dimensions: Type.Optional(
          Type.Object(
            {
              length: Type.Optional(Measure),
              width: Type.Optional(Measure),
              height: Type.Optional(Measure),
              weight: Type.Optional(Measure),
            },
            { additionalProperties: true },
          ),
        ),
        order_item_ids: Type.Optional(Type.Array(Uuid, { minItems: 1 })),
        book: Type.Optional(Type.Boolean({ default: false })),
        pickup_address: Type.Optional(AnyObject),
      },
      { additionalProperties: false },
    ),
    output: row('Shipment', undefined, {
      order: Type.Object({ id: Type.String(), order_number: Type.String(), status: Type.String(), fulfillment_status: Type.String() }),
    }),
    node: orderNode('ship-order', 'Ship order', 'Creates a shipment for an order.'),
    http: { method: 'POST', path: '/orders/:id/ship' },
    handler: ship,
  }),
  // Shipments booked outside a carrier module (recorded-shipments.ts): for modules only, never a route nor a tool.
  record_shipment: operation({
    description: 'Records a shipment another module booked (carrier and tracking number as it names them) for every item of the order, which moves to shipped; once per order and recording module.',
    permission: 'orders.manage',
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object(
      {
        id: OrderRef,
        carrier: Type.String({ minLength: 1, maxLength: 100 }),
        tracking_number: RecordId,
        tracking_url: Type.Optional(Type.String({ maxLength: 2000 })),
        shipped_at: Type.Optional(Type.String({ maxLength: 40 })),
      },
      { additionalProperties: false },
    ),
    output: RecordedShipment,
    handler: recordShipment,
  }),
  mark_delivered: operation({
    description: "Reports the delivery of the shipment the calling module recorded: the shipment and the order become delivered; once.",
    permission: 'orders.manage',
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object({ id: OrderRef, delivered_at: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false }),
    output: RecordedShipment,
    handler: markDelivered,
  }),
  list_shipments: operation({
    description: 'All shipments of an order with their tracking events and NDR cases.',
    permission: 'orders.view',
    input: OrderRefInput,
    output: Type.Object({
      order_id: Type.String(),
      order_number: Type.String(),
      status: Type.String(),
      fulfillment_status: Type.String(),
      shipments: Type.Array(
        row('Shipment', undefined, {
          events: Type.Array(row('ShipmentEvent', ['id', 'shipment_id', 'status', 'location', 'description', 'raw_data', 'occurred_at'])),
          ndr_cases: Type.Array(row('NdrCase')),
        }),
      ),
    }),
    http: { method: 'GET', path: '/orders/:id/shipments' },
    handler: listShipments,
  }),
  shipping_rates: operation({
    description: "Asks a carrier (shipping.getRates: the one named, else the tenant's chosen shipping provider) for rates for this order.",
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        id: OrderRef,
        carrier_module: Type.Optional(Type.String({ minLength: 2 })),
        pickup_pincode: Type.String(),
        weight: Type.Optional(Measure),
        dimensions: Type.Optional(AnyObject),
      },
      { additionalProperties: false },
    ),
    output: ShippingRates,
    http: { method: 'POST', path: '/orders/:id/shipping-rates' },
    handler: shippingRates,
  }),
};
