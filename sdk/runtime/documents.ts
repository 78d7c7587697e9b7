/**
 * Data of the core operation `documents.render_pdf` with template "invoice": a GST tax invoice,
 * credit note or proforma as a module hands it to the host, which lays it out with pdfkit
 * (core/documents). Amounts are decimal strings; dates ISO 8601 (printed DD-MM-YYYY, India time).
 * Fields Rule 46 of the CGST Rules asks for and the module does not have are passed as null: the
 * PDF then says so in place rather than leaving them out.
 */
export interface DocumentParty {
  name: string | null;
  trade_name?: string | null;
  gstin?: string | null;
  address_lines?: string[];
  state?: string | null;
  state_code?: string | null;
  email?: string | null;
  phone?: string | null;
}

export interface InvoiceDocumentLine {
  description: string;
  /** null: the order holds no HSN/SAC code for the line. */
  hsn_code: string | null;
  quantity: number | null;
  unit: string | null;
  unit_price: string | null;
  discount?: string | null;
  taxable_value: string;
  /** GST rate in percent; null when the line mixes rates (a credit note over such an order). */
  tax_rate: string | null;
  cgst: string;
  sgst: string;
  igst: string;
  total: string;
}

export interface InvoiceDocument {
  kind: 'tax_invoice' | 'credit_note' | 'proforma';
  number: string;
  issued_at: string;
  due_at?: string | null;
  order_number?: string | null;
  currency: string;
  /** The supplier (the tenant's business profile); null when the tenant has not set one. */
  seller: DocumentParty | null;
  signatory?: string | null;
  buyer: DocumentParty;
  /** Delivery address when it differs from the billing address. */
  ship_to?: DocumentParty | null;
  place_of_supply: { state: string; code: string | null } | null;
  same_state: boolean;
  reverse_charge: boolean;
  lines: InvoiceDocumentLine[];
  totals: { taxable_value: string; discount: string; shipping: string; cgst: string; sgst: string; igst: string; total_tax: string; total: string };
  /** Credit notes: the invoice they adjust (null when the order has none). */
  original_invoice?: { number: string; issued_at: string } | null;
  reason?: string | null;
}

/** One movement line of a wallet statement: `amount` is signed (credit +, debit −), `balance` the running balance after it. */
export interface StatementDocumentLine {
  /** ISO 8601 UTC instant; printed as its UTC day, the calendar the statement's period is in. */
  date: string;
  type: string;
  reference: string;
  order_number: string | null;
  description: string;
  amount: string;
  balance: string;
}

/**
 * Data of `documents.render_pdf` with template "statement": a wallet statement of one tenant over
 * a period of whole UTC days, opening balance, every movement with its running balance, closing balance.
 */
export interface StatementDocument {
  account_holder: string;
  account_id: string;
  currency: string;
  from: string;
  to: string;
  generated_at: string;
  opening_balance: string;
  credits_total: string;
  debits_total: string;
  closing_balance: string;
  lines: StatementDocumentLine[];
}
