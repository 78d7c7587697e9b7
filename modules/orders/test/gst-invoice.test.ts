/**
 * GST tax invoices and credit notes as PDFs (spec 3 Invoice; Rule 46 and Rule 53 of the CGST
 * Rules), the business profile that supplies the seller, and the list's search by customer name.
 * PDFs are read back as text with pdf2json, over the real download route.
 */
import PDFParser from 'pdf2json';
import type { TestHost } from '../../../sdk/testing';
import { createOrder, startOrdersHost } from './support';

let host: TestHost;

beforeAll(async () => {
  host = await startOrdersHost({});
}, 60_000);

afterAll(async () => {
  host?.clock.reset();
  await host?.close();
});

/** The PDF of an invoice record, downloaded like a user would, as its text (pdf2json's raw text, one line per text run). */
async function pdfText(invoice: { pdf_path: string | null }): Promise<string> {
  expect(invoice.pdf_path).toEqual(expect.any(String));
  const res = await fetch(`${host.url}/api/v1/documents/orders/${invoice.pdf_path!.split('/').pop()}`, { headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId } });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const parser = new PDFParser(null, true);
  return new Promise((resolve, reject) => {
    parser.on('pdfParser_dataError', (e) => reject('parserError' in e ? e.parserError : e));
    parser.on('pdfParser_dataReady', () => resolve(parser.getRawTextContent().replace(/\r\n/g, '\n')));
    parser.parseBuffer(bytes);
  });
}

const SELLER_GSTIN = '29ABCDE1234F1ZW'; // Karnataka, check character W
const BUYER_GSTIN = '27AAPFU0939F1ZV'; // Maharashtra
const PROFILE = {
  legal_name: 'Kaveri Textiles Private Limited', trade_name: 'Kaveri Handlooms', gstin: SELLER_GSTIN,
  address: { line1: '12 Residency Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560025' }, phone: '+918040000000', signatory: 'R. Kumar',
};

describe('spec 3 Invoice: without a business profile', () => {
  it('the PDF says the supplier details are missing rather than leaving them out', async () => {
    const o = await createOrder(host);
    const inv = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    expect(inv.body.seller).toBeNull();
    const text = await pdfText(inv.body);
    expect(text).toContain('Supplier details not set: fill the business profile (PUT /order-');
    expect(text).toContain('For (supplier not set)');
    expect(text).toContain('GSTIN: Unregistered'); // the buyer, who gave none
  });
});

describe('spec 3 Invoice: the business profile (supplier on tax invoices; route not shown in the spec)', () => {
  it('is empty until set, checks the whole profile with every problem in one 422, and its state becomes the seller state', async () => {
    expect((await host.request('GET', '/order-settings/business-profile')).body).toEqual({ business_profile: null });

    const missing = await host.request('PUT', '/order-settings/business-profile', { gstin: SELLER_GSTIN });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The given data was invalid.' });
    expect(Object.keys(missing.body.errors).sort()).toEqual(['address.city', 'address.line1', 'address.pincode', 'address.state', 'legal_name']);

    const put = (gstin: string, state = 'Karnataka') => host.request('PUT', '/order-settings/business-profile', { ...PROFILE, gstin, address: { ...PROFILE.address, state } });
    for (const [gstin, problem] of [
      ['29ABCDE1234F1Z', 'The GSTIN must be 15 characters.'],
      ['29ABCDE1234F1ZX', 'The GSTIN has a wrong check character (a typing mistake?).'],
      ['29ABCD11234F1ZW', expect.stringContaining('PAN')],
      ['40ABCDE1234F1ZW', 'The GSTIN starts with 40, which is not a GST state code.'],
    ] as const) {
      const res = await put(gstin);
      expect([res.status, res.body.errors]).toEqual([422, { gstin: [problem] }]);
    }
    const elsewhere = await put(SELLER_GSTIN, 'Goa');
    expect([elsewhere.status, elsewhere.body.errors]).toEqual([422, { gstin: ['The GSTIN is registered in state 29, but the address is in Goa (30).'] }]);

    const saved = await host.request('PUT', '/order-settings/business-profile', { ...PROFILE, gstin: ' 29abcde1234f1zw ', address: { ...PROFILE.address, state: '29' } });
    expect(saved.status).toBe(200);
    expect(saved.body.business_profile).toMatchObject({ gstin: SELLER_GSTIN, address: { state: 'Karnataka', state_code: '29', country: 'India' } });
    expect((await host.request('GET', '/order-settings')).body.seller_state).toBe('Karnataka');
    const other = await host.request('PUT', '/order-settings', { seller_state: 'Kerala' });
    expect([other.status, Object.keys(other.body.errors)]).toEqual([422, ['seller_state']]);
    // PUT merges: one field changes, the rest stays.
    const merged = await host.request('PUT', '/order-settings/business-profile', { signatory: 'R. Kumar, Director' });
    expect(merged.body.business_profile).toMatchObject({ legal_name: PROFILE.legal_name, gstin: SELLER_GSTIN, signatory: 'R. Kumar, Director' });
    expect((await host.request('PUT', '/order-settings/business-profile', { signatory: PROFILE.signatory })).status).toBe(200);
  });

  it('a buyer GSTIN is checked on order create and on invoice issue', async () => {
    const bad = await host.request('POST', '/orders', { customer: { email: 'b2b@example.com' }, items: [{ name: 'X', quantity: 1, unit_price: '1' }], billing_gstin: '27AAPFU0939F1ZA' });
    expect([bad.status, bad.body.errors]).toEqual([422, { billing_gstin: ['The GSTIN has a wrong check character (a typing mistake?).'] }]);
    const o = await createOrder(host);
    const inv = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice', billing_gstin: '27AAPFU0939', pdf: false });
    expect([inv.status, inv.body.errors]).toEqual([422, { billing_gstin: ['The GSTIN must be 15 characters.'] }]);
  });
});

describe('spec 3 Invoice: the PDF is a GST tax invoice (Rule 46 of the CGST Rules)', () => {
  it('inter-state B2B: supplier and recipient with addresses and GSTINs, HSN and unit per line, IGST, place of supply with code, reverse charge, amount in words, DD-MM-YYYY dates', async () => {
    const o = await createOrder(host, {
      customer: { email: 'buyer@deccan.example', name: 'Deccan Retail LLP' }, billing_gstin: BUYER_GSTIN,
      billing_address: { name: 'Deccan Retail LLP', line1: '4 Linking Road', city: 'Mumbai', state: 'Maharashtra', pincode: '400050' },
      shipping_address: { name: 'Deccan Retail Warehouse', line1: 'Plot 9 MIDC', city: 'Pune', state: 'MH', pincode: '411019' },
      items: [
        { name: 'Cotton kurta', hsn_code: '6109', quantity: 120, unit: 'pcs', unit_price: '850.00' },
        { name: 'Gift wrap', quantity: 1, unit_price: '100.00', tax_rate: 18 },
      ],
    });
    expect(o.same_state).toBe(false); // Maharashtra from Karnataka
    host.clock.set(new Date('2031-03-31T20:30:00Z')); // 1 April 2031, 02:00 in India
    const inv = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    host.clock.reset();
    expect(inv.status).toBe(201);
    expect(inv.body).toMatchObject({ total: '120478.00', seller: { gstin: SELLER_GSTIN }, place_of_supply: { state: 'Maharashtra', code: '27' } });
    const text = await pdfText(inv.body);
    for (const expected of [
      'TAX INVOICE',
      'Kaveri Textiles Private Limited', '(Kaveri Handlooms)', '12 Residency Road', 'Bengaluru - 560025', 'State: Karnataka, Code: 29', `GSTIN: ${SELLER_GSTIN}`,
      inv.body.invoice_number, '01-04-2031', '01-05-2031', // date of issue and due date, India's calendar
      'Maharashtra (27)', 'Inter-state (IGST)', 'No',
      'Deccan Retail LLP', '4 Linking Road', 'Mumbai - 400050', 'State: Maharashtra, Code: 27', `GSTIN: ${BUYER_GSTIN}`,
      'Deccan Retail Warehouse', 'Plot 9 MIDC', // ship-to differs from bill-to
      'HSN/SAC', 'Cotton kurta', '6109', '120', 'PCS', '850.00', '1,02,000.00', '18%', '18,360.00', '1,20,360.00',
      'Gift wrap', 'Not given', 'NOS',
      'IGST', '18,378.00', '1,20,478.00',
      'Rupees One Lakh Twenty Thousand Four Hundred Seventy Eight Only',
      'For Kaveri Textiles Private Limited', 'R. Kumar', 'Authorised Signatory',
    ]) expect(text).toContain(expected);
    expect(text).toMatch(/HSN\/SAC "Not given": the order holds no HSN or SAC code/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // no ISO timestamps
    expect(text).not.toContain('CGST');
  });

  it('intra-state B2C: CGST and SGST, an unregistered recipient, paise in words', async () => {
    const o = await createOrder(host, { items: [{ name: 'Silk scarf', hsn_code: '6214', quantity: 3, unit_price: '333.33', tax_rate: 5 }] });
    const inv = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice' });
    expect(inv.body).toMatchObject({ total: '1049.99', tax_details: { cgst: '25.00', sgst: '25.00' } });
    const text = await pdfText(inv.body);
    for (const expected of ['Asha Rao', 'GSTIN: Unregistered', 'Karnataka (29)', 'Intra-state (CGST + SGST)', 'CGST', 'SGST', '5%', '999.99', '25.00', '1,049.99',
      'Rupees One Thousand Forty Nine and Ninety Nine Paise Only']) expect(text).toContain(expected);
  });

  it('a credit note is titled Credit Note and names the invoice it adjusts with its date', async () => {
    const o = await createOrder(host);
    host.clock.set(new Date('2031-06-10T06:00:00Z'));
    const inv = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'invoice', pdf: false });
    host.clock.set(new Date('2031-06-20T06:00:00Z'));
    const cn = await host.request('POST', `/orders/${o.id}/invoices`, { type: 'credit_note', amount: '118.00', reason: 'damaged item' });
    host.clock.reset();
    expect(cn.body.original_invoice).toEqual({ id: inv.body.id, invoice_number: inv.body.invoice_number, issued_at: inv.body.issued_at });
    const text = await pdfText(cn.body);
    for (const expected of ['CREDIT NOTE', 'Credit Note No.', cn.body.invoice_number, '20-06-2031', `${inv.body.invoice_number} dated 10-06-2031`, 'damaged item',
      `GSTIN: ${SELLER_GSTIN}`, '6109', '18%', '100.00', '9.00', 'Total credit', 'Rupees One Hundred Eighteen Only', 'Authorised Signatory']) expect(text).toContain(expected);
    expect(text).not.toContain('TAX INVOICE');
  });
});

describe('spec 3 orders list: search also finds the customer by name', () => {
  it('GET /orders?search= and the orders.list screen\'s searchable list match part of the customer\'s name, any case', async () => {
    const meera = await createOrder(host, { customer: { email: 'meera@example.com', name: 'Meera Iyengar' } });
    await createOrder(host, { customer: { email: 'ravi@example.com', name: 'Ravi Shankar' } });
    const found = await host.request('GET', '/orders?search=iyeng');
    expect(found.status).toBe(200);
    expect(found.body.data.map((o: { id: string }) => o.id)).toEqual([meera.id]);
    expect(found.body.data[0].customer_name).toBe('Meera Iyengar');
    const screen = await host.request('GET', '/mobile/screens/orders.list/data/orders?search=MEERA');
    expect(screen.status).toBe(200);
    expect(screen.body.data.map((o: { id: string }) => o.id)).toEqual([meera.id]);
    // The order number and customer id still match, and a wildcard is taken literally.
    expect((await host.request('GET', `/orders?search=${meera.order_number}`)).body.data).toHaveLength(1);
    expect((await host.request('GET', '/orders?search=%25')).body.data).toHaveLength(0);
  });
});
