/**
 * Issue 3, item 7: the example third-party module, built only with the SDK, run by createTestHost
 * in the real sandbox with the real bus, job queue and PostgreSQL.
 */
import type { TestHost } from '../../../sdk/testing';
import { startHost } from './support';

type Balance = { customer_id: string; points: number };
type Entries = { customer_id: string; entries: Array<{ id: string; order_id: string | null; points: number; reason: string; created_at: string }> };

let host: TestHost;

beforeAll(async () => {
  host = await startHost();
});

afterAll(async () => {
  await host?.close();
});

const balance = (customer: string) => host.call<Balance>('loyalty.get_balance', { customer_id: customer });
const entries = (customer: string, limit?: number) =>
  host.call<Entries>('loyalty.list_entries', { customer_id: customer, ...(limit === undefined ? {} : { limit }) });

/** Waits until the customer's balance is exactly `points`. */
const balanceBecomes = (customer: string, points: number) =>
  host.eventually(async () => {
    const b = await balance(customer);
    expect(b).toEqual({ customer_id: customer, points });
    return b;
  });

describe('issue 3 item 7 / DESIGN.md Bus, Events: order.created awards points, at least once', () => {
  it('awards one point per whole currency unit of the decimal total', async () => {
    await host.emit('order.created', { id: 'o-100', customer_id: 'ev-1', total: '123.99' });
    await balanceBecomes('ev-1', 123);
    const { entries: list } = await entries('ev-1');
    expect(list).toEqual([{ id: expect.any(String), order_id: 'o-100', points: 123, reason: 'order', created_at: expect.any(String) }]);
  });

  it('reads the integer part of the string, never through a float (no rounding up, no 0.1 + 0.2 drift)', async () => {
    // As JavaScript numbers, 9007199.99999999999 rounds to 9007200; the string's integer part is 9007199.
    await host.emit('order.created', { id: 'o-101', customer_id: 'ev-2', total: '9007199.99999999999' });
    await host.emit('order.created', { id: 'o-102', customer_id: 'ev-2', total: '0.30' });
    await host.emit('order.created', { id: 'o-103', customer_id: 'ev-2', total: '007.5' });
    await balanceBecomes('ev-2', 9007199 + 0 + 7);
    // o-102's entry of 0 points leaves the balance as it was: wait for the entries themselves.
    const all = await host.eventually(async () => {
      const list = (await entries('ev-2')).entries;
      expect(list).toHaveLength(3);
      return list;
    });
    expect(all.map((e) => [e.order_id, e.points]).sort()).toEqual([
      ['o-101', 9007199],
      ['o-102', 0],
      ['o-103', 7],
    ]);
  });

  it('a duplicate delivery of the same order awards once', async () => {
    const payload = { id: 'o-200', customer_id: 'dup-1', total: '50.00' };
    const first = await host.emit('order.created', payload);
    expect(await host.delivery(first, 'loyalty')).toBe('completed');
    await balanceBecomes('dup-1', 50);

    const again = await host.emit('order.created', payload);
    expect(await host.delivery(again, 'loyalty')).toBe('completed');
    expect(await balance('dup-1')).toEqual({ customer_id: 'dup-1', points: 50 });
    expect((await entries('dup-1')).entries).toHaveLength(1);
  });

  it('the same order delivered several times at once still awards once (unique order_id, retried race)', async () => {
    const payload = { id: 'o-300', customer_id: 'dup-2', total: '75.10' };
    const ids = await Promise.all(Array.from({ length: 6 }, () => host.emit('order.created', payload)));
    for (const id of ids) expect(await host.delivery(id, 'loyalty')).toBe('completed');
    expect(await balance('dup-2')).toEqual({ customer_id: 'dup-2', points: 75 });
    expect((await entries('dup-2')).entries).toHaveLength(1);
  });

  it('different orders of one customer arriving together all count (no lost update)', async () => {
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) => host.emit('order.created', { id: `o-40${i}`, customer_id: 'many-1', total: '10.00' })),
    );
    for (const id of ids) expect(await host.delivery(id, 'loyalty')).toBe('completed');
    expect(await balance('many-1')).toEqual({ customer_id: 'many-1', points: 80 });
  });

  it('a malformed event is dropped without points and without failing the delivery', async () => {
    const id = await host.emit('order.created', { id: 'o-500', customer_id: 'bad-1', total: 12.5 });
    expect(await host.delivery(id, 'loyalty')).toBe('completed');
    expect(await balance('bad-1')).toEqual({ customer_id: 'bad-1', points: 0 });
    expect((await entries('bad-1')).entries).toEqual([]);
  });
});

describe('issue 3 item 7 / DESIGN.md Data: loyalty.redeem is atomic in host.db.transaction and never goes below zero', () => {
  beforeAll(async () => {
    await host.emit('order.created', { id: 'o-600', customer_id: 'r-1', total: '100.00' });
    await balanceBecomes('r-1', 100);
  });

  it('redeems and records a negative ledger entry', async () => {
    const out = await host.call<{ customer_id: string; points: number; entry_id: string }>('loyalty.redeem', {
      customer_id: 'r-1',
      points: 30,
      reason: 'voucher',
    });
    expect(out).toEqual({ customer_id: 'r-1', points: 70, entry_id: expect.any(String) });
    expect(await balance('r-1')).toEqual({ customer_id: 'r-1', points: 70 });
    const { entries: list } = await entries('r-1');
    expect(list[0]).toMatchObject({ id: out.entry_id, order_id: null, points: -30, reason: 'voucher' });
  });

  it('refuses to go below zero with INSUFFICIENT_POINTS {status 422, available} and changes nothing', async () => {
    await expect(host.call('loyalty.redeem', { customer_id: 'r-1', points: 71, reason: 'too much' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_POINTS',
      status: 422,
      details: { status: 422, available: 70, requested: 71 },
    });
    await expect(host.call('loyalty.redeem', { customer_id: 'nobody', points: 1, reason: 'x' })).rejects.toMatchObject({
      code: 'INSUFFICIENT_POINTS',
      details: { available: 0 },
    });
    expect(await balance('r-1')).toEqual({ customer_id: 'r-1', points: 70 });
    expect((await entries('r-1')).entries).toHaveLength(2);
  });

  it('concurrent redemptions never spend more than the balance', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => host.call('loyalty.redeem', { customer_id: 'r-1', points: 10, reason: 'race' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(7);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'INSUFFICIENT_POINTS' });
    expect(await balance('r-1')).toEqual({ customer_id: 'r-1', points: 0 });
  });

  it('the bus validates input against module.json before the handler runs', async () => {
    await expect(host.call('loyalty.redeem', { customer_id: 'r-1', points: 0, reason: 'zero' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      status: 422,
    });
    await expect(host.call('loyalty.redeem', { customer_id: 'r-1', points: 1.5, reason: 'fraction' })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('issue 3 item 6 / DESIGN.md How a request flows: http.routes with permission checks', () => {
  beforeAll(async () => {
    await host.emit('order.created', { id: 'o-700', customer_id: 'h-1', total: '40.00' });
    await balanceBecomes('h-1', 40);
  });

  it('GET /loyalty/customers/:customer_id/balance answers the balance', async () => {
    expect(await host.request('GET', '/loyalty/customers/h-1/balance')).toEqual({ status: 200, body: { customer_id: 'h-1', points: 40 } });
  });

  it('GET …/entries passes the query string as input, coerced to the schema (limit=1)', async () => {
    await host.call('loyalty.redeem', { customer_id: 'h-1', points: 5, reason: 'coffee' });
    const res = await host.request('GET', '/loyalty/customers/h-1/entries?limit=1');
    expect(res.status).toBe(200);
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({ points: -5, reason: 'coffee' });
  });

  it('POST …/redeem redeems (201) and answers INSUFFICIENT_POINTS with status 422 and the error body', async () => {
    const ok = await host.request('POST', '/loyalty/customers/h-1/redeem', { points: 10, reason: 'gift' });
    expect(ok).toEqual({ status: 201, body: { customer_id: 'h-1', points: 25, entry_id: expect.any(String) } });

    const refused = await host.request('POST', '/loyalty/customers/h-1/redeem', { points: 26, reason: 'gift' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: 'Customer h-1 has 25 points; 26 are needed.',
      code: 'INSUFFICIENT_POINTS',
      // HTTP details carry no internal status (DESIGN Conventions): the answer's status says it.
      details: { available: 25, requested: 26 },
    });
  });

  it('the path parameter wins over a customer_id in the body', async () => {
    const res = await host.request('POST', '/loyalty/customers/h-1/redeem', { customer_id: 'someone-else', points: 1, reason: 'x' });
    expect(res.body).toMatchObject({ customer_id: 'h-1', points: 24 });
  });

  it('a member holding only loyalty.view reads balances but may not redeem (403)', async () => {
    const token = await host.memberWith('loyalty-viewer', ['loyalty.view']);
    expect(await host.requestAs(token, 'GET', '/loyalty/customers/h-1/balance')).toEqual({ status: 200, body: { customer_id: 'h-1', points: 24 } });
    const refused = await host.requestAs(token, 'POST', '/loyalty/customers/h-1/redeem', { points: 1, reason: 'x' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'loyalty.redeem' } });
    expect(await balance('h-1')).toEqual({ customer_id: 'h-1', points: 24 });
  });

  it('a member without loyalty.view gets 403 on the balance', async () => {
    const token = await host.memberWith('no-loyalty', ['orders.view']);
    const res = await host.requestAs(token, 'GET', '/loyalty/customers/h-1/balance');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'loyalty.view' } });
  });
});
