/**
 * DESIGN.md, Data ("A module reaches data only through host.db … find, count, create, update,
 * upsert, destroy"; "Money is numeric in PostgreSQL and a decimal string in JSON"; "Timestamps are
 * ISO 8601 UTC") and issue 3, item 5 (where-operators, order, limit/offset).
 */
import type { DbBridge } from '../../core/kernel/module-data';
import { installLoyalty, modulePackage, rejection, startHarness, type Harness } from './support';

const ALIAS = 'md_query';

describe('DESIGN.md Data / issue 3 item 5: host.db queries', () => {
  let h: Harness;
  let t: string;
  let db: DbBridge;

  const customers = (rows: unknown) => (rows as Array<{ customer: string }>).map((r) => r.customer);
  const find = async (where: unknown, extra: Record<string, unknown> = {}) => customers(await db('find', ['Points', { where, order: [['customer', 'ASC']], ...extra }]));

  beforeAll(async () => {
    h = startHarness({ maxLimit: 50, defaultLimit: 5 });
    const loyalty = await installLoyalty(h, ALIAS);
    t = loyalty.id;
    db = loyalty.bridge('invocation-1');
    await db('bulkCreate', [
      'Points',
      [
        { customer: 'ada', amount: '10.50', note: 'first', active: true, earned_on: '2025-01-10', level: 1, meta: { tags: ['vip'] } },
        { customer: 'bob', amount: '0.10', note: 'Second', active: false, earned_on: '2025-02-01', level: 2 },
        { customer: 'cy', amount: '0.20', active: true, earned_on: '2025-03-15', level: 3 },
        { customer: 'dee', amount: '99.99', note: 'fourth', level: 4, created_at: '2025-04-01T08:30:00+02:00' },
        { customer: 'eve', amount: '7', note: 'fifth', active: false, level: 5 },
      ],
    ]);
  });
  afterAll(() => h.close());

  test('create returns the stored row with database defaults, as JSON-safe values', async () => {
    const row = (await db('create', ['Points', { customer: 'zed', amount: '1.5' }])) as Record<string, unknown>;
    expect(row).toEqual({
      id: expect.stringMatching(/^\d+$/), // bigint travels as a string
      customer: 'zed',
      amount: '1.50', // numeric(12,2) as PostgreSQL prints it
      note: null,
      active: true,
      earned_on: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      meta: null,
      ref: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      level: 1,
    });
    expect(await db('destroy', ['Points', { where: { customer: 'zed' } }])).toBe(1);
  });

  test('bulkCreate fills what a row leaves out from the defaults, even when other rows set it', async () => {
    const rows = (await db('bulkCreate', ['Reward', [{ code: 'a', title: 'A', cost: '1.00' }, { code: 'b', title: 'B' }]])) as Array<Record<string, unknown>>;
    expect(rows).toEqual([
      { code: 'a', title: 'A', cost: '1.00' },
      { code: 'b', title: 'B', cost: null },
    ]);
    const [ada, dee] = (await db('find', ['Points', { where: { customer: ['ada', 'dee'] }, order: [['customer', 'ASC']] }])) as Array<Record<string, unknown>>;
    expect(ada.created_at).not.toBeNull();
    expect(dee.created_at).toBe('2025-04-01T06:30:00.000Z'); // stored in UTC
    expect(ada.meta).toEqual({ tags: ['vip'] });
    await db('destroy', ['Reward', { where: {} }]);
  });

  test('decimals round-trip exactly as strings and sum exactly in SQL', async () => {
    await db('create', ['Reward', { code: 'x1', title: 'X1', cost: '0.10' }]);
    await db('create', ['Reward', { code: 'x2', title: 'X2', cost: '0.20' }]);
    expect(await db('find', ['Reward', { where: { code: { $in: ['x1', 'x2'] } }, attributes: ['cost'] }])).toEqual([{ cost: '0.10' }, { cost: '0.20' }]);
    const [sum] = await h.sql<{ total: string }>(t, `SELECT sum(cost)::text AS total FROM ${ALIAS}."Reward" WHERE code IN ('x1', 'x2')`);
    expect(sum.total).toBe('0.30');
    expect(0.1 + 0.2).not.toBe(0.3); // what floats would have done
    const big = (await db('create', ['Reward', { code: 'x3', title: 'X3', cost: '12345678.99' }])) as { cost: string };
    expect(big.cost).toBe('12345678.99');
    const refused = await rejection(db('create', ['Reward', { code: 'x4', title: 'X4', cost: 0.3 }]));
    expect(refused).toMatchObject({ code: 'DB_INVALID_QUERY' });
    expect(refused.message).toMatch(/"cost" is decimal: expected a decimal string/);
    await db('destroy', ['Reward', { where: {} }]);
  });

  test('equality, null and array shorthands', async () => {
    expect(await find({ customer: 'bob' })).toEqual(['bob']);
    expect(await find({ note: null })).toEqual(['cy']);
    expect(await find({ level: [1, 3] })).toEqual(['ada', 'cy']);
    expect(await find({ active: false, level: 5 })).toEqual(['eve']);
  });

  test.each([
    ['$eq', { level: { $eq: 2 } }, ['bob']],
    ['$eq null', { note: { $eq: null } }, ['cy']],
    ['$ne', { level: { $ne: 2 } }, ['ada', 'cy', 'dee', 'eve']],
    ['$ne null', { note: { $ne: null } }, ['ada', 'bob', 'dee', 'eve']],
    ['$gt', { amount: { $gt: '10.5' } }, ['dee']],
    ['$gte', { amount: { $gte: '10.50' } }, ['ada', 'dee']],
    ['$lt', { amount: { $lt: '0.2' } }, ['bob']],
    ['$lte', { amount: { $lte: '0.20' } }, ['bob', 'cy']],
    ['$in', { customer: { $in: ['ada', 'eve', 'nobody'] } }, ['ada', 'eve']],
    ['$notIn', { customer: { $notIn: ['ada', 'eve'] } }, ['bob', 'cy', 'dee']],
    ['$like', { note: { $like: '%th' } }, ['dee', 'eve']],
    ['$iLike', { note: { $iLike: 's%' } }, ['bob']],
    ['$between', { earned_on: { $between: ['2025-01-15', '2025-03-15'] } }, ['bob', 'cy']],
    ['$between datetimes', { created_at: { $between: ['2025-04-01T06:00:00Z', '2025-04-01T07:00:00Z'] } }, ['dee']],
    ['$is null', { earned_on: { $is: null } }, ['dee', 'eve']],
    ['$is true', { active: { $is: true } }, ['ada', 'cy', 'dee']],
    ['$not null', { earned_on: { $not: null } }, ['ada', 'bob', 'cy']],
    ['$not true', { active: { $not: true } }, ['bob', 'eve']],
    ['$or', { $or: [{ customer: 'ada' }, { level: { $gte: 5 } }] }, ['ada', 'eve']],
    ['$and', { $and: [{ level: { $gt: 1 } }, { level: { $lt: 4 } }] }, ['bob', 'cy']],
    ['$not (where)', { $not: { customer: { $in: ['ada', 'bob'] } } }, ['cy', 'dee', 'eve']],
    ['$or on a column', { level: { $or: [{ $lt: 2 }, { $gt: 4 }] } }, ['ada', 'eve']],
    ['several operators on a column', { level: { $gt: 1, $lt: 5, $ne: 3 } }, ['bob', 'dee']],
    ['bigint as a string', { level: { $gte: 4 }, id: { $gt: '0' } }, ['dee', 'eve']],
  ])('where %s', async (_name, where, expected) => {
    expect(await find(where)).toEqual(expected);
  });

  test('order, limit, offset and attributes', async () => {
    expect(await find({}, { order: [['level', 'DESC']], limit: 2 })).toEqual(['eve', 'dee']);
    expect(await find({}, { order: [['level', 'desc']], limit: 2, offset: 2 })).toEqual(['cy', 'bob']);
    expect(await find({}, { order: [['active', 'ASC'], ['customer', 'DESC']] })).toEqual(['eve', 'bob', 'dee', 'cy', 'ada']);
    expect(await db('find', ['Points', { where: { customer: 'ada' }, attributes: ['customer', 'amount'] }])).toEqual([{ customer: 'ada', amount: '10.50' }]);
  });

  test('find applies the default limit and refuses a limit over the maximum', async () => {
    await db('bulkCreate', ['Reward', Array.from({ length: 8 }, (_, i) => ({ code: `r${i}`, title: `R${i}` }))]);
    expect(await db('find', ['Reward', {}])).toHaveLength(5);
    expect(await db('find', ['Reward', { limit: 8 }])).toHaveLength(8);
    const over = await rejection(db('find', ['Reward', { limit: 51 }]));
    expect(over).toMatchObject({ code: 'DB_INVALID_QUERY', status: 422, message: 'limit must be between 1 and 50, got 51.' });
    // Without an order, pages follow the primary key and never overlap.
    const pages = [...((await db('find', ['Reward', { limit: 4 }])) as []), ...((await db('find', ['Reward', { limit: 4, offset: 4 }])) as [])];
    expect(new Set(pages.map((r: { code: string }) => r.code)).size).toBe(8);
    await db('destroy', ['Reward', { where: {} }]);
  });

  test('findOne and count', async () => {
    expect(await db('findOne', ['Points', { where: { level: { $gt: 3 } }, order: [['level', 'ASC']] }])).toMatchObject({ customer: 'dee', level: 4 });
    expect(await db('findOne', ['Points', { where: { customer: 'nobody' } }])).toBeNull();
    expect(await db('count', ['Points', { where: { active: true } }])).toBe(3);
    expect(await db('count', ['Points'])).toBe(5);
  });

  test('update and destroy report how many rows they touched', async () => {
    expect(await db('update', ['Points', { note: 'updated', level: 9 }, { where: { customer: { $in: ['bob', 'cy'] } } }])).toBe(2);
    expect(await find({ level: 9 })).toEqual(['bob', 'cy']);
    await db('update', ['Points', { level: 2 }, { where: { customer: 'bob' } }]);
    await db('update', ['Points', { level: 3, note: null }, { where: { customer: 'cy' } }]);
    await db('create', ['Points', { customer: 'tmp1' }]);
    await db('create', ['Points', { customer: 'tmp2' }]);
    expect(await db('destroy', ['Points', { where: { customer: { $like: 'tmp%' } } }])).toBe(2);
    const noWhere = await rejection(db('update', ['Points', { level: 1 }, {}]));
    expect(noWhere.message).toMatch(/update needs a where clause; pass \{ where: \{\} \} to affect every row/);
    expect(await rejection(db('destroy', ['Points']))).toMatchObject({ code: 'DB_INVALID_QUERY' });
  });

  test('upsert inserts, then updates only the given columns, by primary key or conflictFields', async () => {
    expect(await db('upsert', ['Reward', { code: 'u1', title: 'First', cost: '5.00' }])).toEqual({ code: 'u1', title: 'First', cost: '5.00' });
    expect(await db('upsert', ['Reward', { code: 'u1', title: 'Renamed' }])).toEqual({ code: 'u1', title: 'Renamed', cost: '5.00' });
    const [ada] = (await db('find', ['Points', { where: { customer: 'ada' } }])) as Array<{ ref: string; amount: string; created_at: string }>;
    const updated = (await db('upsert', ['Points', { ref: ada.ref, customer: 'ada', amount: '11.00' }, { conflictFields: ['ref'] }])) as { amount: string; level: number };
    // Columns not given keep their values, defaults included.
    expect(updated).toMatchObject({ amount: '11.00', level: 1, created_at: ada.created_at });
    expect(await db('count', ['Points', { where: { customer: 'ada' } }])).toBe(1);
    expect((await rejection(db('upsert', ['Reward', { title: 'No key' }]))).message).toMatch(/upsert values must include code/);
    const notUnique = await rejection(db('upsert', ['Points', { customer: 'ada', amount: '1' }, { conflictFields: ['customer'] }]));
    expect(notUnique).toMatchObject({ code: 'DB_INVALID_QUERY', details: { sqlstate: '42P10' } });
    await db('update', ['Points', { amount: '10.50' }, { where: { customer: 'ada' } }]);
    await db('destroy', ['Reward', { where: {} }]);
  });

  test('constraint violations come back typed, without SQL', async () => {
    await db('create', ['Reward', { code: 'dup', title: 'D' }]);
    const dup = await rejection(db('create', ['Reward', { code: 'dup', title: 'D' }]));
    expect(dup).toMatchObject({ code: 'DB_CONFLICT', status: 409, details: { constraint: 'Reward_pkey' } });
    expect(dup.message).not.toMatch(/INSERT/);
    const missing = await rejection(db('create', ['Reward', { code: 'x' }]));
    expect(missing).toMatchObject({ code: 'DB_CONSTRAINT', status: 422 });
    await db('destroy', ['Reward', { where: {} }]);
  });

  test.each([
    ['an unknown model', ['find', ['Orders', {}]], /Unknown model "Orders" for module "md_query"; its models are Points, Reward/],
    ['an unknown column in where', ['find', ['Points', { where: { password: 'x' } }]], /Unknown column "password" in where of model Points/],
    ['an unknown column in attributes', ['find', ['Points', { attributes: ['id', 'secret'] }]], /Unknown column "secret" in attributes/],
    ['an unknown column in order', ['find', ['Points', { order: [['nope', 'ASC']] }]], /Unknown column "nope" in order/],
    ['an unknown column in create', ['create', ['Points', { customer: 'x', hacked: true }]], /Unknown column "hacked" in create/],
    ['an unknown operator', ['find', ['Points', { where: { level: { $regexp: '.*' } } }]], /Unknown operator "\$regexp" in the condition on "level"/],
    ['an unknown top-level operator', ['find', ['Points', { where: { $raw: 'true' } }]], /Unknown operator "\$raw" in where/],
    ['a Sequelize-style nested key', ['find', ['Points', { where: { '$x.y$': 1 } }]], /Unknown operator "\$x\.y\$"/],
    ['an unknown query option', ['find', ['Points', { include: ['x'] }]], /Unknown query option "include" for find/],
    ['a bad order direction', ['find', ['Points', { order: [['level', 'ASC; DROP TABLE x']] }]], /Each order entry must be \[column, "ASC" \| "DESC"\]/],
    ['a value of the wrong type', ['find', ['Points', { where: { level: '1 OR 1=1' } }]], /"level" is integer: expected a 32-bit integer/],
    ['$like on a number', ['find', ['Points', { where: { level: { $like: '1%' } } }]], /\$like applies to string and text columns/],
    ['a comparison with an object', ['find', ['Points', { where: { customer: { $gt: { $lt: 'x' } } } }]], /"customer" is string: expected a string/],
    ['json compared by value', ['find', ['Points', { where: { meta: { tags: 'vip' } } }]], /json column "meta" can only be compared with null/],
    ['a datetime without a zone', ['find', ['Points', { where: { created_at: { $gt: '2025-01-01T00:00:00' } } }]], /ISO 8601 time with a zone/],
    ['an empty $or', ['find', ['Points', { where: { $or: [] } }]], /\$or needs a non-empty array/],
    ['a negative offset', ['find', ['Points', { offset: -1 }]], /offset must be a whole number/],
    ['an unknown method', ['query', ['SELECT 1']], /host.db has no method "query"/],
    ['a bad sequence name', ['sequence', ["x'; DROP TABLE y; --"]], /sequence needs a name/],
    ['too many arguments', ['find', ['Points', {}, 'extra']], /find takes at most 2 arguments/],
  ])('refuses %s with DB_INVALID_QUERY naming the problem', async (_name, [method, args], message) => {
    const err = await rejection(db(method as string, args as unknown[]));
    expect(err).toMatchObject({ code: 'DB_INVALID_QUERY', status: 422 });
    expect(err.message).toMatch(message as RegExp);
  });

  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('an operator named like an Object.prototype member ("%s") is refused as unknown', async (op) => {
    // JSON.parse makes "__proto__" an own key, as a module's arguments arrive.
    const where = JSON.parse(`{"customer": {"${op}": "ada"}}`);
    const err = await rejection(db('find', ['Points', { where }]));
    expect(err).toMatchObject({ code: 'DB_INVALID_QUERY', status: 422, details: { operator: op } });
    expect(err.message).toBe(`Unknown operator "${op}" in the condition on "customer"; use one of $eq $ne $gt $gte $lt $lte $in $notIn $like $iLike $between $is $not $or $and $contains.`);
  });

  test('where nesting and list sizes are bounded', async () => {
    let deep: Record<string, unknown> = { level: 1 };
    for (let i = 0; i < 12; i++) deep = { $and: [deep] };
    expect((await rejection(db('find', ['Points', { where: deep }]))).message).toMatch(/nested deeper than 8 levels/);
    const many = Array.from({ length: 1001 }, (_, i) => i);
    expect((await rejection(db('find', ['Points', { where: { level: { $in: many } } }]))).message).toMatch(/more than 1000 values/);
  });

  test('a model without a primary key works (Sequelize would invent an "id")', async () => {
    const models = { Log: { columns: { line: { type: 'text' as const, nullable: false }, at: { type: 'datetime' as const, default: { $fn: 'now' } } } } };
    await h.data.install(t, modulePackage('md_nopk', { models }));
    const log = h.data.bridge(t, 'md_nopk', models, 'nopk');
    expect(await log('create', ['Log', { line: 'one' }])).toEqual({ line: 'one', at: expect.any(String) });
    await log('bulkCreate', ['Log', [{ line: 'two' }, { line: 'three' }]]);
    expect(await log('find', ['Log', { order: [['line', 'ASC']], attributes: ['line'] }])).toEqual([{ line: 'one' }, { line: 'three' }, { line: 'two' }]);
    expect(await log('update', ['Log', { line: 'uno' }, { where: { line: 'one' } }])).toBe(1);
    expect((await rejection(log('upsert', ['Log', { line: 'x' }]))).message).toMatch(/has no primary key: upsert needs conflictFields/);
    expect(await log('destroy', ['Log', { where: {} }])).toBe(3);
  });

  test('dates and datetimes come back as ISO strings; datetimes in UTC', async () => {
    const row = (await db('create', ['Points', { customer: 'tz', earned_on: '2024-02-29', created_at: '2024-12-31T23:30:00-05:00' }])) as Record<string, unknown>;
    expect(row).toMatchObject({ earned_on: '2024-02-29', created_at: '2025-01-01T04:30:00.000Z' });
    expect((await rejection(db('create', ['Points', { customer: 'tz', earned_on: '2023-02-29' }]))).message).toMatch(/"earned_on" is date/);
    await db('destroy', ['Points', { where: { customer: 'tz' } }]);
  });
});
