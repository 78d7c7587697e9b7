/**
 * What the catalog guards on the chain (A → B → C → D, support.ts): a product marked unavailable
 * for a sub-reseller never enters the chain from it nor moves on from it (spec 3, Reseller product
 * pricing: is_available), and a master product that open chain orders hold cannot be deleted (spec 3,
 * Master product). Each test has a product of its own, so stock counts are exact.
 */
import { addProduct, admins, copyAt, placeOrder, startChain, type Chain, type Level } from './support';

let c: Chain;
let chain: Chain;
beforeAll(async () => {
  chain = await startChain();
  // Each request goes as the next of four admins of its level: these tests write more than one user's 30 a minute.
  const pool = {} as Record<Level, string[]>;
  for (const level of ['A', 'B', 'C', 'D', 'S'] as const) pool[level] = await admins(chain, level, 4, 'guard');
  let turn = 0;
  c = { ...chain, as: (level, method, p, body, token) => chain.as(level, method, p, body, token ?? pool[level][turn++ % 4]) };
}, 240_000);
afterAll(() => chain?.host.close());

const PATH: Level[] = ['D', 'C', 'B', 'A'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A chain order of one `sku` made at D and forwarded up until it waits (pending_forward) at `at`. */
async function pendingAt(sku: string, at: Level) {
  const order = await placeOrder(c, 'D', 'Asha Rao', true, sku);
  const made = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
  if (made.status !== 201) throw new Error(`create: ${made.status} ${JSON.stringify(made.body)}`);
  for (const level of PATH.slice(0, PATH.indexOf(at))) {
    const r = await c.as(level, 'POST', `/chain-orders/${(await copyAt(c, level, order.order_number))!.id}/forward`);
    if (r.status !== 200) throw new Error(`forward at ${level}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return { order, copy: (await copyAt(c, at, order.order_number))! };
}

/** The parent sets is_available of a product for its direct sub-reseller (margin 10%, as support.ts priced it). */
async function mark(parent: Level, child: Level, productId: string, available: boolean) {
  const r = await c.as(parent, 'POST', '/reseller-catalog/pricing/set', { product_id: productId, sub_reseller_id: c.ids[child], margin_percent: 10, is_available: available });
  if (r.status !== 200) throw new Error(`pricing/set at ${parent}: ${r.status} ${JSON.stringify(r.body)}`);
}

const stock = async (id: string) => (await c.as('A', 'GET', `/reseller-catalog/master-products/${id}`)).body.product.stock_quantity as number;

const unavailable = (level: Level, depth: number, product: { id: string; sku: string }) => ({
  error: expect.any(String),
  code: 'PRODUCT_UNAVAILABLE',
  details: { tenant_id: c.ids[level], level: depth, products: [{ product_id: product.id, sku: product.sku }] },
});

describe('spec 3, Reseller product pricing (is_available) and Chain order: a product unavailable for a sub-reseller never enters the chain from it', () => {
  test('at order creation: C marked it unavailable for D, so D\'s order is refused with PRODUCT_UNAVAILABLE naming the product and D\'s level; no chain order is made, by the route or by order.created', async () => {
    const product = await addProduct(c, 'AV-CREATE', 10);
    await mark('C', 'D', product.id, false);
    const order = await placeOrder(c, 'D', 'Asha Rao', true, product.sku);
    const made = await c.as('D', 'POST', '/chain-orders', { order_id: order.id });
    expect(made.status).toBe(422);
    expect(made.body).toEqual(unavailable('D', 3, product));
    await sleep(1500); // order.created is handled through the queue: give it the time to (not) make one
    expect(await copyAt(c, 'D', order.order_number)).toBeUndefined();
    expect(await stock(product.id)).toBe(10);
  });

  test('at a forward: B marks it unavailable for C while the order waits at C; the forward is refused, the copy stays pending_forward at C and B holds none; made available again it goes on', async () => {
    const product = await addProduct(c, 'AV-FWD', 10);
    const { order, copy } = await pendingAt(product.sku, 'C');
    await mark('B', 'C', product.id, false);
    const fwd = await c.as('C', 'POST', `/chain-orders/${copy.id}/forward`);
    expect(fwd.status).toBe(422);
    expect(fwd.body).toEqual(unavailable('C', 2, product));
    expect((await copyAt(c, 'C', order.order_number))!.chain_status).toBe('pending_forward');
    expect(await copyAt(c, 'B', order.order_number)).toBeUndefined();
    await mark('B', 'C', product.id, true);
    expect((await c.as('C', 'POST', `/chain-orders/${copy.id}/forward`)).status).toBe(200);
    expect((await copyAt(c, 'B', order.order_number))!.chain_status).toBe('pending_forward');
  });

  test('at a forward from the origin: C marks it unavailable for D after D made its order; C refuses to receive it, and D\'s copy is back to pending_forward', async () => {
    const product = await addProduct(c, 'AV-ORIGIN', 10);
    const { order, copy } = await pendingAt(product.sku, 'D');
    await mark('C', 'D', product.id, false);
    const fwd = await c.as('D', 'POST', `/chain-orders/${copy.id}/forward`);
    expect(fwd.status).toBe(422);
    expect(fwd.body).toEqual(unavailable('D', 3, product));
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('pending_forward');
    expect(await copyAt(c, 'C', order.order_number)).toBeUndefined();
  });

  test('the level holding the order checks for the level below it: C marks it unavailable for D after taking D\'s order; C\'s forward is refused naming D', async () => {
    const product = await addProduct(c, 'AV-HOLD', 10);
    const { order, copy } = await pendingAt(product.sku, 'C');
    await mark('C', 'D', product.id, false);
    const fwd = await c.as('C', 'POST', `/chain-orders/${copy.id}/forward`);
    expect(fwd.status).toBe(422);
    expect(fwd.body).toEqual(unavailable('D', 3, product));
    expect((await copyAt(c, 'C', order.order_number))!.chain_status).toBe('pending_forward');
    expect(await copyAt(c, 'B', order.order_number)).toBeUndefined();
  });

  test('at the top: A marks it unavailable for B while the order waits at A; accept is refused and reserves no stock; made available again it is accepted', async () => {
    const product = await addProduct(c, 'AV-TOP', 10);
    const { order, copy } = await pendingAt(product.sku, 'A');
    await mark('A', 'B', product.id, false);
    const accepted = await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`);
    expect(accepted.status).toBe(422);
    expect(accepted.body).toEqual(unavailable('B', 1, product));
    expect(await stock(product.id)).toBe(10);
    expect((await copyAt(c, 'A', order.order_number))!.chain_status).toBe('pending_forward');
    expect((await copyAt(c, 'D', order.order_number))!.chain_status).toBe('forwarded');
    await mark('A', 'B', product.id, true);
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`)).status).toBe(200);
    expect(await stock(product.id)).toBe(9);
  });
});

describe('spec 3, Reseller product pricing (is_available) under concurrency: a mark racing the orders lets none slip through', () => {
  test('accepts at the top racing A marking it unavailable for B: every accept sent after the mark answered is refused, and the stock moved by exactly the accepted orders', async () => {
    const product = await addProduct(c, 'AV-RACE-TOP', 100);
    const waiting = [];
    for (let i = 0; i < 7; i++) waiting.push(await pendingAt(product.sku, 'A'));
    const spare = waiting.pop()!; // accepted only once the mark has answered
    let markedAt = Number.POSITIVE_INFINITY;
    const marking = sleep(20).then(() => mark('A', 'B', product.id, false)).then(() => { markedAt = Date.now(); });
    const answers = await Promise.all(
      waiting.map(async ({ copy }, i) => {
        await sleep(i * 25);
        const sentAt = Date.now();
        return { copy, sentAt, res: await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`) };
      }),
    );
    await marking;
    expect((await c.as('A', 'POST', `/chain-orders/${spare.copy.id}/accept`)).body).toEqual(unavailable('B', 1, product));
    let taken = 0;
    for (const { copy, sentAt, res } of answers) {
      if (res.status === 200) {
        taken++;
        expect(sentAt).toBeLessThan(markedAt);
        expect((await c.as('A', 'GET', `/chain-orders/${copy.id}`)).body.order.chain_status).toBe('accepted');
      } else {
        expect(res.body).toEqual(unavailable('B', 1, product));
        expect((await c.as('A', 'GET', `/chain-orders/${copy.id}`)).body.order.chain_status).toBe('pending_forward');
      }
    }
    expect(await stock(product.id)).toBe(100 - taken);
  }, 120_000);

  test('forwards at C racing B marking it unavailable for C: every forward sent after the mark answered is refused; a refused order stays at C, a forwarded one is at B', async () => {
    const product = await addProduct(c, 'AV-RACE-FWD', 100);
    const waiting = [];
    for (let i = 0; i < 6; i++) waiting.push(await pendingAt(product.sku, 'C'));
    const spare = waiting.pop()!; // forwarded only once the mark has answered
    let markedAt = Number.POSITIVE_INFINITY;
    const marking = sleep(20).then(() => mark('B', 'C', product.id, false)).then(() => { markedAt = Date.now(); });
    const answers = await Promise.all(
      waiting.map(async ({ order, copy }, i) => {
        await sleep(i * 25);
        const sentAt = Date.now();
        return { order, sentAt, res: await c.as('C', 'POST', `/chain-orders/${copy.id}/forward`) };
      }),
    );
    await marking;
    expect((await c.as('C', 'POST', `/chain-orders/${spare.copy.id}/forward`)).body).toEqual(unavailable('C', 2, product));
    for (const { order, sentAt, res } of answers) {
      if (res.status === 200) {
        expect(sentAt).toBeLessThan(markedAt);
        expect((await copyAt(c, 'B', order.order_number))!.chain_status).toBe('pending_forward');
      } else {
        expect(res.body).toEqual(unavailable('C', 2, product));
        expect((await copyAt(c, 'C', order.order_number))!.chain_status).toBe('pending_forward');
        expect(await copyAt(c, 'B', order.order_number)).toBeUndefined();
      }
    }
  }, 120_000);
});

describe('spec 3, Master product: a product that open chain orders hold cannot be deleted', () => {
  test('an accepted order holds it: DELETE is 409 PRODUCT_IN_USE naming the open chain order, through shipping; once delivered it can be deleted', async () => {
    const product = await addProduct(c, 'DEL-HELD', 5);
    const { order, copy } = await pendingAt(product.sku, 'A');
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`)).status).toBe(200);
    const refused = await c.as('A', 'DELETE', `/reseller-catalog/master-products/${product.id}`);
    expect(refused.status).toBe(409);
    const held = { error: expect.any(String), code: 'PRODUCT_IN_USE', details: { product_id: product.id, sku: product.sku, orders: [{ reference: expect.any(String), order_number: order.order_number, quantity: 1, reserved_at: expect.any(String) }] } };
    expect(refused.body).toEqual(held);
    expect(await stock(product.id)).toBe(4);
    expect((await c.as('D', 'GET', `/reseller-catalog/my-catalog/${product.id}`)).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/ship`, { tracking_number: 'DEL-1', carrier: 'Delhivery' })).status).toBe(200);
    const shipped = await c.as('A', 'DELETE', `/reseller-catalog/master-products/${product.id}`);
    expect(shipped.status).toBe(409);
    expect(shipped.body.details.orders).toEqual([expect.objectContaining({ order_number: order.order_number })]);
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/deliver`)).status).toBe(200);
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${product.id}`)).status).toBe(200);
    expect((await c.as('A', 'GET', `/reseller-catalog/master-products/${product.id}`)).status).toBe(404);
    expect((await c.as('D', 'GET', `/reseller-catalog/my-catalog/${product.id}`)).status).toBe(404);
  });

  test('the legitimate path: a product never ordered, or whose only accepted order was cancelled (stock given back), is deleted', async () => {
    const never = await addProduct(c, 'DEL-FREE', 5);
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${never.id}`)).body).toEqual({ message: expect.any(String) });
    expect((await c.as('A', 'GET', `/reseller-catalog/master-products/${never.id}`)).status).toBe(404);
    const cancelled = await addProduct(c, 'DEL-CANCELLED', 5);
    const { copy } = await pendingAt(cancelled.sku, 'A');
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`)).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${copy.id}/cancel`, { reason: 'customer called' })).status).toBe(200);
    expect(await stock(cancelled.id)).toBe(5);
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${cancelled.id}`)).status).toBe(200);
  });

  test('accepts racing a delete: either the delete is refused naming accepted orders, or it went through and no accepted order holds the product', async () => {
    const product = await addProduct(c, 'DEL-RACE', 50);
    const waiting = [];
    for (let i = 0; i < 5; i++) waiting.push(await pendingAt(product.sku, 'A'));
    const deleting = sleep(40).then(() => c.as('A', 'DELETE', `/reseller-catalog/master-products/${product.id}`));
    const answers = await Promise.all(
      waiting.map(async ({ order, copy }, i) => {
        await sleep(i * 20);
        return { order, res: await c.as('A', 'POST', `/chain-orders/${copy.id}/accept`) };
      }),
    );
    const del = await deleting;
    const accepted = answers.filter((a) => a.res.status === 200).map((a) => a.order.order_number);
    if (del.status === 200) {
      expect(accepted).toEqual([]);
      expect((await c.as('A', 'GET', `/reseller-catalog/master-products/${product.id}`)).status).toBe(404);
    } else {
      expect(del.status).toBe(409);
      expect(del.body.code).toBe('PRODUCT_IN_USE');
      const named = del.body.details.orders.map((o: { order_number: string }) => o.order_number);
      expect(named.length).toBeGreaterThan(0);
      for (const n of named) expect(accepted).toContain(n);
      expect(await stock(product.id)).toBe(50 - accepted.length);
    }
  }, 120_000);
});

describe('spec 3, Master product: reservations that orders finished before delivery closed them are closed by the repair', () => {
  test('a delivered and a cancelled order whose reservations were left open (rows as the old code left them) hold their products until close_finished_reservations runs; an open order keeps holding; a second run closes nothing', async () => {
    const delivered = await addProduct(c, 'OLD-DELIVERED', 5);
    const cancelled = await addProduct(c, 'OLD-CANCELLED', 5);
    const open = await addProduct(c, 'OLD-OPEN', 5);
    const d = await pendingAt(delivered.sku, 'A');
    for (const [step, body] of [['accept', undefined], ['ship', { tracking_number: 'OLD-1', carrier: 'Delhivery' }], ['deliver', undefined]] as const) expect((await c.as('A', 'POST', `/chain-orders/${d.copy.id}/${step}`, body)).status).toBe(200);
    const x = await pendingAt(cancelled.sku, 'A');
    expect((await c.as('A', 'POST', `/chain-orders/${x.copy.id}/accept`)).status).toBe(200);
    expect((await c.as('A', 'POST', `/chain-orders/${x.copy.id}/cancel`, { reason: 'customer called' })).status).toBe(200);
    const o = await pendingAt(open.sku, 'A');
    expect((await c.as('A', 'POST', `/chain-orders/${o.copy.id}/accept`)).status).toBe(200);
    // As the code before reservations were closed at delivery left them: reserved, and the copy not marked closed
    // (the cancelled one also with its stock still taken).
    await chain.host.arrange(async (sql) => {
      await sql(`UPDATE reseller_catalog.stock_reservations SET status = 'reserved' WHERE reference IN (SELECT chain_ref FROM reseller_orders.chain_orders WHERE id = ANY($1))`, [[d.copy.id, x.copy.id]]);
      await sql(`UPDATE reseller_catalog.master_products SET stock_quantity = 4 WHERE id = $1`, [cancelled.id]);
      await sql(`UPDATE reseller_orders.chain_orders SET stock_closed_at = NULL WHERE id = ANY($1)`, [[d.copy.id, x.copy.id]]);
    });
    for (const p of [delivered, cancelled, open]) expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${p.id}`)).body.code).toBe('PRODUCT_IN_USE');
    expect(await chain.host.runSchedule('close_finished_reservations')).toEqual({ closed: 2 });
    expect(await stock(cancelled.id)).toBe(5); // given back, as a cancel does
    expect(await stock(delivered.id)).toBe(4); // sold: the stock stays taken
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${delivered.id}`)).status).toBe(200);
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${cancelled.id}`)).status).toBe(200);
    expect((await c.as('A', 'DELETE', `/reseller-catalog/master-products/${open.id}`)).body.code).toBe('PRODUCT_IN_USE');
    expect(await chain.host.runSchedule('close_finished_reservations')).toEqual({ closed: 0 });
  }, 120_000);
});
