/**
 * DESIGN.md, Data ("transactions and atomic sequences") and issue 3, item 5 ("transactions, and
 * atomic named sequences (for gap-free numbering)"): explicit transactions bound to the invocation
 * that began them, rolled back when it ends or times out, and sequences with no gaps or duplicates.
 */
import { installLoyalty, LOYALTY_MODELS, rejection, startHarness, type Harness, type LoyaltyTenant } from './support';

const ALIAS = 'md_tx';

describe('DESIGN.md Data / issue 3 item 5: transactions and sequences', () => {
  let h: Harness;
  let loyalty: LoyaltyTenant;
  const bridge = (owner: string) => loyalty.bridge(owner);
  const codes = async () => ((await bridge('reader')('find', ['Reward', { order: [['code', 'ASC']] }])) as Array<{ code: string }>).map((r) => r.code);

  beforeAll(async () => {
    h = startHarness({ txTimeoutMs: 1500, maxOpenTransactionsPerOwner: 2 });
    loyalty = await installLoyalty(h, ALIAS);
  });
  afterEach(async () => {
    await bridge('cleanup')('destroy', ['Reward', { where: {} }]);
  });
  afterAll(() => h.close());

  test('a committed transaction is seen by others only after commit', async () => {
    const db = bridge('inv-commit');
    const tx = (await db('tx.begin', [])) as string;
    expect(tx).toMatch(/^tx_[0-9a-f-]{36}$/);
    await db('create', ['Reward', { code: 'a', title: 'A' }], tx);
    await db('create', ['Reward', { code: 'b', title: 'B' }], tx);
    expect(await db('count', ['Reward', {}], tx)).toBe(2);
    expect(await codes()).toEqual([]);
    await db('tx.commit', [], tx);
    expect(await codes()).toEqual(['a', 'b']);
    expect(await rejection(db('find', ['Reward', {}], tx))).toMatchObject({ code: 'DB_TX_CLOSED' });
  });

  test('a rolled-back transaction leaves nothing', async () => {
    const db = bridge('inv-rollback');
    const tx = (await db('tx.begin', [])) as string;
    await db('create', ['Reward', { code: 'gone', title: 'Gone' }], tx);
    await db('update', ['Reward', { title: 'x' }, { where: {} }], tx);
    await db('tx.rollback', [], tx);
    expect(await codes()).toEqual([]);
  });

  test('a refused query keeps the transaction usable; a failed statement rolls it back and says why', async () => {
    const db = bridge('inv-fail');
    const tx = (await db('tx.begin', [])) as string;
    await db('create', ['Reward', { code: 'a', title: 'A' }], tx);
    expect(await rejection(db('find', ['Reward', { where: { nope: 1 } }], tx))).toMatchObject({ code: 'DB_INVALID_QUERY' });
    await db('create', ['Reward', { code: 'b', title: 'B' }], tx);
    expect(await rejection(db('create', ['Reward', { code: 'a', title: 'again' }], tx))).toMatchObject({ code: 'DB_CONFLICT' });
    const after = await rejection(db('tx.commit', [], tx));
    expect(after).toMatchObject({ code: 'DB_TX_CLOSED' });
    expect(after.message).toMatch(/was rolled back because a statement in it failed \(duplicate key/);
    await db('tx.rollback', [], tx); // rolling back an ended transaction is harmless
    expect(await codes()).toEqual([]);
  });

  test('releaseAll rolls back what the invocation left open', async () => {
    const db = bridge('inv-release');
    const t1 = (await db('tx.begin', [])) as string;
    const t2 = (await db('tx.begin', [])) as string;
    await db('create', ['Reward', { code: 'l1', title: 'L1' }], t1);
    await db('create', ['Reward', { code: 'l2', title: 'L2' }], t2);
    expect(await h.data.releaseAll('inv-release')).toBe(2);
    expect(await h.data.releaseAll('inv-release')).toBe(0);
    expect(await codes()).toEqual([]);
    const err = await rejection(db('create', ['Reward', { code: 'l3', title: 'L3' }], t1));
    expect(err.message).toMatch(/rolled back because the call that began it ended/);
  });

  test('a transaction left open past the timeout is rolled back', async () => {
    const db = bridge('inv-timeout');
    const tx = (await db('tx.begin', [])) as string;
    await db('create', ['Reward', { code: 'slow', title: 'Slow' }], tx);
    await new Promise((r) => setTimeout(r, 2000));
    const err = await rejection(db('tx.commit', [], tx));
    expect(err).toMatchObject({ code: 'DB_TX_CLOSED' });
    expect(err.message).toMatch(/open longer than 1500 ms/);
    expect(await codes()).toEqual([]);
  });

  test('a transaction id works only for the invocation, module and tenant that began it', async () => {
    const mine = bridge('inv-owner');
    const tx = (await mine('tx.begin', [])) as string;
    const otherInvocation = await rejection(bridge('inv-other')('find', ['Reward', {}], tx));
    expect(otherInvocation).toMatchObject({ code: 'DB_TX_CLOSED', message: `Transaction ${tx} is not open.` });
    const otherModule = h.data.bridge(loyalty.id, 'md_other', LOYALTY_MODELS, 'inv-owner');
    expect(await rejection(otherModule('find', ['Reward', {}], tx))).toMatchObject({ code: 'DB_TX_CLOSED' });
    expect(await rejection(mine('find', ['Reward', {}], 'tx_made-up'))).toMatchObject({ code: 'DB_TX_CLOSED' });
    await mine('tx.rollback', [], tx);
  });

  test('an invocation may hold only so many transactions at once', async () => {
    const db = bridge('inv-many');
    await db('tx.begin', []);
    await db('tx.begin', []);
    expect(await rejection(db('tx.begin', []))).toMatchObject({ code: 'DB_TOO_MANY_TRANSACTIONS', status: 429 });
    await h.data.releaseAll('inv-many');
  });

  test('a statement waiting too long (here on a row lock) is cancelled with DB_TIMEOUT', async () => {
    const strict = startHarness({ statementTimeoutMs: 200 });
    try {
      const { bridge: strictBridge } = await installLoyalty(strict, ALIAS);
      const holder = strictBridge('holder');
      await holder('create', ['Reward', { code: 'k', title: 'K' }]);
      const tx = (await holder('tx.begin', [])) as string;
      await holder('update', ['Reward', { title: 'locked' }, { where: { code: 'k' } }], tx);
      const waiter = await rejection(strictBridge('waiter')('update', ['Reward', { title: 'mine' }, { where: { code: 'k' } }]));
      expect(waiter).toMatchObject({ code: 'DB_TIMEOUT', status: 504, message: 'The query took too long and was cancelled.' });
      await holder('tx.commit', [], tx);
      expect(await holder('findOne', ['Reward', { where: { code: 'k' } }])).toMatchObject({ title: 'locked' });
    } finally {
      await strict.close();
    }
  });

  test('sequence: 50 concurrent calls get 1..50, no duplicates, no gaps', async () => {
    const values = (await Promise.all(Array.from({ length: 50 }, (_, i) => bridge(`seq-${i}`)('sequence', ['invoice'])))) as number[];
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await bridge('seq-other')('sequence', ['receipt'])).toBe(1);
  });

  test('sequence is gap-free across rolled-back transactions, even when they race', async () => {
    const work = Array.from({ length: 16 }, async (_, i) => {
      const db = bridge(`race-${i}`);
      const tx = (await db('tx.begin', [])) as string;
      const n = (await db('sequence', ['order'], tx)) as number;
      await db('create', ['Reward', { code: `o${String(n).padStart(3, '0')}-${i}`, title: `Order ${n}` }], tx);
      await db(i % 2 ? 'tx.rollback' : 'tx.commit', [], tx);
    });
    await Promise.all(work);
    const kept = (await codes()).map((c) => Number(c.slice(1, 4)));
    expect(kept).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(await bridge('race-next')('sequence', ['order'])).toBe(9);
  });
});
