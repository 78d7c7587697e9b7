/**
 * Issue 9 item 6 (filterable custom fields) needs host.db to match inside json columns: the
 * `$contains` operator is PostgreSQL JSONB containment (`column @> operand`), on json columns only.
 */
import type { DbBridge } from '../../core/kernel/module-data';
import { installLoyalty, rejection, startHarness, type Harness } from './support';

const ALIAS = 'md_contains';

describe('issue 9 item 6 / DESIGN.md Data: host.db $contains on json columns', () => {
  let h: Harness;
  let db: DbBridge;

  const customers = async (where: unknown) =>
    ((await db('find', ['Points', { where, order: [['customer', 'ASC']] }])) as Array<{ customer: string }>).map((r) => r.customer);

  beforeAll(async () => {
    h = startHarness();
    db = (await installLoyalty(h, ALIAS)).bridge('invocation-1');
    await db('bulkCreate', [
      'Points',
      [
        { customer: 'ada', meta: { channel: 'web', priority: 3, gift: true, tags: ['vip', 'new'], address: { city: 'Pune' } } },
        { customer: 'bob', meta: { channel: 'store', priority: 3.0, gift: false, tags: ['new'] } },
        { customer: 'cy', meta: { channel: 'web', priority: 30, gift: 'true' } },
        { customer: 'dee', meta: null },
        { customer: 'eve', meta: ['web', 'store'] },
      ],
    ]);
  });
  afterAll(() => h.close());

  test('matches keys and values with their JSON types, nested objects and array elements', async () => {
    expect(await customers({ meta: { $contains: { channel: 'web' } } })).toEqual(['ada', 'cy']);
    expect(await customers({ meta: { $contains: { priority: 3 } } })).toEqual(['ada', 'bob']); // 3 and 3.0 are one number; 30 is not
    expect(await customers({ meta: { $contains: { gift: true } } })).toEqual(['ada']); // the string "true" is not the boolean
    expect(await customers({ meta: { $contains: { tags: ['vip'] } } })).toEqual(['ada']);
    expect(await customers({ meta: { $contains: { address: { city: 'Pune' } } } })).toEqual(['ada']);
    expect(await customers({ meta: { $contains: { channel: 'web', priority: 30 } } })).toEqual(['cy']);
    expect(await customers({ meta: { $contains: ['store'] } })).toEqual(['eve']);
    expect(await customers({ meta: { $contains: {} } })).toEqual(['ada', 'bob', 'cy']); // every object contains {}; null and arrays do not
  });

  test('combines with other conditions, $or and $not, and works in count, update and destroy', async () => {
    expect(await customers({ $or: [{ meta: { $contains: { channel: 'store' } } }, { customer: 'dee' }] })).toEqual(['bob', 'dee']);
    expect(await customers({ customer: { $ne: 'ada' }, meta: { $contains: { tags: ['new'] } } })).toEqual(['bob']);
    expect(await customers({ $not: { meta: { $contains: { channel: 'web' } } }, meta: { $not: null } })).toEqual(['bob', 'eve']);
    expect(await db('count', ['Points', { where: { meta: { $contains: { channel: 'web' } } } }])).toBe(2);
    expect(await db('update', ['Points', { note: 'web order' }, { where: { meta: { $contains: { channel: 'web' } } } }])).toBe(2);
    const noted = (await db('find', ['Points', { where: { note: 'web order' }, order: [['customer', 'ASC']] }])) as Array<{ customer: string }>;
    expect(noted.map((r) => r.customer)).toEqual(['ada', 'cy']);
    await db('create', ['Points', { customer: 'tmp', meta: { channel: 'temp' } }]);
    expect(await db('destroy', ['Points', { where: { meta: { $contains: { channel: 'temp' } } } }])).toBe(1);
  });

  test('quotes in keys and values are data, never SQL', async () => {
    const hostile = { "channel' OR '1'='1": "x'); DROP TABLE points; --" };
    expect(await customers({ meta: { $contains: hostile } })).toEqual([]);
    await db('create', ['Points', { customer: 'quoted', meta: hostile }]);
    expect(await customers({ meta: { $contains: hostile } })).toEqual(['quoted']);
    expect(await db('count', ['Points'])).toBe(6);
  });

  test.each([
    ['on a non-json column', { customer: { $contains: { a: 1 } } }, /\$contains applies to json columns only, not "customer"/],
    ['with a scalar operand', { meta: { $contains: 'web' } }, /\$contains on "meta" needs a JSON object or array/],
    ['with a null operand', { meta: { $contains: null } }, /\$contains on "meta" needs a JSON object or array/],
    ['with an oversized operand', { meta: { $contains: { note: 'x'.repeat(10_001) } } }, /longer than 10000 characters/],
    ['a json column compared by value', { meta: { channel: 'web' } }, /can only be compared with null \(\$is \/ \$not\) or matched with \$contains/],
  ])('refuses $contains %s with DB_INVALID_QUERY', async (_name, where, message) => {
    const err = await rejection(db('find', ['Points', { where }]));
    expect(err).toMatchObject({ code: 'DB_INVALID_QUERY', status: 422 });
    expect(err.message).toMatch(message);
  });
});
