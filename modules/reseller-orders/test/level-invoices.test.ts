/**
 * GST tax invoices between the levels of the chain (spec 3, Chain order: pricing; Tax
 * configuration; reseller-orders README: GST invoices between levels), on the real 4-level chain
 * A → B → C → D over HTTP: at delivery each level that sold the order to the level below invoices
 * it for its bound price, split CGST/SGST or IGST by the two tenants' states; a return reverses
 * every invoice by a credit note; PDFs read back with pdf2json over the download route.
 */
import PDFParser from 'pdf2json';
import Decimal from 'decimal.js';
import { addProduct, copyAt, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
// A and B in Karnataka, C and D in Maharashtra: A → B and C → D intra-state, B → C inter-state.
const GSTIN: Record<'A' | 'B' | 'C' | 'D', string> = { A: '29AAGCB7383J1Z4', B: '29AAACT2727Q1ZS', C: '27AAACR5055K1Z7', D: '27AABCS1429B1ZU' };
const ADDRESS = {
  KA: { line1: '12 Residency Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560025' },
  MH: { line1: '4 Marine Drive', city: 'Mumbai', state: 'Maharashtra', pincode: '400020' },
};

beforeAll(async () => {
  c = await startChain();
  for (const level of ['A', 'B', 'C', 'D'] as const) {
    const r = await c.as(level, 'PUT', '/order-settings/business-profile', { legal_name: `Level ${level} Traders Private Limited`, gstin: GSTIN[level], address: level === 'A' || level === 'B' ? ADDRESS.KA : ADDRESS.MH });
    expect(r.status).toBe(200);
  }
}, 240_000);
afterAll(async () => {
  c?.host.clock.reset();
  await c?.host.close();
});

type OrderLine = { name: string; sku: string; quantity: number; unit_price: string; tax_rate: string; hsn_code: string };
type Invoice = { id: string; type: string; direction: string; invoice_number: string; seller: { tenant_id: string; gstin: string }; buyer: { tenant_id: string; gstin: string }; [k: string]: unknown };

/**
 * An order of `quantity` kettles (SKU-1, HSN 7323, GST `rate`) sold at D, COD or prepaid (paid in
 * full at D), forwarded to A, accepted, shipped and delivered (`beforeDelivery` run just before).
 */
async function delivered(quantity: number, rate: string, beforeDelivery: () => Promise<void> = async () => {}, cod = true, lines?: OrderLine[]) {
  const order = await placeOrder(c, 'D', 'Asha Rao', cod, (lines ?? [{ name: 'Steel kettle', sku: 'SKU-1', quantity, unit_price: '1500.00', tax_rate: rate, hsn_code: '7323' }]) as never);
  let paymentId = '';
  if (!cod) {
    const paid = await c.as('D', 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total });
    expect(paid.status).toBe(201);
    paymentId = paid.body.id;
  }
  expect((await c.as('D', 'POST', '/chain-orders', { order_id: order.id })).status).toBe(201);
  for (const level of ['D', 'C', 'B'] as const) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
  const top = (await copyAt(c, 'A', order.order_number))!;
  for (const [step, body] of [['accept', undefined], ['ship', { tracking_number: `TRK-${order.order_number}`, carrier: 'Delhivery' }], ['deliver', undefined]] as const) {
    if (step === 'deliver') await beforeDelivery();
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/${step}`, body)).status).toBe(200);
  }
  const ids = {} as Record<Level, string>;
  for (const level of ['A', 'B', 'C', 'D'] as const) ids[level] = (await copyAt(c, level, order.order_number))!.id;
  return { order, ids, paymentId };
}

const invoicesOf = async (level: Level, id: string): Promise<Invoice[]> => {
  const r = await c.as(level, 'GET', `/chain-orders/${id}/invoices`);
  expect(r.status).toBe(200);
  return r.body.invoices;
};

async function pdfText(level: Level, id: string, invoiceId: string): Promise<string> {
  const r = await c.as(level, 'GET', `/chain-orders/${id}/invoices/${invoiceId}/pdf`);
  expect(r.status).toBe(200);
  const res = await fetch(`${c.host.url}${new URL(r.body.pdf_url, c.host.url).pathname}`, { headers: { authorization: `Bearer ${c.tokens[level]}`, 'x-tenant': c.ids[level] } });
  expect(res.status).toBe(200);
  const bytes = Buffer.from(await res.arrayBuffer());
  const parser = new PDFParser(null, true);
  return new Promise((resolve, reject) => {
    parser.on('pdfParser_dataError', (e) => reject('parserError' in e ? e.parserError : e));
    parser.on('pdfParser_dataReady', () => resolve(parser.getRawTextContent().replace(/\r\n/g, '\n')));
    parser.parseBuffer(bytes);
  });
}

const line = (quantity: number, unit: string, taxable: string, rate: string, cgst: string, sgst: string, igst: string, total: string) =>
  ({ sku: 'SKU-1', hsn_code: '7323', quantity, unit_price: unit, taxable_value: taxable, tax_rate: rate, cgst, sgst, igst, total });

describe('spec 3 Chain order pricing, Tax configuration: GST invoices between levels (README)', () => {
  let first: Awaited<ReturnType<typeof delivered>>;
  let byLevel: Record<Level, Invoice[]>;

  beforeAll(async () => {
    first = await delivered(2, '12');
    byLevel = {} as Record<Level, Invoice[]>;
    for (const level of ['A', 'B', 'C', 'D'] as const) byLevel[level] = await invoicesOf(level, first.ids[level]);
  }, 120_000);

  test('a 4-level chain delivered: 3 invoices, each for the bound price of the level below, with its parties and split', () => {
    const { A, B, C, D } = byLevel;
    expect(A.map((i) => i.direction)).toEqual(['issued']);
    expect(B.map((i) => i.direction)).toEqual(['received', 'issued']);
    expect(C.map((i) => i.direction)).toEqual(['received', 'issued']);
    expect(D.map((i) => i.direction)).toEqual(['received']);
    // What one level issued is what the level below received.
    expect({ ...B[0], direction: 'issued' }).toEqual(A[0]);
    expect({ ...C[0], direction: 'issued' }).toEqual(B[1]);
    expect({ ...D[0], direction: 'issued' }).toEqual(C[1]);
    const [ab, bc, cd] = [A[0]!, B[1]!, C[1]!];
    for (const i of [ab, bc, cd]) expect(i.invoice_number).toMatch(/^RINV-\d{6}-\d{4}$/);
    // A → B, both in Karnataka: CGST + SGST on B's cost 2 × 1100.00.
    expect(ab).toMatchObject({
      type: 'invoice', origin_order_number: first.order.order_number, currency: 'INR', same_state: true, place_of_supply: { state: 'Karnataka', code: '29' },
      seller: { tenant_id: c.ids.A, gstin: GSTIN.A, name: 'Level A Traders Private Limited', state_code: '29' }, buyer: { tenant_id: c.ids.B, gstin: GSTIN.B, state_code: '29' },
      lines: [line(2, '1100.00', '2200.00', '12.00', '132.00', '132.00', '0.00', '2464.00')],
      taxable_value: '2200.00', cgst: '132.00', sgst: '132.00', igst: '0.00', total_tax: '264.00', total: '2464.00', original_invoice: null,
    });
    // B (Karnataka) → C (Maharashtra): IGST, supplied where the buyer is.
    expect(bc).toMatchObject({
      same_state: false, place_of_supply: { state: 'Maharashtra', code: '27' }, seller: { tenant_id: c.ids.B, gstin: GSTIN.B }, buyer: { tenant_id: c.ids.C, gstin: GSTIN.C },
      lines: [line(2, '1210.00', '2420.00', '12.00', '0.00', '0.00', '290.40', '2710.40')],
      taxable_value: '2420.00', cgst: '0.00', sgst: '0.00', igst: '290.40', total_tax: '290.40', total: '2710.40',
    });
    // C → D, both in Maharashtra; the taxable value is D's bound cost exactly.
    expect(cd).toMatchObject({
      same_state: true, seller: { tenant_id: c.ids.C, gstin: GSTIN.C }, buyer: { tenant_id: c.ids.D, gstin: GSTIN.D },
      lines: [line(2, '1331.00', '2662.00', '12.00', '159.72', '159.72', '0.00', '2981.44')],
      taxable_value: '2662.00', cgst: '159.72', sgst: '159.72', igst: '0.00', total_tax: '319.44', total: '2981.44',
    });
  });

  test('the taxable value equals each level\'s bound cost (pricing.your_cost of the buyer)', async () => {
    for (const [buyer, invoice] of [['B', byLevel.A[0]], ['C', byLevel.B[1]], ['D', byLevel.C[1]]] as const) {
      const copy = (await c.as(buyer, 'GET', `/chain-orders/${first.ids[buyer]}`)).body.order;
      expect({ buyer, taxable: invoice!.taxable_value }).toEqual({ buyer, taxable: copy.pricing.your_cost });
    }
  });

  test('delivery repeated (two more delivers at once; a level reached late, its delivered push sent three times at once): still 3 invoices', async () => {
    const again = await Promise.all([1, 2].map(() => c.as('A', 'POST', `/chain-orders/${first.ids.A}/deliver`)));
    expect(again.map((r) => [r.status, r.body.code])).toEqual([[422, 'INVALID_STATUS'], [422, 'INVALID_STATUS']]);
    for (const level of ['A', 'B', 'C', 'D'] as const) expect({ level, invoices: await invoicesOf(level, first.ids[level]) }).toEqual({ level, invoices: byLevel[level] });

    // C suspended by B while the order is delivered: C's delivered state spends the push job's attempts.
    const late = await delivered(1, '12', async () => {
      expect((await c.as('B', 'POST', `/reseller/sub-resellers/${c.ids.C}/suspend`, {})).status).toBe(200);
    });
    expect(await c.host.runJobs(c.host.clock.now() + 60_000)).toContainEqual(expect.objectContaining({ job: 'push', status: 'failed', attempts: 10 }));
    expect((await c.as('B', 'POST', `/reseller/sub-resellers/${c.ids.C}/reactivate`, {})).status).toBe(200);
    const stuck = (await c.as('A', 'GET', '/chain-orders/propagations?state=stuck&per_page=100')).body.propagations.filter((p: { chain_order_id: string }) => p.chain_order_id === late.ids.A);
    // C's and D's (the subtree under the suspended link is out of reach too).
    expect(stuck.map((p: { status: string; target_tenant_id: string }) => [p.status, p.target_tenant_id])).toContainEqual(['delivered', c.ids.C]);
    const retried = await Promise.all(stuck.flatMap((p: { id: string }) => [1, 2, 3].map(() => c.as('A', 'POST', `/chain-orders/propagations/${p.id}/retry`))));
    expect(retried.filter((r) => r.status === 200 && r.body.applied)).toHaveLength(stuck.length);
    for (const level of ['C', 'D'] as const) expect((await copyAt(c, level, late.order.order_number))!.chain_status).toBe('delivered');
    const numbers = new Set<string>();
    for (const [level, shape] of [['A', ['issued']], ['B', ['received', 'issued']], ['C', ['received', 'issued']], ['D', ['received']]] as const) {
      const list = await invoicesOf(level, late.ids[level]);
      expect({ level, directions: list.map((i) => i.direction) }).toEqual({ level, directions: shape });
      for (const i of list) numbers.add(`${i.seller.tenant_id}:${i.invoice_number}`); // each seller numbers in its own series
    }
    expect(numbers.size).toBe(3);
  }, 120_000);

  test('the period list (JSON and CSV): what each tenant issued and received, for its GST returns', async () => {
    const today = new Date(c.host.clock.now()).toISOString().slice(0, 10);
    const mine = (list: Invoice[]) => list.filter((i) => i.origin_order_number === first.order.order_number).map((i) => [i.direction, i.invoice_number]);
    const b = await c.as('B', 'GET', `/chain-invoices?from_date=${today}&to_date=${today}`);
    expect(b.status).toBe(200);
    expect(mine(b.body.invoices).sort()).toEqual([['issued', byLevel.B[1]!.invoice_number], ['received', byLevel.A[0]!.invoice_number]].sort());
    expect(mine((await c.as('B', 'GET', `/chain-invoices?direction=received&from_date=${today}`)).body.invoices)).toEqual([['received', byLevel.A[0]!.invoice_number]]);
    expect(mine((await c.as('D', 'GET', '/chain-invoices')).body.invoices)).toEqual([['received', byLevel.C[1]!.invoice_number]]);
    expect(mine((await c.as('A', 'GET', '/chain-invoices?to_date=2000-01-01')).body.invoices)).toEqual([]);
    const res = await fetch(`${c.host.url}/api/v1/chain-invoices/export?from_date=${today}`, { headers: { authorization: `Bearer ${c.tokens.C}`, 'x-tenant': c.ids.C } });
    expect(res.status).toBe(200);
    const rows = (await res.text()).trim().split(/\r?\n/);
    expect(rows[0]).toBe('direction,type,invoice_number,issued_at,origin_order_number,seller_name,seller_gstin,buyer_name,buyer_gstin,place_of_supply,taxable_value,cgst,sgst,igst,total_tax,total,original_invoice_number');
    expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^received,invoice,${byLevel.B[1]!.invoice_number},.*,${GSTIN.B},.*,${GSTIN.C},27-Maharashtra,2420.00,0.00,0.00,290.40,290.40,2710.40,$`)));
    expect(rows).toContainEqual(expect.stringMatching(new RegExp(`^issued,invoice,${byLevel.C[1]!.invoice_number},.*,2662.00,159.72,159.72,0.00,319.44,2981.44,$`)));
  });

  test('the PDF, read back by the seller and by the buyer: a tax invoice with both GSTINs, the split and the totals', async () => {
    const bc = byLevel.B[1]!;
    for (const [level, id] of [['B', first.ids.B], ['C', first.ids.C]] as const) {
      const text = await pdfText(level, id, bc.id);
      for (const s of [bc.invoice_number, GSTIN.B, GSTIN.C, 'IGST', '7323', '2,420.00', '290.40', '2,710.40', first.order.order_number]) expect({ level, has: s, found: text.includes(s) }).toEqual({ level, has: s, found: true });
    }
    const cd = await pdfText('D', first.ids.D, byLevel.D[0]!.id);
    for (const s of [byLevel.C[1]!.invoice_number, GSTIN.C, GSTIN.D, 'CGST', 'SGST', '159.72', '2,981.44']) expect(cd).toContain(s);
    // Downloaded twice: the same file.
    const once = await c.as('D', 'GET', `/chain-orders/${first.ids.D}/invoices/${byLevel.D[0]!.id}/pdf`);
    expect((await c.as('D', 'GET', `/chain-orders/${first.ids.D}/invoices/${byLevel.D[0]!.id}/pdf`)).body).toEqual(once.body);
  });

  test('a return at the top: every invoice reversed by a credit note for its whole amount, once', async () => {
    const second = await delivered(1, '5');
    const r = await c.as('A', 'POST', `/chain-orders/${second.ids.A}/return`, { reason: 'damaged in transit' });
    expect(r.status).toBe(200);
    const at = {} as Record<Level, Invoice[]>;
    for (const level of ['A', 'B', 'C', 'D'] as const) at[level] = await invoicesOf(level, second.ids[level]);
    expect(at.A.map((i) => [i.direction, i.type])).toEqual([['issued', 'invoice'], ['issued', 'credit_note']]);
    expect(at.B.map((i) => [i.direction, i.type])).toEqual([['received', 'invoice'], ['received', 'credit_note'], ['issued', 'invoice'], ['issued', 'credit_note']]);
    expect(at.D.map((i) => [i.direction, i.type])).toEqual([['received', 'invoice'], ['received', 'credit_note']]);
    for (const [invoice, note] of [[at.A[0], at.A[1]], [at.B[2], at.B[3]], [at.C[2], at.C[3]]]) {
      expect(note!.invoice_number).toMatch(/^RCN-\d{6}-\d{4}$/);
      const amounts = (i: Invoice) => ({ seller: i.seller, buyer: i.buyer, lines: i.lines, taxable_value: i.taxable_value, cgst: i.cgst, sgst: i.sgst, igst: i.igst, total: i.total });
      expect(amounts(note!)).toEqual(amounts(invoice!));
      expect(note).toMatchObject({ reason: 'order returned', original_invoice: { id: invoice!.id, invoice_number: invoice!.invoice_number } });
    }
    // 5%, half up to paise: C → D 1331.00 × 2.5% = 33.275 → 33.28 each of CGST and SGST.
    expect(at.D[1]).toMatchObject({ taxable_value: '1331.00', cgst: '33.28', sgst: '33.28', igst: '0.00', total: '1397.56' });
    expect(at.B[3]).toMatchObject({ taxable_value: '1210.00', igst: '60.50', total: '1270.50' });
    const note = await pdfText('D', second.ids.D, at.D[1]!.id);
    for (const s of [at.D[1]!.invoice_number, at.D[0]!.invoice_number, 'order returned', GSTIN.D, '1,397.56']) expect({ has: s, found: note.includes(s) }).toEqual({ has: s, found: true });
    // The return's push sent again: still one credit note each.
    const done = (await c.as('A', 'GET', '/chain-orders/propagations?state=done&per_page=100')).body.propagations.filter((p: { chain_order_id: string; status: string }) => p.chain_order_id === second.ids.A && p.status === 'returned');
    for (const p of done) expect((await c.as('A', 'POST', `/chain-orders/propagations/${p.id}/retry`)).status).toBe(200);
    expect(await invoicesOf('B', second.ids.B)).toEqual(at.B);
  });

  test('partial refunds of a prepaid order: each invoice credited by its pro rata part line by line, the rest refunded: the credit notes add up to each invoice exactly', async () => {
    const o = await delivered(1, '18', async () => {}, false);
    const issuedBy = async (level: 'A' | 'B' | 'C') => (await invoicesOf(level, o.ids[level])).filter((i) => i.direction === 'issued');
    /** Until every level has issued `count` documents (its invoice and its credit notes: each level's share reaches it on its own push). */
    const waitFor = async (count: number) => {
      const short = async () => (await Promise.all((['A', 'B', 'C'] as const).map(issuedBy))).some((l) => l.length < count);
      for (let i = 0; i < 30 && (await short()); i++) await new Promise((r) => setTimeout(r, 1000));
    };
    const T = o.order.total;
    const refund = await c.as('D', 'POST', `/orders/${o.order.id}/refund`, { payment_id: o.paymentId, amount: '333.33', reason: 'one part came damaged' });
    expect(refund.status).toBe(201);
    await waitFor(2);
    // The pro rata rule on each amount of the invoice: D(a, 333.33) rounded half up (README: partial refunds).
    const partOf = (a: string) => (Math.round((Number(a) * 100 * 333.33) / Number(T)) / 100).toFixed(2);
    for (const level of ['A', 'B', 'C'] as const) {
      const [invoice, note] = await issuedBy(level);
      expect(note).toMatchObject({ type: 'credit_note', original_invoice: { id: invoice!.id }, reason: expect.stringContaining(refund.body.id) });
      const l = (invoice!.lines as Array<Record<string, string>>)[0]!;
      expect({ level, line: (note!.lines as Array<Record<string, string>>)[0] }).toMatchObject({ level, line: { taxable_value: partOf(l.taxable_value!), cgst: partOf(l.cgst!), sgst: partOf(l.sgst!), igst: partOf(l.igst!) } });
    }
    const rest = (Number(T) - 333.33).toFixed(2);
    expect((await c.as('D', 'POST', `/orders/${o.order.id}/refund`, { payment_id: o.paymentId, amount: rest, reason: 'the rest' })).status).toBe(201);
    for (let i = 0; i < 20 && (await copyAt(c, 'A', o.order.order_number))!.chain_status !== 'refunded'; i++) await new Promise((r) => setTimeout(r, 1000));
    await c.host.runJobs();
    await waitFor(3);
    for (const level of ['A', 'B', 'C'] as const) {
      const [invoice, ...notes] = await issuedBy(level);
      expect({ level, types: notes.map((n) => n.type) }).toEqual({ level, types: ['credit_note', 'credit_note'] });
      for (const k of ['taxable_value', 'cgst', 'sgst', 'igst', 'total_tax', 'total']) {
        const credited = notes.reduce((s, n) => s + Math.round(Number(n[k]) * 100), 0);
        expect({ level, k, credited }).toEqual({ level, k, credited: Math.round(Number(invoice![k]) * 100) });
      }
    }
  }, 150_000);
});

describe('spec 3 Wallet, transaction, remittance and Tax configuration: the GST of the invoices between levels moves through the wallets (README)', () => {
  type Rem = { payer_tenant_id: string; recipient_tenant_id: string; amount: string; status: string; adjustment_ref: string; direction: string; origin_order_number: string; created_at: string; id: string };
  const LEVELS = ['A', 'B', 'C', 'D'] as const;
  const PAIRS = [['A', 'B'], ['B', 'C'], ['C', 'D']] as const;
  // Two products at different rates (12% and 28%, three and one of them), so each line rounds on its own and B → C's IGST differs from the CGST + SGST of the others.
  const lines = (): OrderLine[] => [
    { name: 'Steel kettle', sku: 'SKU-1', quantity: 3, unit_price: '1499.99', tax_rate: '12', hsn_code: '7323' },
    { name: 'Copper jug', sku: 'SKU-GST2', quantity: 1, unit_price: '1833.33', tax_rate: '28', hsn_code: '7418' },
  ];
  const balance = async (level: Level) => new Decimal((await c.as(level, 'GET', '/finance/wallet')).body.wallet.balance);
  const balances = async () => Object.fromEntries(await Promise.all(LEVELS.map(async (l) => [l, await balance(l)]))) as Record<Level, Decimal>;
  const remsOf = async (level: Level, orderNumber: string): Promise<Rem[]> =>
    (await c.as(level, 'GET', '/finance/settlements/remittances?per_page=100')).body.remittances.filter((r: Rem) => r.origin_order_number === orderNumber);
  /** Every pending remittance of the order paid by its payer, level by level, until none is left. */
  const processAll = async (orderNumber: string) => {
    for (let pass = 0; pass < 4; pass++) {
      let left = 0;
      for (const level of LEVELS) {
        for (const rem of (await remsOf(level, orderNumber)).filter((r) => r.direction === 'outgoing' && r.status === 'pending').sort((a, b) => a.created_at.localeCompare(b.created_at))) {
          const r = await c.as(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
          if (r.status !== 200) left++;
        }
      }
      if (!left) return;
    }
    throw new Error(`remittances of ${orderNumber} left unpaid`);
  };
  /** Between each pair, per cause: the payer's copy and the recipient's (amount, payer, recipient, status), and that they are the same. */
  const pairCopies = async (orderNumber: string) => {
    const out: Record<string, Record<string, string>> = {};
    for (const [parent, child] of PAIRS) {
      const key = (r: Rem) => [r.adjustment_ref, r.payer_tenant_id, r.recipient_tenant_id, r.amount, r.status].join('|');
      const between = (list: Rem[]) => list.filter((r) => [r.payer_tenant_id, r.recipient_tenant_id].sort().join() === [c.ids[parent], c.ids[child]].sort().join());
      const atParent = between(await remsOf(parent, orderNumber)).map(key).sort();
      const atChild = between(await remsOf(child, orderNumber)).map(key).sort();
      expect({ pair: `${parent}-${child}`, copies: atParent }).toEqual({ pair: `${parent}-${child}`, copies: atChild });
      out[`${parent}-${child}`] = Object.fromEntries(between(await remsOf(child, orderNumber)).map((r) => [r.adjustment_ref, `${r.payer_tenant_id === c.ids[child] ? 'up' : 'down'} ${r.amount}`]));
    }
    return out;
  };
  const trialZero = async () => {
    for (const level of LEVELS) expect({ level, total: (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total }).toEqual({ level, total: '0.00' });
  };
  /** The invoices each seller issued for the order, by pair (A-B: A's to B, ...). */
  const issued = async (ids: Record<Level, string>) => {
    const out = {} as Record<string, Invoice[]>;
    for (const [parent, child] of PAIRS) out[`${parent}-${child}`] = (await invoicesOf(parent, ids[parent])).filter((i) => i.direction === 'issued');
    return out;
  };

  beforeAll(async () => {
    await addProduct(c, 'SKU-GST2', 100);
  }, 60_000);

  test.each([
    ['COD (upstream): each level pays its parent the invoice total', true],
    ['prepaid (downstream): each parent pays its child the customer total less the child\'s invoice total', false],
  ])('%s; both copies equal; each wallet moves by its margin plus its net GST; ledgers at zero', async (_name, cod) => {
    const before = await balances();
    const o = await delivered(0, '', async () => {}, cod, lines());
    const inv = await issued(o.ids);
    // B (Karnataka) → C (Maharashtra) is inter-state: IGST; the others CGST + SGST, line by line.
    expect([inv['A-B']![0]!.same_state, inv['B-C']![0]!.same_state, inv['C-D']![0]!.same_state]).toEqual([true, false, true]);
    const T = new Decimal(o.order.total);
    const total = (pair: string) => new Decimal(inv[pair]![0]!.total as string);
    const copies = await pairCopies(o.order.order_number);
    expect(copies).toEqual(
      cod
        ? { 'A-B': { '': `up ${total('A-B').toFixed(2)}` }, 'B-C': { '': `up ${total('B-C').toFixed(2)}` }, 'C-D': { '': `up ${total('C-D').toFixed(2)}` } }
        : { 'A-B': { '': `down ${T.minus(total('A-B')).toFixed(2)}` }, 'B-C': { '': `down ${T.minus(total('B-C')).toFixed(2)}` }, 'C-D': { '': `down ${T.minus(total('C-D')).toFixed(2)}` } },
    );
    await processAll(o.order.order_number);
    expect(Object.values(await pairCopies(o.order.order_number)).length).toBe(3);
    for (const level of LEVELS) expect((await remsOf(level, o.order.order_number)).map((r) => r.status)).not.toContain('pending');
    await trialZero();
    // Each wallet: its margin (on taxable values, its copy's your_margin; the top's wallet has its whole
    // price to B, its margin over base cost being the goods' cost) plus its net GST: the GST it charged
    // (D: its customer invoice's; the others: their invoice to the level below) less the GST it was charged.
    const order = (await c.as('D', 'GET', `/orders/${o.order.id}`)).body;
    const customerTax = (order.order ?? order).tax_total as string;
    const charged = { A: inv['A-B']![0]!.total_tax, B: inv['B-C']![0]!.total_tax, C: inv['C-D']![0]!.total_tax, D: customerTax } as Record<Level, string>;
    const paid = { A: '0.00', B: inv['A-B']![0]!.total_tax, C: inv['B-C']![0]!.total_tax, D: inv['C-D']![0]!.total_tax } as Record<Level, string>;
    const after = await balances();
    for (const level of LEVELS) {
      const pricing = (await c.as(level, 'GET', `/chain-orders/${o.ids[level]}`)).body.order.pricing as Record<string, string>;
      const expected = new Decimal(pricing.your_margin!).plus(level === 'A' ? pricing.your_cost! : 0).plus(charged[level]).minus(paid[level]);
      expect({ level, moved: after[level].minus(before[level]).toFixed(2) }).toEqual({ level, moved: expected.toFixed(2) });
    }
    expect(LEVELS.reduce((s, l) => s.plus(after[l].minus(before[l])), new Decimal(0)).toFixed(2)).toBe(T.toFixed(2));
  }, 150_000);

  test('partial refunds of the prepaid chain: each refund share is exactly its seller\'s credit note, both copies equal; the rest refunded: every wallet as before the sale, ledgers at zero', async () => {
    const before = await balances();
    const o = await delivered(0, '', async () => {}, false, lines());
    await processAll(o.order.order_number);
    const T = new Decimal(o.order.total);
    const refundIds: string[] = [];
    for (const amount of ['333.33', '0.07']) {
      const r = await c.as('D', 'POST', `/orders/${o.order.id}/refund`, { payment_id: o.paymentId, amount, reason: 'one part came damaged' });
      expect(r.status).toBe(201);
      refundIds.push(r.body.id);
      // The origin applies its share last (after every level above it).
      for (let i = 0; i < 30 && !(await remsOf('D', o.order.order_number)).some((x) => x.adjustment_ref === r.body.id); i++) await new Promise((done) => setTimeout(done, 1000));
      const notes = await issued(o.ids);
      const copies = await pairCopies(o.order.order_number);
      for (const [parent, child] of PAIRS) {
        const pair = `${parent}-${child}`;
        const note = notes[pair]!.find((n) => n.type === 'credit_note' && String(n.reason).includes(r.body.id))!;
        expect(note).toBeDefined();
        // The child gives back the refund less what its parent's credit note gives back to it.
        expect({ pair, share: copies[pair]![r.body.id] }).toEqual({ pair, share: `up ${new Decimal(amount).minus(note.total as string).toFixed(2)}` });
      }
      await processAll(o.order.order_number);
      await trialZero();
    }
    const rest = T.minus('333.40').toFixed(2);
    expect((await c.as('D', 'POST', `/orders/${o.order.id}/refund`, { payment_id: o.paymentId, amount: rest, reason: 'the rest' })).status).toBe(201);
    // Every level's copy refunded (each credits its invoice before it turns so), not only the origin's.
    const allRefunded = async () => (await Promise.all(LEVELS.map(async (l) => (await copyAt(c, l, o.order.order_number))!.chain_status))).every((s) => s === 'refunded');
    for (let i = 0; i < 60 && !(await allRefunded()); i++) {
      await c.host.runJobs();
      await new Promise((done) => setTimeout(done, 1000));
    }
    await processAll(o.order.order_number);
    // The credit notes add up to each invoice, so every wallet is back where it was.
    for (const [pair, docs] of Object.entries(await issued(o.ids))) {
      const [invoice, ...notes] = docs;
      expect({ pair, credited: notes.reduce((s, n) => s.plus(n.total as string), new Decimal(0)).toFixed(2) }).toEqual({ pair, credited: invoice!.total });
    }
    await pairCopies(o.order.order_number);
    await trialZero();
    const after = await balances();
    for (const level of LEVELS) expect({ level, moved: after[level].minus(before[level]).toFixed(2) }).toEqual({ level, moved: '0.00' });
  }, 200_000);
});
