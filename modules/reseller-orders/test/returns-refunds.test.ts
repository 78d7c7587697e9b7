/**
 * Returns and refunds across the chain (spec 3 is silent; reseller-orders README: returns and
 * refunds), on spec 3's Wallet, transaction, remittance and States and transitions (remittance): a
 * delivered order taken back reverses each level's margin and the remittances, and every ledger
 * still sums to zero.
 */
import Decimal from 'decimal.js';
import { copyAt, deliveredChainOrder, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

type Wallet = Record<string, string>;
const wallet = async (level: Level): Promise<Wallet> => (await c.as(level, 'GET', '/finance/wallet')).body.wallet;
const money = (w: Wallet) => ({ balance: w.balance, available_balance: w.available_balance, held: w.held, pending_credits: w.pending_credits, pending_debits: w.pending_debits });
const remittances = async (level: Level, orderNumber: string, query: string) =>
  (await c.as(level, 'GET', `/finance/settlements/remittances?per_page=100&${query}`)).body.remittances.filter((r: { origin_order_number: string }) => r.origin_order_number === orderNumber);
const processOutgoing = async (level: Level, orderNumber: string) => {
  const [rem] = await remittances(level, orderNumber, 'direction=outgoing&status=pending');
  const r = await c.as(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
  expect({ level, status: r.status, remittance: r.body.remittance?.status }).toEqual({ level, status: 200, remittance: 'completed' });
};
const chainOrderMovements = async (level: Level, orderNumber: string) =>
  (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=chain_order&per_page=100')).body.transactions.filter((t: { description: string }) => t.description.includes(orderNumber));
async function balancedEverywhere(levels: readonly Level[]) {
  let remitted = new Decimal(0);
  for (const level of levels) {
    expect({ level, total: (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total }).toEqual({ level, total: '0.00' });
    for (const t of (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions) {
      if (t.type === 'credit') remitted = remitted.plus(t.amount);
      if (t.type === 'debit') remitted = remitted.minus(t.amount);
    }
  }
  expect(remitted.toFixed(2)).toBe('0.00');
}

/** Waits (polling once a second: reads are rate-limited) until every level's copy is `status`. */
async function reachesStatus(levels: readonly Level[], orderNumber: string, status: string) {
  let seen: Record<string, string | undefined> = {};
  for (let i = 0; i < 20; i++) {
    seen = Object.fromEntries(await Promise.all(levels.map(async (l) => [l, (await copyAt(c, l, orderNumber))?.chain_status])));
    if (levels.every((l) => seen[l] === status)) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  expect(seen).toEqual(Object.fromEntries(levels.map((l) => [l, status])));
}

/** A prepaid order sold by `origin`, forwarded to the top A, paid at the origin and delivered. */
async function deliveredPrepaidFrom(origin: Level, path: readonly Level[]) {
  const order = await placeOrder(c, origin, 'Meera Iyer', false);
  expect((await c.as(origin, 'POST', '/chain-orders', { order_id: order.id })).status).toBe(201);
  for (const level of path) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
  const top = (await copyAt(c, 'A', order.order_number))!;
  const paid = await c.as(origin, 'POST', `/orders/${order.id}/payments`, { method: 'bank_transfer', amount: order.total });
  expect(paid.status).toBe(201);
  for (const [step, body] of [['accept', undefined], ['ship', { tracking_number: `TRK-${order.order_number}`, carrier: 'Delhivery' }], ['deliver', undefined]] as const) {
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/${step}`, body)).status).toBe(200);
  }
  return { order, paymentId: paid.body.id as string, topId: top.id };
}

const refund = async (origin: Level, order: { id: string; total: string }, paymentId: string) => {
  const r = await c.as(origin, 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: order.total, reason: 'customer changed their mind' });
  expect(r.status).toBe(201);
};

describe('returns and refunds across the chain (spec 3 Wallet, transaction, remittance; remittance states)', () => {
  test('a full refund of a prepaid delivered order in a 3-level chain (A → B → C) leaves every wallet as before the sale', async () => {
    const levels = ['A', 'B', 'C'] as const;
    const before = Object.fromEntries(await Promise.all(levels.map(async (l) => [l, money(await wallet(l))])));
    const { order, paymentId } = await deliveredPrepaidFrom('C', ['C', 'B']);
    await processOutgoing('A', order.order_number);
    await processOutgoing('B', order.order_number);
    await refund('C', order, paymentId);
    await reachesStatus(['A'], order.order_number, 'refunded');
    // The top hands the refund down through its push job (the levels below were waiting on the report).
    await c.host.runJobs();
    await reachesStatus(levels, order.order_number, 'refunded');
    // The top gave the customer's money back; what it paid down is now owed back up, level by level.
    expect((await chainOrderMovements('A', order.order_number)).map((t: { type: string }) => t.type).sort()).toEqual(['credit', 'debit']);
    expect(await remittances('C', order.order_number, 'direction=outgoing&status=pending')).toEqual([expect.objectContaining({ recipient_tenant_id: c.ids.B })]);
    expect(await remittances('B', order.order_number, 'direction=outgoing&status=pending')).toEqual([expect.objectContaining({ recipient_tenant_id: c.ids.A })]);
    // Paid back from the customer's end first: each level pays back what it was paid.
    await processOutgoing('C', order.order_number);
    await processOutgoing('B', order.order_number);
    for (const level of levels) expect({ level, ...money(await wallet(level)) }).toEqual({ level, ...before[level] });
    await balancedEverywhere(levels);
  }, 90_000);

  test('a return of a delivered COD order (two at once: one wins) reverses the margins and remittances: unpaid ones cancelled, a paid one owed back', async () => {
    const levels = ['A', 'B', 'C', 'D'] as const;
    const before = Object.fromEntries(await Promise.all(levels.map(async (l) => [l, money(await wallet(l))])));
    const order = await deliveredChainOrder(c, true);
    await processOutgoing('D', order.order_number); // D has paid C; C and B have not paid yet
    const top = (await copyAt(c, 'A', order.order_number))!;
    // Two returns at once: one takes it back, the other is refused, and the money moves once.
    const answers = await Promise.all([0, 1].map(() => c.as('A', 'POST', `/chain-orders/${top.id}/return`, { reason: 'customer refused the parcel after opening' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 200)!.body.order.chain_status).toBe('returned');
    for (const level of levels) expect((await copyAt(c, level, order.order_number))!.chain_status).toBe('returned');
    for (const level of ['C', 'B'] as const) expect(await remittances(level, order.order_number, 'direction=outgoing&status=cancelled')).toHaveLength(1);
    expect(await remittances('C', order.order_number, 'direction=outgoing&status=pending')).toEqual([expect.objectContaining({ recipient_tenant_id: c.ids.D })]);
    // The COD cash went back to the customer from the origin.
    expect((await chainOrderMovements('D', order.order_number)).map((t: { type: string }) => t.type).sort()).toEqual(['credit', 'debit']);
    // A second return is refused and changes nothing.
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/return`, { reason: 'again' })).body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'returned' } });
    await processOutgoing('C', order.order_number);
    for (const level of levels) expect({ level, ...money(await wallet(level)) }).toEqual({ level, ...before[level] });
    await balancedEverywhere(levels);
  }, 90_000);

  test('the refund event delivered again, twice at once, reverses the money once', async () => {
    // A sells directly (origin and top): the test host emits A's events, so it can replay them.
    const before = money(await wallet('A'));
    const { order, paymentId } = await deliveredPrepaidFrom('A', []);
    await refund('A', order, paymentId);
    await reachesStatus(['A'], order.order_number, 'refunded');
    const payload = { order_id: order.id, order_number: order.order_number, amount: order.total };
    await Promise.all([0, 1].map(() => c.host.emit('order.refund_processed', payload, { settle: true })));
    expect((await chainOrderMovements('A', order.order_number)).map((t: { type: string }) => t.type).sort()).toEqual(['credit', 'debit']);
    expect(money(await wallet('A'))).toEqual(before);
    expect((await c.as('A', 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
  }, 90_000);
});

/** The pro rata rule (reseller-orders README, partial refunds): a price's part of a refund taking the refunded total from `before` to `after`. */
const part = (a: Decimal.Value, before: Decimal.Value, after: Decimal.Value, total: Decimal.Value) => {
  const at = (r: Decimal.Value) => new Decimal(a).times(r).div(total).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return at(after).minus(at(before));
};
const balanceOf = async (level: Level) => new Decimal((await wallet(level)).balance);

/**
 * Every level pays every remittance it owes for the order, oldest first, passes until none is left:
 * a level pays on what it was paid (the delivery's remittances first, then the refunds' the other way).
 */
async function processEverything(levels: readonly Level[], orderNumber: string) {
  for (let pass = 0; pass < 4; pass++) {
    let left = 0;
    for (const level of levels) {
      const pending = (await remittances(level, orderNumber, 'direction=outgoing&status=pending')) as Array<{ id: string; created_at: string }>;
      for (const rem of pending.sort((a, b) => a.created_at.localeCompare(b.created_at))) {
        const r = await c.as(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
        if (r.status !== 200) {
          expect({ level, code: r.body.code }).toEqual({ level, code: 'INSUFFICIENT_BALANCE' });
          left++;
        } else expect(r.body.remittance.status).toBe('completed');
      }
    }
    if (!left) return;
  }
  throw new Error(`remittances of ${orderNumber} left unpaid`);
}

/**
 * Waits until `level` has applied the refund that brought the refunded total to `refunded` (its
 * copy's timeline notes it; a share of 0.00 makes no remittance), at most 20 s.
 */
async function refundReached(level: Level, orderNumber: string, refunded: string) {
  for (let i = 0; i < 20; i++) {
    const copy = (await copyAt(c, level, orderNumber))!;
    const timeline = (await c.as(level, 'GET', `/chain-orders/${copy.id}/timeline`)).body.timeline as Array<{ note: string | null }>;
    if (timeline.some((t) => t.note?.includes(`(refunded in all: ${refunded})`))) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the refunds up to ${refunded} of ${orderNumber} never reached ${level}`);
}

describe('partial refunds through the chain (reseller-orders README: the pro rata rule; spec 3 Wallet, transaction, remittance)', () => {
  test('two partial refunds of a prepaid delivered order (C → B → A): each level gives back exactly its pro rata share, the shares add up to each refund, ledgers at zero; the rest refunded in full: every wallet as before the sale', async () => {
    const levels = ['A', 'B', 'C'] as const;
    const before = Object.fromEntries(await Promise.all(levels.map(async (l) => [l, await balanceOf(l)]))) as Record<(typeof levels)[number], Decimal>;
    const { order, paymentId } = await deliveredPrepaidFrom('C', ['C', 'B']);
    const T = new Decimal(order.total);
    // Each level's end share of the order, from its seller's invoices (support.ts: C's cost 1210.00, B's
    // 1100.00, each with 18% GST: CGST and SGST 9% each, half up): what is left of each invoice after the
    // credit notes, amount by amount by the pro rata rule (README: the GST moves through the wallets).
    const invoiceOf = (cost: string) => {
      const half = new Decimal(cost).times(9).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
      return [new Decimal(cost), half, half];
    };
    const invoices = { C: invoiceOf('1210.00'), B: invoiceOf('1100.00') };
    const shareAfter = (refunded: Decimal.Value) => {
      const left = (amounts: Decimal[]) => amounts.reduce((s, a) => s.plus(a).minus(part(a, 0, refunded, T)), new Decimal(0));
      return { C: T.minus(refunded).minus(left(invoices.C)), B: left(invoices.C).minus(left(invoices.B)), A: left(invoices.B) };
    };
    let refundedSoFar = new Decimal(0);
    // Amounts that do not divide evenly: every level's part is rounded, and still the parts add up.
    for (const amount of ['333.33', '0.07']) {
      const r = await c.as('C', 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount, reason: 'one of the items came damaged' });
      expect(r.status).toBe(201);
      refundedSoFar = refundedSoFar.plus(amount);
      for (const level of ['C', 'B', 'A'] as const) await refundReached(level, order.order_number, refundedSoFar.toFixed(2));
      await processEverything(['A', 'B', 'C'], order.order_number);
      const expected = shareAfter(refundedSoFar);
      let moved = new Decimal(0);
      for (const level of levels) {
        const delta = (await balanceOf(level)).minus(before[level]);
        moved = moved.plus(delta);
        expect({ level, moved: delta.toFixed(2) }).toEqual({ level, moved: expected[level].toFixed(2) });
      }
      expect(moved.toFixed(2)).toBe(T.minus(refundedSoFar).toFixed(2));
      await balancedEverywhere(levels);
      for (const level of levels) expect((await copyAt(c, level, order.order_number))!.chain_status).toBe('delivered');
    }
    // The rest refunded: the order is refunded through the chain, net of what the partial refunds already moved.
    const rest = T.minus(refundedSoFar).toFixed(2);
    expect((await c.as('C', 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: rest, reason: 'customer returned the rest' })).status).toBe(201);
    await reachesStatus(['A'], order.order_number, 'refunded');
    await c.host.runJobs();
    await reachesStatus(levels, order.order_number, 'refunded');
    await processEverything(['A', 'B', 'C'], order.order_number);
    for (const level of levels) expect({ level, balance: (await balanceOf(level)).toFixed(2) }).toEqual({ level, balance: before[level].toFixed(2) });
    await balancedEverywhere(levels);
  }, 180_000);

  test('a full refund right behind a partial one (it may overtake it on its way down the chain): every remittance has its twin in the same state at both levels, every wallet as before the sale', async () => {
    const levels = ['A', 'B', 'C'] as const;
    const before = Object.fromEntries(await Promise.all(levels.map(async (l) => [l, (await balanceOf(l)).toFixed(2)])));
    const { order, paymentId } = await deliveredPrepaidFrom('C', ['C', 'B']);
    const first = await c.as('C', 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: '250.00', reason: 'one item damaged' });
    expect(first.status).toBe(201);
    expect((await c.as('C', 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: new Decimal(order.total).minus('250.00').toFixed(2), reason: 'the rest too' })).status).toBe(201);
    await reachesStatus(levels, order.order_number, 'refunded');
    await c.host.runJobs();
    await processEverything(levels, order.order_number);
    const ids = Object.fromEntries(levels.map((l) => [c.ids[l], l]));
    const copies = new Map<string, string[]>();
    for (const level of levels) {
      for (const r of (await remittances(level, order.order_number, '')) as Array<{ payer_tenant_id: string; recipient_tenant_id: string; adjustment_ref: string; amount: string; status: string }>) {
        const key = `${ids[r.payer_tenant_id]}→${ids[r.recipient_tenant_id]} ${r.adjustment_ref || 'delivery'}`;
        copies.set(key, [...(copies.get(key) ?? []), `${r.amount} ${r.status}`]);
      }
    }
    for (const [key, seen] of copies) expect({ key, seen }).toEqual({ key, seen: [seen[0], seen[0]] });
    for (const [key, seen] of copies) expect({ key, open: /pending|processing/.test(seen[0]) }).toEqual({ key, open: false });
    for (const level of levels) expect({ level, balance: (await balanceOf(level)).toFixed(2) }).toEqual({ level, balance: before[level] });
    await balancedEverywhere(levels);
  }, 180_000);

  test('a share that arrives after the level has reversed the order moves no money and is recorded with its remittances cancelled, once', async () => {
    const { order } = await deliveredPrepaidFrom('A', []);
    const top = (await copyAt(c, 'A', order.order_number))!;
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/return`, { reason: 'came back whole' })).status).toBe(200);
    const before = money(await wallet('A'));
    const [{ chain_ref }] = await c.host.sql<{ chain_ref: string }>('SELECT chain_ref FROM reseller_orders.chain_orders WHERE id = $1', [top.id]);
    const late = { chain_ref, chain_order_id: top.id, origin_order_number: order.order_number, refund_id: `late-${order.order_number}`, given_back: '100.00', pay: [{ tenant_id: c.ids.B, amount: '10.00' }], receive: [{ tenant_id: c.ids.C, amount: '4.00' }] };
    const first = await c.host.call<{ applied: boolean; remittance_ids: string[] }>('reseller_finance.refund_share', late, { asModule: 'reseller_orders' });
    expect({ applied: first.applied, remittances: first.remittance_ids.length }).toEqual({ applied: false, remittances: 2 });
    expect(await c.host.call('reseller_finance.refund_share', late, { asModule: 'reseller_orders' })).toEqual({ applied: false, remittance_ids: [] });
    expect(money(await wallet('A'))).toEqual(before);
    const recorded = (await remittances('A', order.order_number, '')).filter((r: { adjustment_ref: string }) => r.adjustment_ref === late.refund_id);
    expect(recorded.map((r: { direction: string; amount: string; status: string }) => `${r.direction} ${r.amount} ${r.status}`).sort()).toEqual(['incoming 4.00 cancelled', 'outgoing 10.00 cancelled']);
    expect((await c.as('A', 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
  }, 90_000);

  test('the partial refund event delivered again, twice at once, gives the customer back once; a return afterwards reverses only the rest', async () => {
    const before = money(await wallet('A'));
    const { order, paymentId } = await deliveredPrepaidFrom('A', []);
    const r = await c.as('A', 'POST', `/orders/${order.id}/refund`, { payment_id: paymentId, amount: '100.00', reason: 'partial' });
    expect(r.status).toBe(201);
    const refundsOf = async () => (await c.as('A', 'GET', '/finance/wallet/transactions?reference_type=chain_refund&per_page=100')).body.transactions.filter((t: { description: string }) => t.description.includes(order.order_number));
    for (let i = 0; i < 20 && (await refundsOf()).length === 0; i++) await new Promise((res) => setTimeout(res, 1000));
    const payload = { order_id: order.id, order_number: order.order_number, refund_id: r.body.id, amount: '100.00', total_refunded: '100.00' };
    await Promise.all([0, 1].map(() => c.host.emit('order.refund_processed', payload, { settle: true })));
    expect((await refundsOf()).map((t: { type: string; amount: string }) => [t.type, t.amount])).toEqual([['debit', '100.00']]);
    expect(new Decimal((await wallet('A')).balance).minus(before.balance).toFixed(2)).toBe(new Decimal(order.total).minus('100.00').toFixed(2));
    const top = (await copyAt(c, 'A', order.order_number))!;
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/return`, { reason: 'the rest came back' })).status).toBe(200);
    expect(money(await wallet('A'))).toEqual(before);
    expect((await c.as('A', 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
  }, 90_000);
});
