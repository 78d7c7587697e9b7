/**
 * Spec 3, Wallet, transaction, remittance and States and transitions (remittance), on a fresh chain
 * A → B → C → D (so every wallet starts at zero): a prepaid order settles downstream, a remittance is
 * held while its recipient is credited and released when it cannot be, and money is never applied twice.
 */
import Decimal from 'decimal.js';
import { COSTS, copyAt, deliveredChainOrder, GST, INVOICED, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);
const wallet = async (level: Level) => (await c.as(level, 'GET', '/finance/wallet')).body.wallet;
const outgoing = async (level: Level, orderNumber: string) =>
  (await c.as(level, 'GET', '/finance/settlements/remittances?direction=outgoing&per_page=100')).body.remittances.find((r: { origin_order_number: string }) => r.origin_order_number === orderNumber);
const transactionsOf = async (level: Level, referenceId: string) =>
  (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions.filter((t: { reference_id: string }) => t.reference_id === referenceId);
const types = async (level: Level, id: string) => (await transactionsOf(level, id)).map((t: { type: string }) => t.type).sort();

describe('spec 3 Wallet, transaction, remittance (flow_type downstream): a prepaid order paid through the top', () => {
  let order: { id: string; order_number: string; total: string };

  test('on delivery the top takes the payment; each level owes its child the customer total less the child\'s cost', async () => {
    order = await deliveredChainOrder(c, false);
    expect((await copyAt(c, 'D', order.order_number))?.pricing).toMatchObject({ cod_amount: '0.00', origin_total: order.total });
    const atA = await wallet('A');
    expect(atA).toMatchObject({ balance: order.total, available_balance: order.total, held: '0.00', pending_debits: money(new Decimal(order.total).minus(INVOICED.B)) });
    const [credit] = (await c.as('A', 'GET', '/finance/wallet/transactions?reference_type=chain_order')).body.transactions;
    expect((await c.as('A', 'GET', `/finance/wallet/transactions/${credit.id}`)).body.transaction).toMatchObject({
      type: 'credit',
      amount: order.total,
      entries: [
        { account: 'wallet', amount: order.total },
        { account: 'payment_clearing', amount: `-${order.total}` },
      ],
    });
    // Nobody below the top took any money: D's wallet is untouched until it is paid.
    expect(await wallet('D')).toMatchObject({ balance: '0.00', pending_credits: money(new Decimal(order.total).minus(INVOICED.D)) });
    for (const [payer, child, childLevel] of [['A', 'B', 'B'], ['B', 'C', 'C'], ['C', 'D', 'D']] as const) {
      // The customer total less the child's invoice total (README: the GST moves through the wallets).
      const owed = money(new Decimal(order.total).minus(INVOICED[childLevel]));
      expect(await outgoing(payer, order.order_number)).toMatchObject({ flow_type: 'downstream', status: 'pending', amount: owed, payer_tenant_id: c.ids[payer], recipient_tenant_id: c.ids[child] });
      const incoming = (await c.as(child, 'GET', '/finance/settlements/remittances?direction=incoming')).body.remittances;
      expect(incoming).toEqual([expect.objectContaining({ flow_type: 'downstream', amount: owed, payer_tenant_id: c.ids[payer] })]);
      expect((await c.as(child, 'GET', '/finance/settlements/collections?flow_type=downstream')).body.collections).toEqual([
        expect.objectContaining({ flow_type: 'downstream', status: 'pending', amount: owed, cod_amount: '0.00', collector_tenant_id: c.ids[payer] }),
      ]);
    }
    expect((await c.as('A', 'GET', '/finance/settlements/collections?flow_type=downstream')).body.collections).toEqual([expect.objectContaining({ collector_tenant_id: c.ids.A, amount: order.total })]);
    expect((await c.as('A', 'GET', '/finance/settlements/collections?flow_type=upstream')).body.collections).toEqual([]);
  });

  test('processed down the chain (two concurrent calls at B: one pays, one INVALID_STATUS), each level ends with its margin and every ledger sums to zero', async () => {
    const a = await outgoing('A', order.order_number);
    expect((await c.as('A', 'POST', `/finance/settlements/remittances/${a.id}/process`)).body).toMatchObject({ remittance: { id: a.id, status: 'completed' }, wallet: { deducted: a.amount, new_balance: INVOICED.B } });
    const b = await outgoing('B', order.order_number);
    const [first, second] = await Promise.all([c.as('B', 'POST', `/finance/settlements/remittances/${b.id}/process`), c.as('B', 'POST', `/finance/settlements/remittances/${b.id}/process`)]);
    expect([first.status, second.status].sort()).toEqual([200, 422]);
    const loser = first.status === 422 ? first : second;
    expect(loser.body).toEqual({ error: expect.any(String), code: 'INVALID_STATUS', details: expect.objectContaining({ current_status: expect.stringMatching(/^(processing|completed)$/) }) });
    expect((await transactionsOf('B', b.id)).map((t: { type: string }) => t.type).sort()).toEqual(['debit', 'hold', 'release']);
    const cr = await outgoing('C', order.order_number);
    expect((await c.as('C', 'POST', `/finance/settlements/remittances/${cr.id}/process`)).status).toBe(200);

    const total = new Decimal(order.total);
    // Each level's margin plus its net GST (the GST it charged less the GST it was charged).
    const margins = { A: INVOICED.B, B: money(new Decimal(INVOICED.C).minus(INVOICED.B)), C: money(new Decimal(INVOICED.D).minus(INVOICED.C)), D: money(total.minus(INVOICED.D)) };
    let remittanceSum = new Decimal(0);
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      const w = await wallet(level);
      expect({ level, balance: w.balance, available: w.available_balance, held: w.held, pending: [w.pending_debits, w.pending_credits] }).toEqual({ level, balance: margins[level], available: margins[level], held: '0.00', pending: ['0.00', '0.00'] });
      const trial = (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body;
      expect(trial.total).toBe('0.00');
      expect(trial.accounts.wallet_held ?? '0.00').toBe('0.00');
      for (const t of (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions) {
        if (t.type === 'credit') remittanceSum = remittanceSum.plus(t.amount);
        if (t.type === 'debit') remittanceSum = remittanceSum.minus(t.amount);
      }
      expect((await c.as(level, 'GET', '/finance/settlements/collections')).body.collections).toEqual([expect.objectContaining({ status: 'settled', flow_type: 'downstream' })]);
      // GST is never earnings: what the level's invoice charged (D's to the customer: 18% of the 1500.00
      // kettle; the others' to their child) and what its parent's charged it stay apart; the earnings are
      // the margins on taxable values.
      const charged = { A: GST.B, B: GST.C, C: GST.D, D: '270.00' }[level];
      const paid = { A: '0.00', B: GST.B, C: GST.C, D: GST.D }[level];
      const earned = { A: COSTS.B, B: money(new Decimal(COSTS.C).minus(COSTS.B)), C: money(new Decimal(COSTS.D).minus(COSTS.C)), D: money(total.minus('270.00').minus(COSTS.D)) }[level];
      expect({ level, ...(await c.as(level, 'GET', '/finance/settlements/summary?period=week')).body.summary }).toMatchObject({ level, net_earnings: earned, tax_collected: charged, tax_paid: paid });
    }
    expect(money(remittanceSum)).toBe('0.00');
  });
});

describe('spec 3 States and transitions (remittance) and Transaction types hold, release', () => {
  // A (the test host's tenant, whose jobs the test runs) pays B downstream; A suspends B to make it unreachable.
  const unreachable = async (work: () => Promise<void>) => {
    expect((await c.as('A', 'POST', `/reseller/sub-resellers/${c.ids.B}/suspend`, {})).status).toBe(200);
    try {
      await work();
    } finally {
      expect((await c.as('A', 'POST', `/reseller/sub-resellers/${c.ids.B}/reactivate`, {})).status).toBe(200);
    }
  };

  test('recipient unreachable: processing holds the payer\'s money (available less, balance the same); a second process is INVALID_STATUS; the last failed delivery releases it back to pending', async () => {
    const order = await deliveredChainOrder(c, false);
    const rem = await outgoing('A', order.order_number);
    const before = await wallet('A');
    await unreachable(async () => {
      const held = await c.as('A', 'POST', `/finance/settlements/remittances/${rem.id}/process`);
      expect(held.status).toBe(200);
      expect(held.body).toEqual({ message: expect.any(String), remittance: { id: rem.id, status: 'processing', completed_at: null }, wallet: { new_balance: before.balance, deducted: '0.00' } });
      expect(await wallet('A')).toMatchObject({ balance: before.balance, held: rem.amount, available_balance: money(new Decimal(before.balance).minus(rem.amount)), pending_debits: before.pending_debits });
      expect((await c.as('A', 'GET', '/finance/settlements/remittances?status=processing')).body.remittances.map((r: { id: string }) => r.id)).toEqual([rem.id]);
      // Still owed until it completes: in to_pay, as in pending_debits.
      expect((await c.as('A', 'GET', '/finance/settlements/pending')).body.to_pay).toContainEqual(expect.objectContaining({ id: rem.id, status: 'processing' }));
      const again = await c.as('A', 'POST', `/finance/settlements/remittances/${rem.id}/process`);
      expect(again.body).toEqual({ error: expect.any(String), code: 'INVALID_STATUS', details: expect.objectContaining({ current_status: 'processing' }) });
      const trial = (await c.as('A', 'GET', '/finance/ledger/trial-balance')).body;
      expect(trial).toMatchObject({ total: '0.00', accounts: { wallet_held: rem.amount, wallet: money(new Decimal(before.balance).minus(rem.amount)) } });
      const [hold] = await transactionsOf('A', rem.id);
      expect((await c.as('A', 'GET', `/finance/wallet/transactions/${hold.id}`)).body.transaction).toMatchObject({
        type: 'hold',
        amount: rem.amount,
        balance_after: before.balance,
        entries: [
          { account: 'wallet_held', amount: rem.amount },
          { account: 'wallet', amount: `-${rem.amount}` },
        ],
      });
      // Every attempt of the deliver job fails while B is suspended; the last one lets the money go.
      const ended = await c.host.runJobs(c.host.clock.now() + 60_000);
      expect(ended).toContainEqual(expect.objectContaining({ status: 'completed', result: { delivered: false } }));
      expect(await outgoing('A', order.order_number)).toMatchObject({ status: 'pending', completed_at: null });
      expect(await wallet('A')).toMatchObject({ balance: before.balance, held: '0.00', available_balance: before.balance });
      expect(await types('A', rem.id)).toEqual(['hold', 'release']);
    });
    expect((await c.as('B', 'GET', '/finance/settlements/remittances?direction=incoming&status=pending')).body.remittances.map((r: { origin_order_number: string }) => r.origin_order_number)).toContain(order.order_number);
    const paid = await c.as('A', 'POST', `/finance/settlements/remittances/${rem.id}/process`);
    expect(paid.body).toMatchObject({ remittance: { id: rem.id, status: 'completed', completed_at: expect.any(String) }, wallet: { deducted: rem.amount, new_balance: money(new Decimal(before.balance).minus(rem.amount)) } });
    expect(await types('A', rem.id)).toEqual(['debit', 'hold', 'hold', 'release', 'release']);
    expect(await wallet('A')).toMatchObject({ held: '0.00', available_balance: money(new Decimal(before.balance).minus(rem.amount)) });
    expect((await c.as('A', 'GET', '/finance/ledger/trial-balance')).body).toMatchObject({ total: '0.00', accounts: { wallet_held: '0.00' } });
    // The recipient's side is one credit: nothing of it was held.
    const atB = (await c.as('B', 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions.filter((t: { description: string }) => t.description.includes(order.order_number));
    expect(atB.map((t: { type: string }) => t.type)).toEqual(['credit']);
  }, 60_000);

  test('recipient unreachable, then reachable: the retried job credits it and completes the payer\'s copy, the hold released into the debit', async () => {
    const order = await deliveredChainOrder(c, false);
    const rem = await outgoing('A', order.order_number);
    const before = await wallet('A');
    await unreachable(async () => {
      expect((await c.as('A', 'POST', `/finance/settlements/remittances/${rem.id}/process`)).body.remittance.status).toBe('processing');
    });
    const ended = await c.host.runJobs(c.host.clock.now() + 60_000);
    expect(ended).toContainEqual(expect.objectContaining({ status: 'completed', result: { delivered: true } }));
    expect(await outgoing('A', order.order_number)).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect(await wallet('A')).toMatchObject({ held: '0.00', balance: money(new Decimal(before.balance).minus(rem.amount)), pending_debits: money(new Decimal(before.pending_debits).minus(rem.amount)) });
    expect(await types('A', rem.id)).toEqual(['debit', 'hold', 'release']);
    expect((await c.as('B', 'GET', '/finance/settlements/remittances?direction=incoming&status=completed')).body.remittances.map((r: { origin_order_number: string }) => r.origin_order_number)).toContain(order.order_number);
    for (const level of ['A', 'B'] as const) expect((await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
  }, 60_000);
});

describe('spec 3 States (remittance): bulk-process pays a batch once, whatever races it', () => {
  test('two concurrent bulk-process calls on the same three remittances: each is held and paid once, the recipient credited once each, every ledger sums to zero', async () => {
    const orders: Array<Awaited<ReturnType<typeof deliveredChainOrder>>> = [];
    for (let i = 0; i < 3; i++) orders.push(await deliveredChainOrder(c, false));
    const rems = await Promise.all(orders.map((o) => outgoing('A', o.order_number)));
    const ids = rems.map((r: { id: string }) => r.id);
    const before = await wallet('A');
    const answers = await Promise.all([0, 1].map(() => c.as('A', 'POST', '/finance/settlements/remittances/bulk-process', { remittance_ids: ids })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const processed = answers.flatMap((a) => a.body.processed as string[]);
    expect([...processed].sort()).toEqual([...ids].sort());
    // Whatever the first call did not pay, the second did not pay either: it was told so per id.
    for (const a of answers) {
      for (const id of ids.filter((id: string) => !a.body.processed.includes(id))) expect(a.body.errors[id]).toMatch(/processing|completed/);
    }
    const paid = rems.reduce((sum: Decimal, r: { amount: string }) => sum.plus(r.amount), new Decimal(0));
    expect(await wallet('A')).toMatchObject({ held: '0.00', balance: money(new Decimal(before.balance).minus(paid)), pending_debits: money(new Decimal(before.pending_debits).minus(paid)) });
    for (const id of ids) expect(await types('A', id)).toEqual(['debit', 'hold', 'release']);
    const credits = (await c.as('B', 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions.filter((t: { description: string }) =>
      orders.some((o) => t.description.includes(o.order_number)),
    );
    expect(credits.map((t: { type: string }) => t.type)).toEqual(['credit', 'credit', 'credit']);
    for (const level of ['A', 'B'] as const) {
      const trial = (await c.as(level, 'GET', '/finance/ledger/trial-balance')).body;
      expect({ level, total: trial.total, held: trial.accounts.wallet_held ?? '0.00' }).toEqual({ level, total: '0.00', held: '0.00' });
    }
  }, 60_000);
});
