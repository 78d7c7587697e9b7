/* eslint-disable */
/**
 * GENERATED from the manifest of orders@1.2.0 (range ^1.0.0). Do not edit by hand;
 * refresh with:
 *   mandi module types orders@^1.0.0 --from modules/orders --for modules/loyalty --out modules/loyalty/src/generated/orders.ts
 */

/**
 * Each operation of orders@1.2.0 this module consumes (api.consumes): its input and its output.
 */
export interface OrdersOperations {
  /**
   * One order by id or order_number, with items, totals and can_ship.
   */
  'orders.get': {
    input: OrdersGetInput;
    output: OrdersGetOutput;
  };
}
export interface OrdersGetInput {
  /**
   * order UUID or order_number
   */
  id: string;
}
export interface OrdersGetOutput {
  /**
   * decimal, as a string
   */
  balance_due: string;
  billing_address: unknown;
  billing_gstin: string | null;
  can_ship: boolean;
  cancel_reason: string | null;
  /**
   * ISO 8601 timestamp
   */
  cancelled_at: string | null;
  /**
   * ISO 8601 timestamp
   */
  created_at: string;
  currency: string;
  custom_fields: unknown;
  customer: unknown;
  customer_id: string | null;
  customer_name: string | null;
  /**
   * ISO 8601 timestamp
   */
  delivered_at: string | null;
  /**
   * decimal, as a string
   */
  discount: string;
  fulfillment_status: string;
  id: string;
  import_hash: string | null;
  is_cod: boolean;
  items: {
    /**
     * decimal, as a string
     */
    cgst: string;
    /**
     * decimal, as a string
     */
    discount: string;
    hsn_code: string | null;
    id: string;
    /**
     * decimal, as a string
     */
    igst: string;
    name: string;
    order_id: string;
    position: number;
    quantity: number;
    rate_source: string | null;
    /**
     * decimal, as a string
     */
    sgst: string;
    sku: string | null;
    /**
     * decimal, as a string
     */
    tax_rate: string;
    /**
     * decimal, as a string
     */
    tax_total: string;
    /**
     * decimal, as a string
     */
    taxable_amount: string;
    /**
     * decimal, as a string
     */
    total: string;
    unit: string | null;
    /**
     * decimal, as a string
     */
    unit_price: string;
    /**
     * decimal, as a string
     */
    weight: string | null;
  }[];
  notes: string | null;
  order_number: string;
  payment_status: string;
  same_state: boolean;
  shipping_address: unknown;
  /**
   * decimal, as a string
   */
  shipping_total: string;
  source: string | null;
  status: string;
  /**
   * decimal, as a string
   */
  subtotal: string;
  tax_details: unknown;
  /**
   * decimal, as a string
   */
  tax_total: string;
  /**
   * decimal, as a string
   */
  total: string;
  /**
   * decimal, as a string
   */
  total_credited: string;
  /**
   * decimal, as a string
   */
  total_paid: string;
  /**
   * decimal, as a string
   */
  total_refunded: string;
  /**
   * ISO 8601 timestamp
   */
  updated_at: string;
  version: number;
}
