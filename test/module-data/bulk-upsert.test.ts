/**
 * Issue 9 item 2 (bulk CSV import) needs many rows upserted per statement: host.db
 * `bulkCreate(model, rows, { upsert: { conflictFields, updateFields? } })` is one multi-row
 * INSERT … ON CONFLICT … DO UPDATE, in one transaction with the rest of a chunk.
 */
import type { DbBridge } from '../../core/kernel/module-data';
import { installLoyalty, rejection, startHarness, type Harness } from './support';

const ALIAS = 'md_bulk_upsert';
const REF = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('issue 9 / DESIGN.md Data: host.db bulkCreate with upsert', () => {
  let h: Harness;
  let db: DbBridge;

  beforeAll(async () => {
    h = startHarness();
    db = (await installLoyalty(h, ALIAS)).bridge('invocation-1');
  });
  afterAll(() => h.close());

  test('inserts new rows and updates existing ones on a unique column set, returning rows in input order', async () => {
    await db('bulkCreate', ['Points', [{ ref: REF(1), customer: 'ada', amount: '1.00' }, { ref: REF(2), customer: 'bob', amount: '2.00' }]]);
    const rows = (await db('bulkCreate', [
      'Points',
      [{ ref: REF(3), customer: 'cy', amount: '3.00' }, { ref: REF(1), customer: 'ada', amount: '10.00', note: 'changed' }],
      { upsert: { conflictFields: ['ref'] } },
    ])) as Array<{ id: string; ref: string; amount: string; note: string | null }>;
    expect(rows.map((r) => [r.ref, r.amount, r.note])).toEqual([[REF(3), '3.00', null], [REF(1), '10.00', 'changed']]);
    const stored = (await db('find', ['Points', { order: [['ref', 'ASC']] }])) as Array<{ ref: string; amount: string }>;
    expect(stored.map((r) => [r.ref, r.amount])).toEqual([[REF(1), '10.00'], [REF(2), '2.00'], [REF(3), '3.00']]);
  });

  test('updates only updateFields when given; a primary key works as the conflict set', async () => {
    await db('bulkCreate', ['Reward', [{ code: 'A', title: 'Mug', cost: '5.00' }]]);
    await db('bulkCreate', ['Reward', [{ code: 'A', title: 'Cup', cost: '9.00' }, { code: 'B', title: 'Pen', cost: '1.00' }], { upsert: { conflictFields: ['code'], updateFields: ['cost'] } }]);
    const rewards = (await db('find', ['Reward', { order: [['code', 'ASC']] }])) as Array<{ code: string; title: string; cost: string }>;
    expect(rewards).toEqual([{ code: 'A', title: 'Mug', cost: '9.00' }, { code: 'B', title: 'Pen', cost: '1.00' }]);
  });

  test('returning: [columns] gives only those columns, returning: false only the count (mixed column sets take the ORM path alike)', async () => {
    const some = await db('bulkCreate', ['Points', [{ ref: REF(4), customer: 'dee' }, { ref: REF(5), customer: 'eve' }], { returning: ['ref'] }]);
    expect(some).toEqual([{ ref: REF(4) }, { ref: REF(5) }]);
    expect(await db('bulkCreate', ['Points', [{ customer: 'fay' }, { customer: 'gus' }], { returning: false }])).toBe(2);
    expect(await db('bulkCreate', ['Points', [{ customer: 'hal' }, { customer: 'ivy', note: 'mixed' }], { returning: false }])).toBe(2);
    const mixed = (await db('find', ['Points', { where: { customer: ['hal', 'ivy'] }, order: [['customer', 'ASC']] }])) as Array<{ amount: string; level: number; note: string | null }>;
    expect(mixed.map((r) => [r.amount, r.level, r.note])).toEqual([['0.00', 1, null], ['0.00', 1, 'mixed']]); // defaults filled either way
    await db('destroy', ['Points', { where: { customer: ['dee', 'eve', 'fay', 'gus', 'hal', 'ivy'] } }]);
  });

  test('is all or nothing inside a transaction', async () => {
    const tx = (await db('tx.begin', [])) as string;
    await db('bulkCreate', ['Reward', [{ code: 'C', title: 'Cap' }, { code: 'A', title: 'Mug', cost: '7.00' }], { upsert: { conflictFields: ['code'] } }], tx);
    await db('tx.rollback', [tx]);
    const rewards = (await db('find', ['Reward', { order: [['code', 'ASC']] }])) as Array<{ code: string; cost: string }>;
    expect(rewards.map((r) => [r.code, r.cost])).toEqual([['A', '9.00'], ['B', '1.00']]);
  });

  test('an $in list of up to 1000 values counts as one where condition (a chunk looks its rows up in one query)', async () => {
    const refs = Array.from({ length: 1000 }, (_, i) => REF(i + 1));
    expect(await db('count', ['Points', { where: { ref: { $in: refs } } }])).toBe(3);
    const err = await rejection(db('count', ['Points', { where: { ref: { $in: [...refs, REF(1001)] } } }]));
    expect(err.message).toMatch(/lists more than 1000 values/);
  });

  test.each([
    ['a non-unique conflict set', ['Points', [{ customer: 'x' }], { upsert: { conflictFields: ['customer'] } }], /must be the primary key or a unique column set/],
    ['a key twice in one call', ['Reward', [{ code: 'Z', title: 'a' }, { code: 'Z', title: 'b' }], { upsert: { conflictFields: ['code'] } }], /rows 0 and 1 have the same code/],
    ['a row without its key', ['Reward', [{ title: 'a' }], { upsert: { conflictFields: ['code'] } }], /must include code/],
    ['an unknown option', ['Reward', [{ code: 'Q', title: 'a' }], { upsert: { conflictFields: ['code'], where: {} } }], /Unknown upsert option "where"/],
    ['an unknown column to update', ['Reward', [{ code: 'Q', title: 'a' }], { upsert: { conflictFields: ['code'], updateFields: ['nope'] } }], /nope/],
    ['options of the wrong shape', ['Reward', [{ code: 'Q', title: 'a' }], { conflictFields: ['code'] }], /bulkCreate options must be/],
    ['returning an unknown column', ['Reward', [{ code: 'Q', title: 'a' }], { returning: ['nope'] }], /nope/],
  ])('refuses %s with DB_INVALID_QUERY before touching the database', async (_name, args, message) => {
    const err = await rejection(db('bulkCreate', args as unknown[]));
    expect(err).toMatchObject({ code: 'DB_INVALID_QUERY', status: 422 });
    expect(err.message).toMatch(message);
  });
});
