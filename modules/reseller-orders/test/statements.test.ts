/**
 * Spec 3, Wallet, transaction, remittance and Endpoints (Finance), where the spec is silent
 * (modules/reseller-finance/README.md, Statements; Top-ups and payouts): on a fresh chain
 * A → B → C → D (every wallet starts at zero), D sells a COD order, records bank top-ups and
 * payouts and pays its parent; its statements (JSON, CSV, PDF) add up to the paisa, and every
 * transfer is one ledger movement, recorded once however often it is sent.
 */
import Decimal from 'decimal.js';
import { parse } from 'csv-parse/sync';
import PDFParser from 'pdf2json';
import { deliveredChainOrder, INVOICED, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(async () => {
  c?.host.clock.reset();
  await c?.host.close();
});

const DAY = 86_400_000;
const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const wallet = async (level: Level) => (await c.as(level, 'GET', '/finance/wallet')).body.wallet;
const trial = async (level: Level) => (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body;
const transactions = async (level: Level, query = '') => (await c.as(level, 'GET', `/finance/wallet/transactions?per_page=100${query}`)).body.transactions as Array<{ type: string; amount: string; reference_id: string }>;
const transfer = (amount: string, ref: string, date: string) => ({ amount, bank_reference: ref, account_name: 'Level D Traders', account_number: '50100123456789', bank_name: 'HDFC Bank', transfer_date: date });

/** A download as a signed-in admin of a level: status, headers and the raw bytes. */
async function download(level: Level, url: string) {
  const res = await fetch(`${c.host.url}/api/v1${url}`, { headers: { authorization: `Bearer ${c.tokens[level]}`, 'x-tenant': c.ids[level] } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

function pdfText(bytes: Buffer): Promise<string> {
  const parser = new PDFParser(null, true);
  return new Promise((resolve, reject) => {
    parser.on('pdfParser_dataError', (e) => reject('parserError' in e ? e.parserError : e));
    parser.on('pdfParser_dataReady', () => resolve(parser.getRawTextContent().replace(/\r\n/g, '\n')));
    parser.parseBuffer(bytes);
  });
}

type Line = { date: string; type: string; reference_type: string; reference_id: string; chain_order_id: string | null; order_number: string | null; description: string; amount: string; balance: string };
type Statement = { opening_balance: string; closing_balance: string; credits_total: string; debits_total: string; movements_count: number; movements: Line[] };

/** Opening + each movement is its running balance, the last one is the closing balance, and the totals are the movements'. */
function expectAddsUp(s: Statement) {
  let running = new Decimal(s.opening_balance);
  for (const m of s.movements) {
    running = running.plus(m.amount);
    expect({ ref: m.reference_id, balance: m.balance }).toEqual({ ref: m.reference_id, balance: money(running) });
    expect(m.type === 'credit' ? new Decimal(m.amount).gt(0) : new Decimal(m.amount).lt(0)).toBe(true);
  }
  expect(s.closing_balance).toBe(money(running));
  expect(s.movements_count).toBe(s.movements.length);
  const credits = s.movements.filter((m) => m.type === 'credit').reduce((a, m) => a.plus(m.amount), new Decimal(0));
  const debits = s.movements.filter((m) => m.type === 'debit').reduce((a, m) => a.minus(m.amount), new Decimal(0));
  expect([s.credits_total, s.debits_total]).toEqual([money(credits), money(debits)]);
  expect(money(new Decimal(s.opening_balance).plus(credits).minus(debits))).toBe(s.closing_balance);
}

describe('spec 3 Wallet, transaction (README: top-ups, payouts and statements) at level D of A → B → C → D', () => {
  let day1: number;
  let order: { order_number: string; total: string };

  beforeAll(() => {
    // The test's days start at 06:00 UTC tomorrow, so no movement of a day crosses midnight.
    const now = c.host.clock.now();
    day1 = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate() + 1, 6);
    c.host.clock.set(day1);
  });

  test('a top-up sent four times at once is recorded once: one credit against the bank account, the ledger still sums to zero', async () => {
    order = await deliveredChainOrder(c);
    expect((await wallet('D')).balance).toBe(order.total);
    const body = transfer('500.00', 'UTR-TOPUP-0001', day(day1));
    const answers = await Promise.all([0, 1, 2, 3].map(() => c.as('D', 'POST', '/finance/wallet/top-ups', body)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.transfer.id)).size).toBe(1);
    expect(answers.filter((a) => !a.body.replayed)).toHaveLength(1);
    expect(answers[0].body.transfer).toMatchObject({ kind: 'top_up', amount: '500.00', bank_reference: 'UTR-TOPUP-0001', account_name: 'Level D Traders' });
    expect((await transactions('D', '&reference_type=top_up')).map((t) => [t.type, t.amount, t.reference_id])).toEqual([['credit', '500.00', 'UTR-TOPUP-0001']]);
    expect((await wallet('D')).balance).toBe(money(new Decimal(order.total).plus('500.00')));
    const ledger = await trial('D');
    expect(ledger).toMatchObject({ total: '0.00', accounts: expect.objectContaining({ bank: '-500.00' }) });
  });

  test('the same bank reference with other details is refused (409 DUPLICATE_REFERENCE); a member without the permission gets 403; a zero amount 422', async () => {
    const before = await transactions('D');
    const dup = await c.as('D', 'POST', '/finance/wallet/top-ups', transfer('499.00', 'UTR-TOPUP-0001', day(day1)));
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({ error: expect.any(String), code: 'DUPLICATE_REFERENCE', details: expect.objectContaining({ bank_reference: 'UTR-TOPUP-0001' }) });
    const member = (await c.host.addMember({ email: 'clerk@level-d.example', role: 'member' }, c.ids.D)).token;
    expect((await c.as('D', 'POST', '/finance/wallet/payouts', transfer('1.00', 'UTR-MEMBER-0001', day(day1)), member)).status).toBe(403);
    expect((await c.as('D', 'POST', '/finance/wallet/top-ups', transfer('0.00', 'UTR-ZERO-0001', day(day1)))).status).toBe(422);
    expect(await transactions('D')).toEqual(before);
  });

  test('a payout above the available balance is refused (422 INSUFFICIENT_BALANCE) and writes nothing; one sent three times at once is paid once', async () => {
    const remittance = (await c.as('D', 'GET', '/finance/settlements/remittances?direction=outgoing')).body.remittances[0];
    expect(remittance.amount).toBe(INVOICED.D);
    expect((await c.as('D', 'POST', `/finance/settlements/remittances/${remittance.id}/process`)).body.remittance.status).toBe('completed');
    const available = money(new Decimal(order.total).plus('500.00').minus(INVOICED.D));
    expect((await wallet('D')).available_balance).toBe(available);

    const [txBefore, ledgerBefore] = [await transactions('D'), await trial('D')];
    const tooMuch = await c.as('D', 'POST', '/finance/wallet/payouts', transfer(money(new Decimal(available).plus('0.01')), 'UTR-PAYOUT-BIG1', day(day1)));
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toEqual({ error: expect.any(String), code: 'INSUFFICIENT_BALANCE', details: expect.objectContaining({ required: money(new Decimal(available).plus('0.01')), available }) });
    expect([await transactions('D'), await trial('D')]).toEqual([txBefore, ledgerBefore]);
    // Nothing was recorded under that reference: it can be used for a payout that fits.
    expect((await c.as('D', 'GET', '/finance/statements')).body.statement.movements.map((m: Line) => m.reference_id)).not.toContain('UTR-PAYOUT-BIG1');

    const body = transfer('200.00', 'UTR-PAYOUT-0001', day(day1));
    const answers = await Promise.all([0, 1, 2].map(() => c.as('D', 'POST', '/finance/wallet/payouts', body)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers.filter((a) => !a.body.replayed)).toHaveLength(1);
    expect((await transactions('D', '&reference_type=payout')).map((t) => [t.type, t.amount])).toEqual([['debit', '200.00']]);
    expect((await wallet('D')).balance).toBe(money(new Decimal(available).minus('200.00')));
    expect(await trial('D')).toMatchObject({ total: '0.00', accounts: expect.objectContaining({ bank: '-300.00' }) });
  });

  test('two different payouts at once that together exceed the available balance: one is paid, the other refused', async () => {
    const available = new Decimal((await wallet('D')).available_balance);
    const part = money(available.times('0.6').toDecimalPlaces(2));
    const [a, b] = await Promise.all([
      c.as('D', 'POST', '/finance/wallet/payouts', transfer(part, 'UTR-RACE-0001', day(day1))),
      c.as('D', 'POST', '/finance/wallet/payouts', transfer(part, 'UTR-RACE-0002', day(day1))),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 422]);
    expect((await wallet('D')).available_balance).toBe(money(available.minus(part)));
    expect((await trial('D')).total).toBe('0.00');
  });

  test('statements per day and over both days: opening + movements = closing to the paisa, with chain orders and bank references', async () => {
    const day2 = day1 + DAY;
    c.host.clock.set(day2);
    expect((await c.as('D', 'POST', '/finance/wallet/top-ups', transfer('1000.10', 'UTR-TOPUP-0002', day(day2)))).status).toBe(201);
    expect((await c.as('D', 'POST', '/finance/wallet/payouts', transfer('333.33', 'UTR-PAYOUT-0002', day(day2)))).status).toBe(201);

    const first = (await c.as('D', 'GET', `/finance/statements?from=${day(day1)}&to=${day(day1)}`)).body.statement as Statement;
    expectAddsUp(first);
    expect(first.opening_balance).toBe('0.00');
    expect(first.movements.map((m) => [m.type, m.reference_type])).toEqual([
      ['credit', 'chain_order'],
      ['credit', 'top_up'],
      ['debit', 'remittance'],
      ['debit', 'payout'],
      ['debit', 'payout'],
    ]);
    expect(first.movements[0]).toMatchObject({ amount: order.total, order_number: order.order_number, chain_order_id: expect.any(String) });
    expect(first.movements[2]).toMatchObject({ amount: `-${INVOICED.D}`, order_number: order.order_number });
    expect(first.movements[1]).toMatchObject({ amount: '500.00', reference_id: 'UTR-TOPUP-0001', order_number: null });

    const second = (await c.as('D', 'GET', `/finance/statements?from=${day(day2)}&to=${day(day2)}`)).body.statement as Statement;
    expectAddsUp(second);
    expect(second.opening_balance).toBe(first.closing_balance);
    expect(second.movements.map((m) => [m.amount, m.reference_id])).toEqual([
      ['1000.10', 'UTR-TOPUP-0002'],
      ['-333.33', 'UTR-PAYOUT-0002'],
    ]);

    const both = (await c.as('D', 'GET', `/finance/statements?from=${day(day1)}&to=${day(day2)}`)).body.statement as Statement;
    expectAddsUp(both);
    expect(both.movements).toEqual([...first.movements, ...second.movements]);
    expect(both.closing_balance).toBe((await wallet('D')).balance);
    // The ledger agrees: the wallet's accounts hold the closing balance, the bank the transfers' net, and all sum to zero.
    const ledger = await trial('D');
    expect(ledger.total).toBe('0.00');
    expect(money(new Decimal(ledger.accounts.wallet).plus(ledger.accounts.wallet_held ?? 0))).toBe(both.closing_balance);

    // C's statement shows D's remittance as a credit of its order.
    const atC = (await c.as('C', 'GET', `/finance/statements?from=${day(day1)}&to=${day(day2)}`)).body.statement as Statement;
    expectAddsUp(atC);
    expect(atC.movements).toEqual([expect.objectContaining({ type: 'credit', reference_type: 'remittance', amount: INVOICED.D, order_number: order.order_number })]);
  });

  test('the CSV statement is the JSON one row for row, between an opening and a closing row', async () => {
    const q = `from=${day(day1)}&to=${day(day1 + DAY)}`;
    const json = (await c.as('D', 'GET', `/finance/statements?${q}`)).body.statement as Statement;
    const csv = await download('D', `/finance/statements/export?${q}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="statement-${day(day1)}-${day(day1 + DAY)}.csv"`);
    const rows = parse(csv.bytes.toString('utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(rows[0]).toMatchObject({ type: 'opening_balance', balance: json.opening_balance, amount: '' });
    expect(rows[rows.length - 1]).toMatchObject({ type: 'closing_balance', balance: json.closing_balance, amount: '' });
    const columns = ['date', 'type', 'reference_type', 'reference_id', 'chain_order_id', 'order_number', 'description', 'amount', 'balance'] as const;
    expect(rows.slice(1, -1)).toEqual(json.movements.map((m) => Object.fromEntries(columns.map((k) => [k, m[k] ?? '']))));
  });

  test('the PDF statement downloads and reads back with its holder, period, references, orders and balances', async () => {
    const q = `from=${day(day1)}&to=${day(day1 + DAY)}`;
    const json = (await c.as('D', 'GET', `/finance/statements?${q}`)).body.statement as Statement;
    const made = await c.as('D', 'GET', `/finance/statements/pdf?${q}`);
    expect(made.status).toBe(200);
    expect(made.body.statement).toMatchObject({ opening_balance: '0.00', closing_balance: json.closing_balance, movements_count: json.movements.length });
    // The download route of the host's documents (the url names the configured APP_URL, not this test server).
    expect(made.body.document.url).toMatch(/\/api\/v1\/documents\/reseller_finance\/statement-[^/]+\.pdf$/);
    const pdf = await download('D', `/documents/reseller_finance/${made.body.document.path.split('/').pop()}`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(pdf.bytes);
    const ddmmyyyy = (ms: number) => day(ms).split('-').reverse().join('-');
    // Amounts are printed grouped the Indian way; these are all below a lakh.
    const grouped = (v: string) => v.replace(/^(-?\d+)(\d{3})\./, '$1,$2.');
    for (const expected of ['WALLET STATEMENT', 'Account holder: Level D Traders', `Period: ${ddmmyyyy(day1)} to ${ddmmyyyy(day1 + DAY)} (UTC)`, 'UTR-TOPUP-0001', 'UTR-PAYOUT-0002', order.order_number, '-1,570.58', '1,000.10', '-333.33', 'Closing balance', grouped(json.closing_balance)]) {
      expect(text).toContain(expected);
    }
  });

  test('a period that ends before it starts, is longer than 366 days or names a day that does not exist is refused with INVALID_PERIOD', async () => {
    for (const q of [`from=${day(day1 + DAY)}&to=${day(day1)}`, `from=${day(day1 - 400 * DAY)}&to=${day(day1)}`, 'from=2026-02-01&to=2026-02-31']) {
      const r = await c.as('D', 'GET', `/finance/statements?${q}`);
      expect(r.status).toBe(422);
      expect(r.body).toEqual({ error: expect.any(String), code: 'INVALID_PERIOD', details: expect.objectContaining({ from: expect.any(String), to: expect.any(String) }) });
    }
  });
});
