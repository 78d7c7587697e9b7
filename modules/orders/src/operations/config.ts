/** orders operations: tax configurations and calculation, settings, business profile. */
import { operation, Type } from '../../../../sdk';
import { DataList, Deleted, ProfileOut, ProfileSaved, row, Settings, TaxOut } from '../outputs';
import { Money, NoInput, recordInput, RecordId } from '../schemas';
import { getBusinessProfile, updateBusinessProfile } from '../business-profile';
import {
  calculateTax,
  createTaxConfig,
  deleteTaxConfig,
  getSettings,
  getTaxConfig,
  listTaxConfigs,
  updateSettings,
  updateTaxConfig,
} from '../config';
import { orderNode } from '../workflow-nodes';

/** A GST rate in percent, a number or a decimal string. */
const TaxRate = Type.Unsafe<string | number>({ type: ['string', 'number'] });
const TaxType = Type.StringEnum(['gst', 'vat', 'sales_tax']);
/** A tax configuration as created; an update may give any of these. */
const TaxConfigFields = {
  name: RecordId,
  rate: TaxRate,
  type: TaxType,
  is_default: Type.Optional(Type.Boolean()),
  hsn_codes: Type.Optional(Type.Array(Type.Unsafe<string | number>({ type: ['string', 'integer'] }), { maxItems: 1000 })),
};
const ConfigId = Type.Integer({ minimum: 1 });
const TaxConfigInput = recordInput('config_id', ConfigId);

export const configOperations = {
  calculate_tax: operation({
    description: 'GST on an amount (spec 3 tax calculation): rate by the four-step lookup; CGST+SGST halves intra-state, IGST inter-state.',
    permission: 'orders.view',
    input: Type.Object(
      {
        amount: Money,
        hsn_code: Type.Optional(Type.String({ maxLength: 20 })),
        same_state: Type.Optional(Type.Boolean({ default: true })),
        rate_override: Type.Optional(TaxRate),
      },
      { additionalProperties: false },
    ),
    output: TaxOut,
    node: orderNode('calculate-gst', 'Calculate GST', 'GST on an amount.', 'transformer'),
    http: { method: 'POST', path: '/order-tax/calculate' },
    handler: calculateTax,
  }),
  list_tax_configs: operation({
    description: 'Tax configurations.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object({ type: Type.Optional(TaxType) }, { additionalProperties: false }),
    output: DataList(row('TaxConfig')),
    http: { method: 'GET', path: '/order-tax-configurations' },
    handler: listTaxConfigs,
  }),
  create_tax_config: operation({
    description: "Creates a tax configuration; is_default replaces the type's previous default.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(TaxConfigFields, { additionalProperties: false }),
    output: row('TaxConfig'),
    http: { method: 'POST', path: '/order-tax-configurations' },
    handler: createTaxConfig,
  }),
  get_tax_config: operation({
    description: 'One tax configuration.',
    permission: 'orders.view',
    ai_tool: false,
    input: TaxConfigInput,
    output: row('TaxConfig'),
    http: { method: 'GET', path: '/order-tax-configurations/:config_id' },
    handler: getTaxConfig,
  }),
  update_tax_config: operation({
    description: 'Updates a tax configuration.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ config_id: ConfigId, ...Type.Partial(Type.Object(TaxConfigFields)).properties }, { additionalProperties: false }),
    output: row('TaxConfig'),
    http: { method: 'PUT', path: '/order-tax-configurations/:config_id' },
    handler: updateTaxConfig,
  }),
  delete_tax_config: operation({
    description: 'Deletes a tax configuration.',
    permission: 'orders.manage',
    ai_tool: false,
    input: TaxConfigInput,
    output: Deleted(Type.Integer()),
    http: { method: 'DELETE', path: '/order-tax-configurations/:config_id' },
    handler: deleteTaxConfig,
  }),
  get_settings: operation({
    description: 'Orders settings of the tenant (seller state for GST, default payment provider, NDR rules).',
    permission: 'orders.view',
    ai_tool: false,
    input: NoInput,
    output: Settings,
    http: { method: 'GET', path: '/order-settings' },
    handler: getSettings,
  }),
  update_settings: operation({
    description: 'Changes orders settings.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        seller_state: Type.Optional(Type.String({ maxLength: 50 })),
        default_payment_provider: Type.Optional(Type.String({ maxLength: 100 })),
        ndr_max_attempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
        ndr_auto_reattempt: Type.Optional(Type.Boolean()),
        webhook_retry_backoff_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 3600000 })),
      },
      { additionalProperties: false },
    ),
    output: Settings,
    http: { method: 'PUT', path: '/order-settings' },
    handler: updateSettings,
  }),
  get_business_profile: operation({
    description: "The tenant's business profile: the supplier's name, address and GSTIN printed on tax invoices and credit notes.",
    permission: 'orders.view',
    ai_tool: false,
    input: NoInput,
    output: ProfileOut,
    http: { method: 'GET', path: '/order-settings/business-profile' },
    handler: getBusinessProfile,
  }),
  update_business_profile: operation({
    description:
      'Sets the business profile (fields given are merged; the whole profile is checked: legal name, address with state and PIN code, GSTIN format, check character and state). Its state becomes the seller state for GST.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        legal_name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
        trade_name: Type.Optional(Type.String({ maxLength: 255 })),
        gstin: Type.Optional(
          Type.Nullable(
            Type.String({
              maxLength: 20,
              description: '15 characters: state code, PAN, entity number, Z, check character; null when not registered',
            }),
          ),
        ),
        address: Type.Optional(
          Type.Object(
            {
              line1: Type.Optional(Type.String({ maxLength: 255 })),
              line2: Type.Optional(Type.String({ maxLength: 255 })),
              city: Type.Optional(Type.String({ maxLength: 100 })),
              state: Type.Optional(Type.String({ maxLength: 60, description: "state name or GST state code; must match the GSTIN's" })),
              pincode: Type.Optional(Type.String({ maxLength: 10 })),
              country: Type.Optional(Type.String({ maxLength: 60 })),
            },
            { additionalProperties: false },
          ),
        ),
        email: Type.Optional(Type.String({ maxLength: 255 })),
        phone: Type.Optional(Type.String({ maxLength: 30 })),
        signatory: Type.Optional(Type.String({ maxLength: 255, description: 'name printed above Authorised Signatory' })),
      },
      { additionalProperties: false },
    ),
    output: ProfileSaved,
    http: { method: 'PUT', path: '/order-settings/business-profile' },
    handler: updateBusinessProfile,
  }),
};
