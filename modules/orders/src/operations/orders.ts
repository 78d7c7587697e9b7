/** orders operations: the order itself: create, read, list, status, cancel, delete, history. */
import { operation, Type } from '../../../../sdk';
import { Deleted, OrderListView, OrderView, Pagination, row } from '../outputs';
import { Address, AnyObject, CustomerInput, ItemInput, Money, OrderRef, OrderRefInput, StatusChangeProps } from '../schemas';
import { cancelOrder, createOrder, deleteOrder, getOrder, history, listOrders, updateStatus } from '../orders';
import { orderNode } from '../workflow-nodes';

export const orderOperations = {
  create: operation({
    description: 'Creates an order: items priced, GST computed per line, totals, order.created published.',
    permission: 'orders.create',
    input: Type.Object(
      {
        order_number: Type.Optional(Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_./-]+$' })),
        customer: CustomerInput,
        items: Type.Array(ItemInput, { minItems: 1, maxItems: 500 }),
        currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', default: 'INR' })),
        is_cod: Type.Optional(Type.Boolean({ default: false })),
        same_state: Type.Optional(
          Type.Boolean({
            description: 'intra-state supply (CGST+SGST); default: compare the shipping address state with the seller state, else true',
          }),
        ),
        status: Type.Optional(Type.StringEnum(['pending', 'confirmed'], { default: 'pending' })),
        discount: Type.Optional(Money),
        shipping_total: Type.Optional(Money),
        billing_address: Type.Optional(Address),
        shipping_address: Type.Optional(Address),
        billing_gstin: Type.Optional(
          Type.String({ maxLength: 20, description: "the buyer's GSTIN (15 characters, checked) when registered" }),
        ),
        custom_fields: Type.Optional(AnyObject),
        notes: Type.Optional(Type.String({ maxLength: 5000 })),
        source: Type.Optional(Type.String({ maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    output: OrderView,
    http: { method: 'POST', path: '/orders' },
    handler: createOrder,
  }),
  list: operation({
    description:
      'Lists orders: filters (status, payment_status, is_cod, customer, dates, custom fields), search over order number, customer id and customer name, sort, pagination.',
    permission: 'orders.view',
    input: Type.Object(
      {
        status: Type.Optional(Type.String()),
        payment_status: Type.Optional(Type.String()),
        fulfillment_status: Type.Optional(Type.String()),
        is_cod: Type.Optional(Type.Boolean()),
        customer_id: Type.Optional(Type.String()),
        search: Type.Optional(
          Type.String({ maxLength: 100, description: 'part of the order number, customer id or customer name, any case' }),
        ),
        from: Type.Optional(Type.String()),
        to: Type.Optional(Type.String()),
        sort: Type.Optional(
          Type.StringEnum(
            [
              'created_at',
              '-created_at',
              'total',
              '-total',
              'order_number',
              '-order_number',
              'newest',
              'oldest',
              'price_asc',
              'price_desc',
            ],
            {
              default: '-created_at',
              description: "a column, - first for descending; or spec 1's screen words newest, oldest, price_asc, price_desc",
            },
          ),
        ),
        page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
        per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
        custom_fields: Type.Optional(
          Type.Unsafe<Record<string, unknown>>({
            type: 'object',
            description:
              'is_filterable custom fields, {field_key: value}, all must match; in a query string custom_fields[field_key]=value',
          }),
        ),
      },
      { additionalProperties: true },
    ),
    output: Type.Object({ data: Type.Array(OrderListView), pagination: Pagination }),
    http: { method: 'GET', path: '/orders' },
    handler: listOrders,
  }),
  get: operation({
    description: 'One order by id or order_number, with items, totals and can_ship.',
    permission: 'orders.view',
    input: OrderRefInput,
    output: OrderView,
    node: orderNode('get-order', 'Get order', 'Loads an order by id or number.'),
    http: { method: 'GET', path: '/orders/:id' },
    handler: getOrder,
  }),
  update_status: operation({
    description:
      'Moves an order along its lifecycle (confirmed → processing → ready_to_ship, cancelled, and the tracking states); shipped only through ship.',
    permission: 'orders.manage',
    input: Type.Object({ id: OrderRef, ...StatusChangeProps }, { additionalProperties: false }),
    output: OrderView,
    node: orderNode('update-status', 'Update order status', 'Moves an order to a new status.'),
    http: { method: 'POST', path: '/orders/:id/status' },
    handler: updateStatus,
  }),
  cancel: operation({
    description: 'Cancels an order that has not shipped.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ id: OrderRef, reason: Type.Optional(Type.String({ maxLength: 500 })) }, { additionalProperties: false }),
    output: OrderView,
    http: { method: 'POST', path: '/orders/:id/cancel' },
    handler: cancelOrder,
  }),
  delete: operation({
    description: 'Deletes an order that has no payments, invoices or shipments.',
    permission: 'orders.delete',
    ai_tool: false,
    input: OrderRefInput,
    output: Deleted(Type.String()),
    http: { method: 'DELETE', path: '/orders/:id' },
    handler: deleteOrder,
  }),
  history: operation({
    description: 'Status history of an order.',
    permission: 'orders.view',
    input: OrderRefInput,
    output: Type.Object({ order_id: Type.String(), history: Type.Array(row('StatusChange')) }),
    http: { method: 'GET', path: '/orders/:id/history' },
    handler: history,
  }),
};
