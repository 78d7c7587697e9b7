import { copyAt, deliveredChainOrder, INVOICED, startChain, type Chain, type Level } from './support';

let c: Chain;
/** D's ids: its copy of a delivered chain order, its outgoing remittance, one of its transactions. */
const d = { order: '', remittance: '', transaction: '', orderNumber: '' };

beforeAll(async () => {
  c = await startChain();
  const order = await deliveredChainOrder(c);
  d.orderNumber = order.order_number;
  d.order = (await copyAt(c, 'D', order.order_number))!.id;
  d.remittance = (await c.as('D', 'GET', '/finance/settlements/remittances?direction=outgoing')).body.remittances[0].id;
  d.transaction = (await c.as('D', 'GET', '/finance/wallet/transactions')).body.transactions[0].id;
}, 300_000);
afterAll(() => c?.host.close());

const shape = { error: expect.any(String), code: expect.any(String), details: expect.any(Object) };

describe('spec 3 Authentication and Errors: what each level can reach of another level\'s chain order and money', () => {
  const routes = (): Array<[string, string, unknown?]> => [
    ['GET', `/chain-orders/${d.order}`],
    ['GET', `/chain-orders/${d.order}/timeline`],
    ['POST', `/chain-orders/${d.order}/forward`],
    ['POST', `/chain-orders/${d.order}/accept`],
    ['POST', `/chain-orders/${d.order}/ship`, { tracking_number: 'X1', carrier: 'X' }],
    ['POST', `/chain-orders/${d.order}/deliver`],
    ['POST', `/chain-orders/${d.order}/cancel`, { reason: 'not yours' }],
    ['GET', `/finance/wallet/transactions/${d.transaction}`],
    ['POST', `/finance/settlements/remittances/${d.remittance}/process`],
  ];

  test.each(['A', 'B', 'C', 'S'] as Level[])('%s: every route given D\'s ids answers 404 in the reseller shape (its own copies have ids of their own)', async (level) => {
    for (const [method, p, body] of routes()) {
      const r = await c.as(level, method, p, body);
      expect({ level, method, p, status: r.status, body: r.body }).toEqual({ level, method, p, status: 404, body: { ...shape, code: 'NOT_FOUND' } });
    }
  });

  test('lists: the ancestors hold their own copy; the sibling branch (S) sees nothing of the order, and no money of it', async () => {
    for (const level of ['A', 'B', 'C', 'D'] as const) expect(await copyAt(c, level, d.orderNumber)).toBeDefined();
    for (const p of ['/chain-orders', '/chain-orders/incoming', '/chain-orders/forwarded', '/chain-orders/fulfillment']) {
      expect((await c.as('S', 'GET', p)).body.orders).toEqual([]);
    }
    expect((await c.as('S', 'GET', '/chain-orders/stats')).body.stats).toMatchObject({ delivered: 0, total_value: '0.00' });
    expect((await c.as('S', 'GET', '/finance/wallet/transactions')).body.transactions).toEqual([]);
    expect((await c.as('S', 'GET', '/finance/settlements/remittances')).body.remittances).toEqual([]);
    expect((await c.as('S', 'GET', '/finance/settlements/collections')).body.collections).toEqual([]);
    // C's copy shows C's money only: its cost from B and its margin on D, not B's or A's cost.
    const atC = (await c.as('C', 'GET', `/chain-orders/${(await copyAt(c, 'C', d.orderNumber))!.id}`)).body.order;
    expect(atC.pricing).toMatchObject({ your_cost: '1210.00', your_margin: '121.00' });
    expect(JSON.stringify(atC)).not.toMatch(/"1100\.00"|"1000\.00"/);
  });

  test('X-Effective-Tenant: a parent switching into its sub-reseller is 403 UNAUTHORIZED_CONTEXT; the super admin may', async () => {
    const viaParent = await fetch(`${c.host.url}/api/v1/chain-orders/${d.order}`, { headers: { authorization: `Bearer ${c.tokens.C}`, 'x-tenant': c.ids.C, 'x-effective-tenant': c.ids.D } });
    expect(viaParent.status).toBe(403);
    expect(await viaParent.json()).toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: c.ids.D } });
    const viaAdmin = await fetch(`${c.host.url}/api/v1/chain-orders/${d.order}`, { headers: { authorization: `Bearer ${c.tokens.A}`, 'x-tenant': c.ids.A, 'x-effective-tenant': c.ids.D } });
    expect(viaAdmin.status).toBe(200);
  });

  test('admin stats and the sweep are the super admin\'s: another level gets 403 in the reseller shape', async () => {
    for (const [method, p] of [['GET', '/finance/admin/stats'], ['POST', '/finance/admin/sweep']] as const) {
      const r = await c.as('B', method, p);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ ...shape, code: 'FORBIDDEN' });
    }
  });
});

describe('spec 3 Errors: bad input is refused in the reseller shape and writes nothing', () => {
  const snapshot = async (level: Level) => ({
    wallet: (await c.as(level, 'GET', '/finance/wallet')).body.wallet,
    transactions: (await c.as(level, 'GET', '/finance/wallet/transactions')).body.pagination.total,
    remittances: (await c.as(level, 'GET', '/finance/settlements/remittances')).body.remittances,
    orders: (await c.as(level, 'GET', '/chain-orders')).body.pagination.total,
  });

  test('a credit limit with 3 decimals, another tenant\'s remittance, unknown ids, missing fields', async () => {
    const before = { B: await snapshot('B'), C: await snapshot('C') };
    const bad: Array<[Level, string, string, unknown, number, string]> = [
      ['A', 'PUT', `/finance/sub-resellers/${c.ids.B}/credit-limit`, { credit_limit: '10.005' }, 422, 'VALIDATION_FAILED'],
      ['A', 'PUT', `/finance/sub-resellers/${c.ids.B}/credit-limit`, { credit_limit: 10.005 }, 422, 'VALIDATION_FAILED'],
      ['A', 'PUT', `/finance/sub-resellers/${c.ids.B}/credit-limit`, { credit_limit: '-1.00' }, 422, 'VALIDATION_FAILED'],
      ['A', 'PUT', `/finance/sub-resellers/${c.ids.D}/credit-limit`, { credit_limit: '100.00' }, 403, 'UNAUTHORIZED_CONTEXT'],
      ['C', 'POST', `/finance/settlements/remittances/${d.remittance}/process`, undefined, 404, 'NOT_FOUND'],
      ['C', 'POST', '/finance/settlements/remittances/not-a-uuid/process', undefined, 422, 'VALIDATION_FAILED'],
      ['C', 'POST', '/chain-orders', { order_id: '00000000-0000-4000-8000-000000000000' }, 404, 'ORDER_NOT_FOUND'],
      ['C', 'POST', `/chain-orders/${d.order}/ship`, { carrier: 'X' }, 422, 'VALIDATION_FAILED'],
      ['C', 'POST', `/chain-orders/${d.order}/cancel`, { reason: '' }, 422, 'VALIDATION_FAILED'],
      ['B', 'GET', '/finance/wallet/transactions?type=refund', undefined, 422, 'VALIDATION_FAILED'],
      ['B', 'GET', '/finance/settlements/remittances?from_date=yesterday', undefined, 422, 'VALIDATION_FAILED'],
    ];
    for (const [level, method, p, body, status, code] of bad) {
      const r = await c.as(level, method, p, body);
      expect({ p, body, status: r.status, answer: r.body }).toEqual({ p, body, status, answer: { ...shape, code: expect.stringMatching(new RegExp(`^(${code}|NOT_FOUND)$`)) } });
    }
    const bulk = await c.as('C', 'POST', '/finance/settlements/remittances/bulk-process', { remittance_ids: [d.remittance, '00000000-0000-4000-8000-000000000001'] });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toEqual({ processed: [], errors: { [d.remittance]: expect.any(String), '00000000-0000-4000-8000-000000000001': expect.any(String) }, message: expect.any(String) });
    expect({ B: await snapshot('B'), C: await snapshot('C') }).toEqual(before);
  });

  test('an order with an item that is not a catalog product makes no chain order (422 NOT_CATALOG_ORDER)', async () => {
    const made = await c.as('D', 'POST', '/orders', { customer: { name: 'Ravi', phone: '9800000001' }, items: [{ name: 'Gift wrap', quantity: 1, unit_price: '20.00' }] });
    expect(made.status).toBe(201);
    const id = (made.body.order ?? made.body).id;
    const r = await c.as('D', 'POST', '/chain-orders', { order_id: id });
    expect(r.status).toBe(422);
    expect(r.body).toEqual({ ...shape, code: 'NOT_CATALOG_ORDER' });
    expect((await c.as('D', 'GET', `/chain-orders?search=${(made.body.order ?? made.body).order_number}`)).body.orders).toEqual([]);
  });

  test('the parent sets a direct sub-reseller\'s credit limit, which then covers a payment beyond its balance', async () => {
    const r = await c.as('A', 'PUT', `/finance/sub-resellers/${c.ids.B}/credit-limit`, { credit_limit: '5000.00' });
    expect(r.status).toBe(200);
    expect(r.body.wallet.credit_limit).toBe('5000.00');
    expect((await c.as('B', 'GET', '/finance/wallet')).body.wallet.credit_limit).toBe('5000.00');
    const [rem] = (await c.as('B', 'GET', '/finance/settlements/remittances?direction=outgoing&status=pending')).body.remittances;
    const paid = await c.as('B', 'POST', `/finance/settlements/remittances/${rem.id}/process`);
    expect(paid.status).toBe(200);
    // B pays A's invoice total (its cost 1100.00 and the invoice's GST) on credit.
    expect(paid.body.wallet.new_balance).toBe(`-${INVOICED.B}`);
    // Paid on credit: wallet.low_balance, in the spec's envelope.
    await c.host.eventually(async () => {
      const seen = (await c.as('B', 'GET', '/reseller-recorder/events?event=wallet.low_balance')).body.events;
      expect(seen.map((e: { payload: unknown }) => e.payload)).toContainEqual({ event: 'wallet.low_balance', timestamp: expect.any(String), tenant_id: c.ids.B, data: { balance: `-${INVOICED.B}`, credit_limit: '5000.00', threshold: '0.00' } });
    });
  });
});

describe('spec 3 Limits and Endpoints (Finance): rate limit headers, the streamed CSV export, due and overdue', () => {
  test('reads carry X-RateLimit headers of 100 a minute; exports are limited to 5 a minute per user', async () => {
    const read = await c.as('D', 'GET', '/finance/wallet');
    expect(read.headers.get('x-ratelimit-limit')).toBe('100');
    const tokens = [c.tokens.D];
    const answers = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${c.host.url}/api/v1/finance/wallet/transactions/export`, { headers: { authorization: `Bearer ${tokens[0]}`, 'x-tenant': c.ids.D } });
      answers.push({ status: res.status, type: res.headers.get('content-type'), limit: res.headers.get('x-ratelimit-limit'), retry: res.headers.get('retry-after'), text: await res.text() });
    }
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0].type).toMatch(/text\/csv/);
    expect(answers[0].limit).toBe('5');
    const lines = answers[0].text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('id,created_at,type,amount,balance_after,reference_type,reference_id,counterparty_tenant_id,description');
    expect(lines.length).toBeGreaterThan(1);
    expect(answers[5].status).toBe(429);
    expect(answers[5].retry).toEqual(expect.any(String));
    expect(JSON.parse(answers[5].text)).toEqual({ ...shape, code: 'RATE_LIMITED' });
  });

  test('the sweep marks pending remittances due, then overdue; admin stats count them and name the debtors', async () => {
    await deliveredChainOrder(c);
    const start = c.host.clock.now();
    try {
      c.host.clock.set(start + 7 * 86_400_000);
      const due = await c.as('A', 'POST', '/finance/admin/sweep');
      expect(due.status).toBe(200);
      expect(due.body.due).toBeGreaterThanOrEqual(1);
      expect(due.body.overdue).toBe(0);
      c.host.clock.set(start + 8 * 86_400_000);
      const over = await c.as('A', 'POST', '/finance/admin/sweep');
      expect(over.body).toMatchObject({ due: 0, overdue: expect.any(Number) });
      expect(over.body.overdue).toBeGreaterThanOrEqual(1);
      expect((await c.as('A', 'POST', '/finance/admin/sweep')).body).toEqual({ due: 0, overdue: 0 });
      const stats = await c.as('A', 'GET', '/finance/admin/stats?period=year');
      expect(stats.status).toBe(200);
      expect(stats.body).toMatchObject({ period: 'year', overdue: { count: expect.any(Number), total_amount: expect.any(String) }, top_debtors: expect.arrayContaining([expect.objectContaining({ tenant_id: c.ids.B, tenant_name: 'Level B Traders', level: 1 })]) });
      expect(stats.body.overdue.count).toBeGreaterThanOrEqual(1);
    } finally {
      c.host.clock.reset();
    }
  });
});

describe('spec 1 screens: the chain-order and wallet screens serve their data to each level', () => {
  test('list, detail and timeline of a chain order, and the wallet with what is pending', async () => {
    const list = await c.as('D', 'GET', `/mobile/screens/reseller_orders.list/data/orders?search=${d.orderNumber}`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(d.orderNumber);
    const timeline = await c.as('D', 'GET', `/mobile/screens/reseller_orders.detail/data/timeline?id=${d.order}`);
    expect(timeline.status).toBe(200);
    expect(JSON.stringify(timeline.body)).toContain('delivered');
    const wallet = await c.as('C', 'GET', '/mobile/screens/reseller_finance.wallet/data/wallet');
    expect(wallet.status).toBe(200);
    expect(JSON.stringify(wallet.body)).toContain('credit_limit');
    expect((await c.as('C', 'GET', '/mobile/screens/reseller_finance.wallet/data/to_receive')).status).toBe(200);
  });
});

describe('spec 2 Tools and spec 1 GraphQL: ResellerOrders 4, ResellerFinance 2, 3 of ResellerAdmin\'s 8; fields for chain orders and the wallet', () => {
  test('the AI tool list offers exactly those operations, nothing internal', async () => {
    const res = await c.host.request('GET', '/ai/agent/tools');
    expect(res.status).toBe(200);
    const of = (module: string) => res.body.data.filter((t: { module: string }) => t.module === module).map((t: { name: string }) => t.name).sort();
    expect(of('reseller_orders')).toEqual(['reseller_orders.get', 'reseller_orders.get_stats', 'reseller_orders.get_timeline', 'reseller_orders.list']);
    expect(of('reseller_finance')).toEqual(['reseller_finance.get_admin_stats', 'reseller_finance.get_pending_settlements', 'reseller_finance.get_wallet', 'reseller_finance.run_sweep', 'reseller_finance.set_credit_limit']);
  });

  test('D reads its chain orders and its wallet through GraphQL, as over REST', async () => {
    const query = `{ reseller_orders_get_stats(input: {}) reseller_orders_get(input: {id: "${d.order}"}) reseller_finance_get_wallet(input: {}) }`;
    const res = await c.as('D', 'POST', '/graphql', { query });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.reseller_orders_get.order).toMatchObject({ id: d.order, chain_status: 'delivered' });
    expect(res.body.data.reseller_orders_get_stats.stats.delivered).toBeGreaterThanOrEqual(1);
    expect(res.body.data.reseller_finance_get_wallet.wallet).toEqual((await c.as('D', 'GET', '/finance/wallet')).body.wallet);
  });
});
