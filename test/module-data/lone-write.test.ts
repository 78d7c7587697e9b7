/**
 * DESIGN.md Data ("a PostgreSQL role per module … as defence in depth"): a host.db insert outside a
 * transaction (create, bulkCreate whose rows name the same columns, destroy) goes to PostgreSQL as one
 * query string, the module's role, schema and statement timeout switched for it alone, its rows as
 * one escaped JSON literal. The same inserts inside an explicit transaction bind the JSON as a
 * parameter, so comparing the two checks the literal against the parameter.
 */
import { Client } from 'pg';
import { TenantDatabases } from '../../core/data/tenant-databases';
import { createLogger } from '../../core/logger';
import { ModuleDataService, type DbBridge } from '../../core/module-data';
import { roleOf } from '../../core/module-data/names';
import { testServerUrl } from '../support/test-platform';
import { installLoyalty, LOYALTY_MODELS, rejection, startHarness, type Harness } from './support';

const ALIAS = 'md_lonew';

/** Values a literal must carry exactly: quotes, backslashes, dollar quotes, a statement break. */
const AWKWARD = ["it's", 'back\\slash \\\' \\"', '$$ $tag$ E\'\\x41\'', "'); DROP TABLE md_lonew.points; --", 'ünïcødé ✓ \n\t tab', '{"json": "in text"}'];

/** The columns the database chose (id, ref, created_at) differ between two inserts; the rest must not. */
const given = (row: unknown) => {
  const { id: _id, ref: _ref, created_at: _at, ...rest } = row as Record<string, unknown>;
  return rest;
};

describe('DESIGN.md Data: host.db inserts and deletes outside a transaction take one round trip', () => {
  let h: Harness;
  let t: string;
  let db: DbBridge;

  beforeAll(async () => {
    h = startHarness();
    const loyalty = await installLoyalty(h, ALIAS);
    t = loyalty.id;
    db = loyalty.bridge('lone-writes');
  });
  afterAll(() => h.close());

  test('rows equal those inserted inside a transaction, for every column type and awkward text', async () => {
    const rows = AWKWARD.map((note, i) => ({ customer: `c${i}`, amount: '10.5', note, active: i % 2 === 0, earned_on: '2025-01-10', meta: { note, n: [i, null] }, level: i }));
    const alone = [];
    for (const r of rows) alone.push(await db('create', ['Points', r]));
    const bulkAlone = (await db('bulkCreate', ['Points', rows])) as unknown[];
    const tx = (await db('tx.begin', [])) as string;
    let inTx: unknown[];
    try {
      inTx = [];
      for (const r of rows) inTx.push(await db('create', ['Points', r], tx));
    } finally {
      await db('tx.rollback', [], tx);
    }
    expect(alone.map(given)).toEqual(inTx.map(given));
    expect(bulkAlone.map(given)).toEqual(inTx.map(given));
    expect((alone[3] as { note: string }).note).toBe(AWKWARD[3]);
    expect(await db('count', ['Points', {}])).toBe(rows.length * 2);
    expect(await db('bulkCreate', ['Points', [{ customer: 'n1' }, { customer: 'n2' }], { returning: false }])).toBe(2);
    expect(await db('create', ['Reward', { code: 'r1', title: "Rew'ard" }])).toEqual({ code: 'r1', title: "Rew'ard", cost: null });
  });

  test('destroy removes what it removes inside a transaction, for every where shape', async () => {
    await db('bulkCreate', ['Points', AWKWARD.map((note, i) => ({ customer: `d${i}`, note, level: 100 + i, earned_on: '2025-02-0' + (i + 1) }))]);
    const wheres = [
      { note: AWKWARD[3], level: 103 },
      { customer: { $in: ['d1', 'd2'] } },
      { level: { $gte: 105 }, earned_on: { $lt: '2025-02-07' } },
      { level: { $gte: 100 }, $or: [{ note: { $like: '%tab%' } }, { customer: 'nobody' }] },
      { customer: 'nobody' },
    ];
    const tx = (await db('tx.begin', [])) as string;
    const inTx: unknown[] = [];
    try {
      for (const where of wheres) inTx.push(await db('destroy', ['Points', { where }], tx));
    } finally {
      await db('tx.rollback', [], tx);
    }
    const alone: unknown[] = [];
    for (const where of wheres) alone.push(await db('destroy', ['Points', { where }]));
    expect(alone).toEqual(inTx);
    expect(alone).toEqual([1, 2, 1, 1, 0]);
    expect(await db('count', ['Points', { where: { level: { $gte: 100 } } }])).toBe(1);
  });

  test('one query string reaches the server per insert or delete', async () => {
    // A pass-through spy on the pg driver (not on project code): it records what is sent.
    const original = Client.prototype.query;
    const sent: string[] = [];
    const spy = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      if (typeof args[0] === 'string') sent.push(args[0]);
      return original.apply(this, args as never) as never;
    });
    try {
      expect(await db('create', ['Points', { customer: 'spy' }])).toMatchObject({ customer: 'spy', amount: '0.00', level: 1 });
      expect(await db('destroy', ['Points', { where: { customer: 'spy' } }])).toBe(1);
    } finally {
      spy.mockRestore();
    }
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatch(/^SET LOCAL ROLE "mandi_mod_md_lonew"; SET LOCAL search_path TO "md_lonew"; SET LOCAL statement_timeout = \d+; INSERT /);
    expect(sent[1]).toMatch(/^SET LOCAL ROLE "mandi_mod_md_lonew"; SET LOCAL search_path TO "md_lonew"; SET LOCAL statement_timeout = \d+; DELETE /);
  });

  test('a failing row leaves nothing written: the string is one transaction', async () => {
    const before = await db('count', ['Reward', {}]);
    const err = await rejection(db('bulkCreate', ['Reward', [{ code: 'u1', title: 'A' }, { code: 'r1', title: 'taken' }]]));
    expect(err).toMatchObject({ code: 'DB_CONFLICT' });
    expect(await db('count', ['Reward', {}])).toBe(before);
    expect(await rejection(db('create', ['Points', { customer: null }]))).toMatchObject({ status: 422 });
  });

  test('the insert runs as the module’s role: a right taken from the role is missing from the insert', async () => {
    await h.sql(t, `REVOKE INSERT ON ${ALIAS}.points FROM ${roleOf(ALIAS)}`);
    try {
      expect(await rejection(db('create', ['Points', { customer: 'no' }]))).toMatchObject({ code: 'DB_FORBIDDEN', status: 403 });
    } finally {
      await h.sql(t, `GRANT INSERT ON ${ALIAS}.points TO ${roleOf(ALIAS)}`);
    }
    await h.sql(t, `REVOKE DELETE ON ${ALIAS}.points FROM ${roleOf(ALIAS)}`);
    try {
      expect(await rejection(db('destroy', ['Points', { where: { customer: 'c0' } }]))).toMatchObject({ code: 'DB_FORBIDDEN', status: 403 });
    } finally {
      await h.sql(t, `GRANT DELETE ON ${ALIAS}.points TO ${roleOf(ALIAS)}`);
    }
    expect(await db('count', ['Points', { where: { customer: 'no' } }])).toBe(0);
  });

  test('nothing stays on the pooled connection: the next statement runs as the pool’s own user and path', async () => {
    const logger = createLogger('silent');
    const dbs = new TenantDatabases({ serverUrl: testServerUrl(), maxTotal: 5, maxPerTenant: 1, idleMs: 60_000, logger, coreMigrations: false });
    const data = new ModuleDataService(dbs, logger);
    try {
      const [before] = await dbs.query<Record<string, string>>(t, `SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s`);
      const one = data.bridge(t, ALIAS, LOYALTY_MODELS, 'one-connection');
      await one('create', ['Points', { customer: 'pool' }]);
      expect(await rejection(one('create', ['Reward', { code: 'r1', title: 'again' }]))).toMatchObject({ code: 'DB_CONFLICT' });
      const [after] = await dbs.query<Record<string, string>>(t, `SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s`);
      expect(after).toEqual(before);
      expect(after.u).not.toBe(roleOf(ALIAS));
    } finally {
      await data.close();
      await dbs.close();
    }
  });

  test('a module whose data is not installed gets DB_NOT_INSTALLED, not another schema', async () => {
    const ghost = h.data.bridge(t, 'md_lonew_ghost', LOYALTY_MODELS, 'ghost');
    expect(await rejection(ghost('create', ['Points', { customer: 'x' }]))).toMatchObject({ code: 'DB_NOT_INSTALLED', status: 409 });
  });
});
