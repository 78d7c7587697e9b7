import Decimal from 'decimal.js';
import { admins, COSTS, copyAt, deliveredChainOrder, GST, INVOICED, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
beforeAll(async () => {
  c = await startChain();
}, 240_000);
afterAll(() => c?.host.close());

const money = (v: Decimal.Value) => new Decimal(v).toFixed(2);

describe('spec 3 Chain order, States and transitions, Wallet/transaction/remittance: a 4-level chain (A → B → C → D)', () => {
  let order: { id: string; order_number: string; total: string };
  const copies: Partial<Record<Level, string>> = {};

  test('order.created with only catalog products makes a pending_forward chain order; POST /chain-orders returns the same one', async () => {
    order = await placeOrder(c);
    await c.host.eventually(async () => expect(await copyAt(c, 'D', order.order_number)).toBeDefined(), 20_000);
    const again = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    expect(again.status).toBe(201);
    expect(again.body.order).toMatchObject({ origin_order_number: order.order_number, chain_status: 'pending_forward', chain_path: [{ tenant_id: c.ids.D, level: 3 }] });
    // The origin's margin is on the taxable value (the 1500.00 kettle), never on the GST in its total.
    expect(again.body.order.pricing).toEqual({ origin_total: order.total, your_cost: COSTS.D, your_margin: money(new Decimal('1500.00').minus(COSTS.D)), cod_amount: order.total });
    copies.D = again.body.order.id;
  });

  test('forwarded D → C → B → A: each parent keeps its own copy, found in /incoming by origin order number, priced for itself', async () => {
    for (const [level, parent] of [['D', 'C'], ['C', 'B'], ['B', 'A']] as const) {
      const fwd = await c.as(level, 'POST', `/chain-orders/${copies[level]}/forward`);
      expect(fwd.status).toBe(200);
      expect(fwd.body.order.chain_status).toBe('forwarded');
      const incoming = await c.as(parent, 'GET', `/chain-orders/incoming?search=${order.order_number}`);
      expect(incoming.body.orders).toHaveLength(1);
      copies[parent] = incoming.body.orders[0].id;
      expect(copies[parent]).not.toBe(copies[level]);
    }
    const seen = (await c.as('B', 'GET', `/chain-orders/${copies.B}`)).body.order;
    // B sees its cost from A and its price to C, never A's base cost.
    expect(seen.pricing).toEqual({ origin_total: order.total, your_cost: COSTS.B, your_margin: money(new Decimal(COSTS.C).minus(COSTS.B)), cod_amount: order.total });
    expect(JSON.stringify(seen)).not.toContain(COSTS.A);
    expect(seen.chain_path.map((p: { tenant_id: string }) => p.tenant_id)).toEqual([c.ids.D, c.ids.C, c.ids.B]);
    expect((await c.as('C', 'GET', '/chain-orders/forwarded')).body.orders.map((o: { id: string }) => o.id)).toContain(copies.C);
  });

  test('forward at the top is refused; a second forward is INVALID_STATUS with details.current_status', async () => {
    const top = await c.as('A', 'POST', `/chain-orders/${copies.A}/forward`);
    expect(top.status).toBe(422);
    expect(top.body).toEqual({ error: expect.any(String), code: 'NO_PARENT', details: expect.any(Object) });
    const twice = await c.as('D', 'POST', `/chain-orders/${copies.D}/forward`);
    expect(twice.status).toBe(422);
    expect(twice.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'forwarded' } });
  });

  test('accepted at the top (stock reserved), shipped and delivered: every level sees the status and the tracking number', async () => {
    expect((await c.as('A', 'POST', `/chain-orders/${copies.A}/accept`)).status).toBe(200);
    expect((await c.as('A', 'GET', '/chain-orders/fulfillment')).body.orders.map((o: { id: string }) => o.id)).toContain(copies.A);
    const shipped = await c.as('A', 'POST', `/chain-orders/${copies.A}/ship`, { tracking_number: 'DLV123456', carrier: 'Delhivery' });
    expect(shipped.status).toBe(200);
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      const seen = (await c.as(level, 'GET', `/chain-orders/${copies[level]}`)).body.order;
      expect(seen).toMatchObject({ chain_status: 'shipped', shipping: { carrier: 'Delhivery', tracking_number: 'DLV123456' } });
    }
    const early = await c.as('A', 'POST', `/chain-orders/${copies.A}/accept`);
    expect(early.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'shipped' } });
    expect((await c.as('A', 'POST', `/chain-orders/${copies.A}/deliver`)).status).toBe(200);
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      expect((await c.as(level, 'GET', `/chain-orders/${copies[level]}`)).body.order.chain_status).toBe('delivered');
      const timeline = (await c.as(level, 'GET', `/chain-orders/${copies[level]}/timeline`)).body.timeline.map((t: { status: string }) => t.status);
      expect(timeline).toEqual(level === 'A' ? ['pending_forward', 'accepted', 'shipped', 'delivered'] : ['pending_forward', 'forwarded', 'accepted', 'shipped', 'delivered']);
    }
    const stats = (await c.as('D', 'GET', '/chain-orders/stats')).body.stats;
    expect(stats).toMatchObject({ pending_forward: 0, forwarded: 0, delivered: 1, total_value: order.total });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await c.as('B', 'GET', `/chain-orders?status=delivered&from_date=${today}&to_date=${today}`)).body.orders.map((o: { id: string }) => o.id)).toEqual([copies.B]);
    expect((await c.as('B', 'GET', `/chain-orders?from_date=${tomorrow}`)).body.orders).toEqual([]);
    expect((await c.as('B', 'GET', '/chain-orders?search=asha')).body.orders).toHaveLength(1);
  });

  test('settlement: COD in at D, pending remittances between adjacent levels; processed upward, each level ends with its margin and every ledger sums to zero', async () => {
    const pendingD = (await c.as('D', 'GET', '/finance/settlements/pending')).body;
    // Each remittance is the parent's invoice total (README: the GST moves through the wallets).
    expect(pendingD.to_pay).toEqual([expect.objectContaining({ amount: INVOICED.D, recipient_tenant_id: c.ids.C, status: 'pending' })]);
    expect(pendingD.totals).toEqual({ owed: INVOICED.D, receivable: '0.00', net_position: money(new Decimal(0).minus(INVOICED.D)) });
    const pendingC = (await c.as('C', 'GET', '/finance/settlements/pending')).body;
    expect(pendingC.to_receive).toEqual([expect.objectContaining({ amount: INVOICED.D, payer_tenant_id: c.ids.D })]);
    expect((await c.as('D', 'GET', '/finance/wallet')).body.wallet).toMatchObject({ balance: order.total, pending_debits: INVOICED.D, currency: 'INR' });

    for (const level of ['D', 'C', 'B'] as const) {
      const [rem] = (await c.as(level, 'GET', '/finance/settlements/remittances?direction=outgoing&status=pending')).body.remittances;
      const done = await c.as(level, 'POST', `/finance/settlements/remittances/${rem.id}/process`);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ remittance: { id: rem.id, status: 'completed', completed_at: expect.any(String) }, wallet: { deducted: rem.amount } });
    }
    // Each level's margin plus its net GST (charged less charged to it); the top: B's cost and its invoice's GST.
    const margins = { D: money(new Decimal(order.total).minus(INVOICED.D)), C: money(new Decimal(INVOICED.D).minus(INVOICED.C)), B: money(new Decimal(INVOICED.C).minus(INVOICED.B)), A: INVOICED.B };
    let remittanceSum = new Decimal(0);
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      const wallet = (await c.as(level, 'GET', '/finance/wallet')).body.wallet;
      expect({ level, balance: wallet.balance, pending_debits: wallet.pending_debits, pending_credits: wallet.pending_credits }).toEqual({ level, balance: margins[level], pending_debits: '0.00', pending_credits: '0.00' });
      expect((await c.as(level, 'GET', '/finance/ledger/trial-balance')).body.total).toBe('0.00');
      for (const t of (await c.as(level, 'GET', '/finance/wallet/transactions?reference_type=remittance')).body.transactions) {
        // Money between tenants: credits and debits (a hold and its release stay inside the payer's wallet).
        if (t.type === 'credit' || t.type === 'debit') remittanceSum = remittanceSum.plus(t.type === 'credit' ? t.amount : new Decimal(t.amount).neg());
      }
    }
    expect(money(remittanceSum)).toBe('0.00');
    const summaryC = (await c.as('C', 'GET', '/finance/settlements/summary?period=week')).body.summary;
    expect(summaryC).toEqual({
      period: 'week',
      wallet_balance: margins.C,
      pending_credits: '0.00',
      pending_debits: '0.00',
      collections_count: 1,
      collections_total: INVOICED.D,
      remittances_paid: INVOICED.C,
      remittances_received: INVOICED.D,
      // GST is kept apart from earnings: charged to D, charged by B; the earnings are the margin on taxable values.
      tax_collected: GST.D,
      tax_paid: GST.C,
      net_earnings: money(new Decimal(COSTS.D).minus(COSTS.C)),
    });
    expect((await c.as('D', 'GET', '/finance/wallet/summary?period=month')).body.summary).toMatchObject({ transactions_count: 4, credits_total: order.total, debits_total: INVOICED.D, net_change: margins.D });
    expect((await c.as('A', 'GET', '/finance/settlements/collections?status=settled')).body.collections).toEqual([expect.objectContaining({ amount: INVOICED.B, gst_charged: GST.B, gst_paid: '0.00' })]);
  });

  test('events: each level announces its copy with {event, timestamp, tenant_id, data}; remittances are announced when created', async () => {
    const seen = async (level: Level) => (await c.as(level, 'GET', '/reseller-recorder/events')).body.events as Array<{ event: string; payload: Record<string, any> }>; // eslint-disable-line @typescript-eslint/no-explicit-any
    await c.host.eventually(async () => {
      for (const level of ['A', 'B', 'C', 'D'] as const) {
        const delivered = (await seen(level)).filter((e) => e.event === 'chain_order.delivered');
        expect(delivered).toEqual([
          { id: expect.any(String), event: 'chain_order.delivered', payload: { event: 'chain_order.delivered', timestamp: expect.any(String), tenant_id: c.ids[level], data: { chain_order_id: copies[level], origin_order_number: order.order_number } } },
        ]);
      }
    }, 20_000);
    const atD = await seen('D');
    expect(atD.filter((e) => e.event === 'chain_order.status_changed').map((e) => e.payload.data.to)).toEqual(['forwarded', 'accepted', 'shipped', 'delivered']);
    expect(atD.find((e) => e.event === 'chain_order.created')?.payload).toMatchObject({ tenant_id: c.ids.D, data: { chain_order_id: copies.D } });
    expect(atD.find((e) => e.event === 'remittance.created')?.payload).toMatchObject({ event: 'remittance.created', tenant_id: c.ids.D, data: { direction: 'outgoing', amount: INVOICED.D, recipient_tenant_id: c.ids.C } });
  });
});

describe('spec 3 States (remittance) and Errors under concurrency', () => {
  test('100 concurrent process calls on one remittance: exactly one succeeds, the others INVALID_STATUS, one hold, one release, one debit', async () => {
    const order = await deliveredChainOrder(c);
    const rems = (await c.as('D', 'GET', '/finance/settlements/remittances?direction=outgoing&status=pending')).body.remittances;
    const rem = rems.find((r: { origin_order_number: string }) => r.origin_order_number === order.order_number);
    // Five admins of D, twenty calls each: under the per-user write limit (30 a minute), all at once.
    const tokens = await admins(c, 'D', 5, 'payer');
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => c.as('D', 'POST', `/finance/settlements/remittances/${rem.id}/process`, undefined, tokens[i % 5])));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(99);
    // The losers found it being paid (processing: the money held) or paid (completed).
    for (const r of refused) expect(r.body).toEqual({ error: expect.any(String), code: 'INVALID_STATUS', details: expect.objectContaining({ current_status: expect.stringMatching(/^(processing|completed)$/) }) });
    const movements = (await c.as('D', 'GET', '/finance/wallet/transactions?reference_type=remittance&per_page=100')).body.transactions.filter((t: { reference_id: string }) => t.reference_id === rem.id);
    expect(movements.map((t: { type: string }) => t.type).sort()).toEqual(['debit', 'hold', 'release']);
    const debits = movements.filter((t: { type: string }) => t.type === 'debit');
    const entries = (await c.as('D', 'GET', `/finance/wallet/transactions/${debits[0].id}`)).body.transaction.entries;
    expect(entries).toEqual([
      { account: `tenant:${c.ids.C}`, amount: rem.amount },
      { account: 'wallet', amount: `-${rem.amount}` },
    ]);
    const credited = (await c.as('C', 'GET', '/finance/wallet/transactions?type=credit&reference_type=remittance&per_page=100')).body.transactions.filter((t: { description: string }) => t.description.includes(order.order_number));
    expect(credited).toHaveLength(1);
  }, 60_000);

  test('concurrent forward and cancel on one chain order: one wins and every copy agrees', async () => {
    const order = await placeOrder(c);
    const made = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    const id = made.body.order.id;
    const [fwd, cancel] = await Promise.all([c.as('D', 'POST', `/chain-orders/${id}/forward`), c.as('D', 'POST', `/chain-orders/${id}/cancel`, { reason: 'customer called' })]);
    expect([fwd.status, cancel.status].sort()).toEqual([200, 422]);
    const loser = fwd.status === 200 ? cancel : fwd;
    expect(loser.body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: fwd.status === 200 ? 'forwarded' : 'cancelled' } });
    const atD = (await c.as('D', 'GET', `/chain-orders/${id}`)).body.order.chain_status;
    const atC = await copyAt(c, 'C', order.order_number);
    if (fwd.status === 200) {
      expect(atD).toBe('forwarded');
      expect(atC?.chain_status).toBe('pending_forward');
    } else {
      expect(atD).toBe('cancelled');
      expect(atC).toBeUndefined();
    }
  });

  test('cancel at the top after accepting: the stock comes back and every copy below is cancelled with the reason', async () => {
    const stock = async () => (await c.as('A', 'GET', '/reseller-catalog/master-products?search=SKU-1')).body.products[0].stock_quantity as number;
    const order = await placeOrder(c);
    const made = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    expect(made.status).toBe(201);
    for (const level of ['D', 'C', 'B'] as const) expect((await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`)).status).toBe(200);
    const top = (await copyAt(c, 'A', order.order_number))!;
    const before = await stock();
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
    expect(await stock()).toBe(before - 1);
    // Below the top the order has moved on: D can no longer cancel it.
    const atD = (await copyAt(c, 'D', order.order_number))!;
    expect((await c.as('D', 'POST', `/chain-orders/${atD.id}/cancel`, { reason: 'too late' })).body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'accepted' } });
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/cancel`, { reason: 'out of stock at the warehouse' })).status).toBe(200);
    expect(await stock()).toBe(before);
    for (const level of ['A', 'B', 'C', 'D'] as const) {
      const copy = (await copyAt(c, level, order.order_number))!;
      expect((await c.as(level, 'GET', `/chain-orders/${copy.id}`)).body.order).toMatchObject({ chain_status: 'cancelled', cancel_reason: 'out of stock at the warehouse' });
    }
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'X', carrier: 'Y' })).body).toMatchObject({ code: 'INVALID_STATUS', details: { current_status: 'cancelled' } });
  });

  test('a level unreachable when the order ships (suspended) catches up from the retried job once reachable', async () => {
    const order = await placeOrder(c);
    await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    for (const level of ['D', 'C', 'B'] as const) await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`);
    const top = (await copyAt(c, 'A', order.order_number))!;
    expect((await c.as('A', 'POST', `/chain-orders/${top.id}/accept`)).status).toBe(200);
    expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/suspend`, {})).status).toBe(200);
    try {
      expect((await c.as('A', 'POST', `/chain-orders/${top.id}/ship`, { tracking_number: 'LATE1', carrier: 'Delhivery' })).status).toBe(200);
      expect((await copyAt(c, 'C', order.order_number))!.chain_status).toBe('shipped');
    } finally {
      expect((await c.as('C', 'POST', `/reseller/sub-resellers/${c.ids.D}/reactivate`, {})).status).toBe(200);
    }
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('accepted');
    const ended = await c.host.runJobs(c.host.clock.now() + 60_000);
    expect(ended).toContainEqual(expect.objectContaining({ status: 'completed' }));
    expect((await copyAt(c, 'D', order.order_number))).toMatchObject({ chain_status: 'shipped', shipping: { tracking_number: 'LATE1' } });
  });

  test('INSUFFICIENT_BALANCE with details required and available when the balance plus credit limit cannot cover it; nothing written', async () => {
    const order = await deliveredChainOrder(c);
    // B owes A its cost but has not been paid by C yet for this order: drain B's balance first.
    const wallet = (await c.as('B', 'GET', '/finance/wallet')).body.wallet;
    const rems = (await c.as('B', 'GET', '/finance/settlements/remittances?direction=outgoing&status=pending&per_page=100')).body.remittances;
    let refused;
    for (const rem of rems) {
      const r = await c.as('B', 'POST', `/finance/settlements/remittances/${rem.id}/process`);
      if (r.status !== 200) {
        refused = { rem, r };
        break;
      }
    }
    expect(refused).toBeDefined();
    expect(refused!.r.status).toBe(422);
    expect(refused!.r.body).toEqual({ error: expect.any(String), code: 'INSUFFICIENT_BALANCE', details: { required: refused!.rem.amount, available: expect.any(String) } });
    const still = (await c.as('B', 'GET', `/finance/settlements/remittances?status=pending&direction=outgoing&per_page=100`)).body.remittances.map((r: { id: string }) => r.id);
    expect(still).toContain(refused!.rem.id);
    expect(wallet.currency).toBe('INR');
    void order;
  }, 60_000);
});
