/**
 * The money rules of the reseller network on a fresh chain A → B → C → D (unit costs of SKU-1:
 * 1000.00, 1100.00, 1210.00, 1331.00; the orders module charges 18% GST by default): one price binds
 * each level for each order, the levels above a sale below cost keep their margins, tax is no
 * margin, and only the settlement currency enters the chain.
 */
import Decimal from 'decimal.js';
import { COSTS, copyAt, GST, INVOICED, startChain, type Chain, type Level } from './support';

let c: Chain;
let productId: string;
beforeAll(async () => {
  c = await startChain();
  productId = (await c.as('A', 'GET', '/reseller-catalog/master-products')).body.products[0].id;
}, 240_000);
afterAll(() => c?.host.close());

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);
const LEVELS = ['A', 'B', 'C', 'D'] as const;
let serial = 0;

/** An order of one SKU-1 kettle at D, and its chain order. */
async function sale(unitPrice: string, cod: boolean, currency?: string) {
  serial += 1;
  const made = await c.as('D', 'POST', '/orders', {
    order_number: `MR-${Date.now().toString(36)}-${serial}`,
    customer: { name: 'Asha Rao', phone: '9800000000' },
    items: [{ name: 'Steel kettle', sku: 'SKU-1', quantity: 1, unit_price: unitPrice }],
    is_cod: cod,
    ...(currency ? { currency } : {}),
  });
  if (made.status !== 201) throw new Error(`POST /orders: ${made.status} ${JSON.stringify(made.body)}`);
  const order = made.body.order ?? made.body;
  // Spec 3, Order payment: a prepaid order is delivered once the origin records it paid.
  if (!cod) {
    const paid = await c.as('D', 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total });
    if (paid.status !== 201) throw new Error(`payment: ${paid.status} ${JSON.stringify(paid.body)}`);
  }
  const chain = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
  return { order: order as { id: string; order_number: string; total: string; tax_total: string }, chain };
}

async function forwardToTop(orderNumber: string, from: readonly Level[] = ['D', 'C', 'B']) {
  for (const level of from) {
    const copy = await copyAt(c, level, orderNumber);
    const r = await c.as(level, 'POST', `/chain-orders/${copy!.id}/forward`);
    if (r.status !== 200) throw new Error(`forward at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

async function fulfil(orderNumber: string) {
  const top = (await copyAt(c, 'A', orderNumber))!;
  for (const [step, body] of [['accept', undefined], ['ship', { tracking_number: `TRK-${orderNumber}`, carrier: 'Delhivery' }], ['deliver', undefined]] as const) {
    const r = await c.as('A', 'POST', `/chain-orders/${top.id}/${step}`, body);
    if (r.status !== 200) throw new Error(`${step}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

type Rem = { id: string; amount: string; status: string; payer_tenant_id: string; recipient_tenant_id: string; origin_order_number: string };
const remittances = async (level: Level, direction: 'incoming' | 'outgoing', orderNumber: string): Promise<Rem[]> =>
  (await c.as(level, 'GET', `/finance/settlements/remittances?direction=${direction}&per_page=100`)).body.remittances.filter((r: Rem) => r.origin_order_number === orderNumber);
const balance = async (level: Level) => new Decimal((await c.as(level, 'GET', '/finance/wallet')).body.wallet.balance);
const balances = async () => Object.fromEntries(await Promise.all(LEVELS.map(async (l) => [l, await balance(l)] as const))) as Record<Level, Decimal>;

/**
 * Each level processes its outgoing remittances of an order, in rounds: a level short of money now
 * (INSUFFICIENT_BALANCE) tries again once the others have paid it. Every one ends completed.
 */
async function processAll(orderNumber: string) {
  for (let round = 0; round < LEVELS.length; round++) {
    for (const level of LEVELS) {
      for (const rem of await remittances(level, 'outgoing', orderNumber)) {
        if (rem.status !== 'pending') continue;
        const r = await c.as(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
        if (r.status === 422 && r.body.code === 'INSUFFICIENT_BALANCE') continue;
        expect({ level, status: r.status, remittance: r.body.remittance?.status }).toEqual({ level, status: 200, remittance: 'completed' });
      }
    }
  }
  for (const level of LEVELS) expect({ level, statuses: (await remittances(level, 'outgoing', orderNumber)).map((r) => r.status) }).toEqual({ level, statuses: expect.not.arrayContaining(['pending']) });
}

/** What each level's wallet gained from one order, settled all the way. */
async function settledGains(orderNumber: string, before: Record<Level, Decimal>) {
  await processAll(orderNumber);
  const after = await balances();
  for (const level of LEVELS) expect({ level, total: (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total }).toEqual({ level, total: '0.00' });
  return Object.fromEntries(LEVELS.map((l) => [l, money(after[l].minus(before[l]))]));
}

describe('spec 3 Reseller product pricing and Chain order (pricing): one price binds each level for each order, fixed when the order enters that level', () => {
  const reprice = async (parent: Level, child: Level, margin: number) => (await c.as(parent, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: c.ids[child], margin_percent: margin })).body.pricing?.cost_to_reseller;

  test('C re-prices D after D costed an order and before D forwards it, B re-prices C after C received it: every copy, remittance and margin keeps the bound prices; the remittances complete', async () => {
    const { order, chain } = await sale('1500.00', true);
    expect(chain.body.order.pricing.your_cost).toBe(COSTS.D);
    expect(await reprice('C', 'D', 20)).toBe('1452.00');
    try {
      await forwardToTop(order.order_number, ['D']);
      // C sells to D at the price that bound D when the order entered D's level.
      expect((await copyAt(c, 'C', order.order_number))!.pricing).toMatchObject({ your_cost: COSTS.C, your_margin: money(new Decimal(COSTS.D).minus(COSTS.C)) });
      // C's cost was bound when the order entered C's level: B's re-price now does not reach it.
      expect(await reprice('B', 'C', 20)).toBe('1320.00');
      await forwardToTop(order.order_number, ['C', 'B']);
      expect((await copyAt(c, 'B', order.order_number))!.pricing).toMatchObject({ your_cost: COSTS.B, your_margin: money(new Decimal(COSTS.C).minus(COSTS.B)) });
      // The margins of the four levels add up to the sale's taxable value less the base cost.
      const margins = await Promise.all(LEVELS.map(async (l) => (await copyAt(c, l, order.order_number))!.pricing.your_margin));
      expect(money(margins.reduce((a, m) => a.plus(m), new Decimal(0)))).toBe(money(new Decimal('1500.00').minus(COSTS.A)));
      await fulfil(order.order_number);
      // Each remittance is the invoice total of the bound price (README: the GST moves through the wallets).
      const [owed] = await remittances('D', 'outgoing', order.order_number);
      expect(owed).toMatchObject({ amount: INVOICED.D, recipient_tenant_id: c.ids.C });
      expect(await remittances('C', 'incoming', order.order_number)).toEqual([expect.objectContaining({ amount: INVOICED.D, payer_tenant_id: c.ids.D })]);
      expect(await remittances('C', 'outgoing', order.order_number)).toEqual([expect.objectContaining({ amount: INVOICED.C, recipient_tenant_id: c.ids.B })]);
      expect(await remittances('B', 'incoming', order.order_number)).toEqual([expect.objectContaining({ amount: INVOICED.C, payer_tenant_id: c.ids.C })]);
      const paid = await c.as('D', 'POST', `/finance/settlements/remittances/${owed.id}/process`);
      expect(paid.body).toMatchObject({ remittance: { status: 'completed' }, wallet: { deducted: INVOICED.D } });
      await processAll(order.order_number);
      // An order entering D's level after the re-price is bound to the new price (C's new cost: 1320.00 + 20%).
      expect((await sale('1500.00', true)).chain.body.order.pricing.your_cost).toBe('1584.00');
    } finally {
      expect([await reprice('B', 'C', 10), await reprice('C', 'D', 10)]).toEqual([COSTS.C, COSTS.D]);
    }
  }, 120_000);
});

describe('spec 3 Wallet, transaction, remittance (flow_type downstream): a prepaid sale below the seller\'s cost', () => {
  // 1150.00 + 18% GST = 1357.00 paid at the top, below D's cost 1331.00 with its GST (C's invoice:
  // 1570.58) and C's (1427.80), above B's (1298.00): the levels above keep their margins and net GST,
  // D owes the shortfall (1357.00 − 1570.58), exactly as the same sale settles as COD.
  const expected = { A: INVOICED.B, B: money(new Decimal(INVOICED.C).minus(INVOICED.B)), C: money(new Decimal(INVOICED.D).minus(INVOICED.C)), D: money(new Decimal('1357.00').minus(INVOICED.D)) };

  beforeAll(async () => {
    // D pays on credit what it is short.
    expect((await c.as('C', 'PUT', `/finance/sub-resellers/${c.ids.D}/credit-limit`, { credit_limit: '5000.00' })).status).toBe(200);
  });

  test('prepaid: each level above keeps its margin; C owes B, D owes C the shortfall below their costs; settled, the wallets move by the margins', async () => {
    const before = await balances();
    const { order } = await sale('1150.00', false);
    expect(order.total).toBe('1357.00');
    await forwardToTop(order.order_number);
    await fulfil(order.order_number);
    expect(await remittances('A', 'outgoing', order.order_number)).toEqual([expect.objectContaining({ amount: '59.00', recipient_tenant_id: c.ids.B })]);
    expect((await remittances('B', 'incoming', order.order_number)).map((r) => [r.payer_tenant_id, r.amount]).sort()).toEqual([[c.ids.A, '59.00'], [c.ids.C, '70.80']].sort());
    expect(await remittances('C', 'outgoing', order.order_number)).toEqual([expect.objectContaining({ amount: '70.80', recipient_tenant_id: c.ids.B })]);
    expect(await remittances('D', 'outgoing', order.order_number)).toEqual([expect.objectContaining({ amount: '213.58', recipient_tenant_id: c.ids.C })]);
    expect(await settledGains(order.order_number, before)).toEqual(expected);
    for (const level of LEVELS) {
      const pending = (await c.as(level, 'GET', '/finance/settlements/collections?status=pending')).body.collections.filter((k: { origin_order_number: string }) => k.origin_order_number === order.order_number);
      expect({ level, pending }).toEqual({ level, pending: [] });
    }
  }, 120_000);

  test('COD, the same sale: the same gains at every level', async () => {
    const before = await balances();
    const { order } = await sale('1150.00', true);
    await forwardToTop(order.order_number);
    await fulfil(order.order_number);
    expect(await settledGains(order.order_number, before)).toEqual(expected);
  }, 120_000);
});

describe('spec 3 Tax configuration and Chain order (pricing): GST is not margin', () => {
  const summary = async (level: Level) => (await c.as(level, 'GET', '/finance/settlements/summary?period=week')).body.summary as { net_earnings: string; tax_collected?: string; tax_paid?: string };

  test.each([
    ['COD', true],
    ['prepaid', false],
  ])('%s: the origin\'s margin and net earnings are on the taxable value; the GST its invoice charged stays with it, reported apart', async (_flow, cod) => {
    const before = await balances();
    const earned = await summary('D');
    const { order, chain } = await sale('1500.00', cod);
    expect(order).toMatchObject({ total: '1770.00', tax_total: '270.00' });
    expect(chain.body.order.pricing).toMatchObject({ origin_total: '1770.00', your_cost: COSTS.D, your_margin: money(new Decimal('1500.00').minus(COSTS.D)) });
    await forwardToTop(order.order_number);
    await fulfil(order.order_number);
    const gains = await settledGains(order.order_number, before);
    // Each wallet holds its margin and the net GST it owes: the origin the customer's GST less C's
    // invoice's, each level above the GST of its invoice to its child less that of its parent's to it.
    expect(gains).toEqual({ A: INVOICED.B, B: '129.80', C: '142.78', D: money(new Decimal('1500.00').minus(COSTS.D).plus('270.00').minus(GST.D)) });
    const now = await summary('D');
    const diff = (k: 'net_earnings' | 'tax_collected' | 'tax_paid') => money(new Decimal(now[k] ?? 0).minus(earned[k] ?? 0));
    expect({ net: diff('net_earnings'), tax: diff('tax_collected'), paid: diff('tax_paid') }).toEqual({ net: money(new Decimal('1500.00').minus(COSTS.D)), tax: '270.00', paid: GST.D });
  }, 120_000);
});

describe('spec 3 Wallet (currency) and Chain order: only orders in the settlement currency enter the chain', () => {
  test('a USD order is refused with 422 CURRENCY_NOT_SETTLED in the reseller error shape, and order.created makes no chain order of it', async () => {
    const { order, chain } = await sale('20.00', true, 'USD');
    expect(chain.status).toBe(422);
    expect(chain.body).toEqual({ error: expect.any(String), code: 'CURRENCY_NOT_SETTLED', details: expect.objectContaining({ currency: 'USD', settlement_currency: 'INR' }) });
    // An INR order placed after it is taken from order.created; the USD one never is.
    serial += 1;
    const later = await c.as('D', 'POST', '/orders', { order_number: `MR-INR-${serial}`, customer: { name: 'Asha Rao', phone: '9800000000' }, items: [{ name: 'Steel kettle', sku: 'SKU-1', quantity: 1, unit_price: '1500.00' }], is_cod: true });
    await c.host.eventually(async () => expect(await copyAt(c, 'D', (later.body.order ?? later.body).order_number)).toBeDefined(), 20_000);
    expect(await copyAt(c, 'D', order.order_number)).toBeUndefined();
  }, 60_000);
});
