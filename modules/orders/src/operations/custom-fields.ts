/** orders operations: order custom field definitions and the values of one order. */
import { operation, Type } from '../../../../sdk';
import { DataList, Deleted, OrderView, row } from '../outputs';
import { AnyObject, CustomFieldRef, NoInput, OrderRef, recordInput } from '../schemas';
import { updateOrderCustomFields } from '../custom-field-values';
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField } from '../custom-fields';

/** A custom field definition; an update may give any of these, a create gives the flags defaults. */
const FieldDefinition = {
  field_key: Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$',
    description: "snake_case key in the order's custom_fields",
  }),
  field_label: Type.String({ minLength: 1, maxLength: 255 }),
  field_type: Type.StringEnum(['text', 'number', 'select', 'boolean', 'date']),
  options: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      maxItems: 200,
      uniqueItems: true,
      description: 'choices of a select field',
    }),
  ),
  is_required: Type.Optional(Type.Boolean()),
  is_filterable: Type.Optional(Type.Boolean()),
  sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
};
const FieldInput = recordInput('field', CustomFieldRef);

export const customFieldOperations = {
  create_custom_field: operation({
    description: 'Defines an order custom field {field_key, field_label, field_type, options, is_required, is_filterable, sort_order}.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        ...FieldDefinition,
        is_required: Type.Optional(Type.Boolean({ default: false })),
        is_filterable: Type.Optional(Type.Boolean({ default: false })),
        sort_order: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, default: 0 })),
      },
      { additionalProperties: false },
    ),
    output: row('CustomField'),
    http: { method: 'POST', path: '/order-custom-fields' },
    handler: createCustomField,
  }),
  list_custom_fields: operation({
    description: 'Custom field definitions by sort_order.',
    permission: 'orders.view',
    ai_tool: false,
    input: NoInput,
    output: DataList(row('CustomField')),
    http: { method: 'GET', path: '/order-custom-fields' },
    handler: listCustomFields,
  }),
  get_custom_field: operation({
    description: 'One custom field definition.',
    permission: 'orders.view',
    ai_tool: false,
    input: FieldInput,
    output: row('CustomField'),
    http: { method: 'GET', path: '/order-custom-fields/:field' },
    handler: getCustomField,
  }),
  update_custom_field: operation({
    description: "Changes a custom field's label, options, flags or sort order (field_key and field_type are fixed).",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ field: CustomFieldRef, ...Type.Partial(Type.Object(FieldDefinition)).properties }, { additionalProperties: false }),
    output: row('CustomField'),
    http: { method: 'PUT', path: '/order-custom-fields/:field' },
    handler: updateCustomField,
  }),
  delete_custom_field: operation({
    description: 'Deletes a custom field definition; values already on orders stay.',
    permission: 'orders.manage',
    ai_tool: false,
    input: FieldInput,
    output: Deleted(Type.String(), { field_key: Type.String() }),
    http: { method: 'DELETE', path: '/order-custom-fields/:field' },
    handler: deleteCustomField,
  }),
  update_custom_fields: operation({
    description: 'Sets custom field values of an order (merged; null removes one), validated against the definitions.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      { id: OrderRef, custom_fields: AnyObject },
      { additionalProperties: false },
    ),
    output: OrderView,
    http: { method: 'PATCH', path: '/orders/:id/custom-fields' },
    handler: updateOrderCustomFields,
  }),
};
