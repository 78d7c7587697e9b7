/**
 * DESIGN.md, Data ("a PostgreSQL role per module … as defence in depth"): a host.db create or update
 * outside a transaction goes to PostgreSQL as one query string, the module's role, schema and
 * statement timeout switched for it alone, as lone reads do. The same writes inside an explicit
 * transaction still take Sequelize's create and update, so comparing the two checks the single-trip
 * SQL against the ORM's own.
 */
import { createLogger } from '../../core/kernel/logger';
import { TenantDatabases } from '../../core/kernel/data/tenant-databases';
import { ModuleDataService, type DbBridge } from '../../core/kernel/module-data';
import { roleOf } from '../../core/kernel/module-data/names';
import { testServerUrl } from '../support/test-platform';
import { installLoyalty, LOYALTY_MODELS, rejection, sentDuring, startHarness, type Harness } from './support';

const ALIAS = 'md_lone_write';

describe('DESIGN.md Data: host.db creates, bulk creates, updates and deletes outside a transaction take one round trip', () => {
  let h: Harness;
  let t: string;
  let db: DbBridge;

  beforeAll(async () => {
    h = startHarness({ maxLimit: 50, defaultLimit: 5 });
    const loyalty = await installLoyalty(h, ALIAS);
    t = loyalty.id;
    db = loyalty.bridge('lone-writes');
  });
  afterAll(() => h.close());

  test('a created row equals the ORM’s for every column type, defaults included', async () => {
    const rows: Record<string, unknown>[] = [
      { customer: 'ada', amount: '10.50', note: 'first "quoted" it\'s \\ back', active: false, earned_on: '2025-01-10', level: 7, meta: { tags: ['vip'], n: 1.5, s: "o'k" }, created_at: '2025-04-01T08:30:00+02:00' },
      { customer: 'bob' },
      // Values are escaped inline, not bound: text that would end the literal stays text.
      { customer: "x'); DROP TABLE points; --", note: "\\'; SELECT pg_sleep(5); --", meta: { "k'": "'); --" } },
    ];
    const tx = (await db('tx.begin', [])) as string;
    try {
      for (const row of rows) {
        const alone = (await db('create', ['Points', row])) as Record<string, unknown>;
        const inTx = (await db('create', ['Points', row], tx)) as Record<string, unknown>;
        // The serial id, the generated ref and (when defaulted) the clock differ between two inserts.
        const same = (r: Record<string, unknown>) => ({ ...r, id: typeof r.id, ref: typeof r.ref, created_at: row.created_at ? r.created_at : typeof r.created_at });
        expect(same(alone)).toEqual(same(inTx));
      }
    } finally {
      await db('tx.rollback', [], tx);
    }
    expect(await db('findOne', ['Points', { where: { customer: 'bob' } }])).toMatchObject({ amount: '0.00', active: true, level: 1, note: null });
    expect(await db('findOne', ['Points', { where: { customer: "x'); DROP TABLE points; --" } }])).toMatchObject({ note: "\\'; SELECT pg_sleep(5); --", meta: { "k'": "'); --" } });
    expect(await db('create', ['Reward', { code: 'R1', title: 'Mug', cost: '3.00' }])).toEqual({ code: 'R1', title: 'Mug', cost: '3.00' });
  });

  test('a bulk create answers what the transactional one does, for each returning option and an upsert', async () => {
    const rows = [
      { customer: 'bulk-a', amount: '1.25', note: "it's \\ \"quoted\"", meta: { k: ["'); --"] }, earned_on: '2025-02-03' },
      { customer: 'bulk-b', amount: '2.50', note: null, meta: null, earned_on: '2025-02-04' },
    ];
    const same = (r: Record<string, unknown>) => ({ ...r, id: typeof r.id, ref: typeof r.ref, created_at: typeof r.created_at });
    const tx = (await db('tx.begin', [])) as string;
    try {
      for (const options of [undefined, { returning: ['customer', 'amount'] }, { returning: false }]) {
        const alone = await db('bulkCreate', ['Points', rows, options]);
        const inTx = await db('bulkCreate', ['Points', rows, options], tx);
        if (Array.isArray(alone)) expect(alone.map(same)).toEqual((inTx as Record<string, unknown>[]).map(same));
        else expect([alone, inTx]).toEqual([2, 2]);
      }
    } finally {
      await db('tx.rollback', [], tx);
    }
    expect(await db('find', ['Points', { where: { customer: 'bulk-a' }, attributes: ['note', 'meta'] }])).toEqual(Array(3).fill({ note: rows[0]!.note, meta: rows[0]!.meta }));
    const upserted = await db('bulkCreate', ['Reward', [{ code: 'B1', title: 'One', cost: '1.00' }, { code: 'B1x', title: 'Two', cost: '2.00' }], { upsert: { conflictFields: ['code'] } }]);
    expect(upserted).toEqual([{ code: 'B1', title: 'One', cost: '1.00' }, { code: 'B1x', title: 'Two', cost: '2.00' }]);
    expect(await db('bulkCreate', ['Reward', [{ code: 'B1', title: 'One again', cost: '1.50' }], { upsert: { conflictFields: ['code'] }, returning: ['title'] }])).toEqual([{ title: 'One again' }]);
    // One bad row: nothing of the statement stays.
    expect(await rejection(db('bulkCreate', ['Reward', [{ code: 'B2', title: 'New' }, { code: 'B1', title: 'Clash' }]]))).toMatchObject({ code: 'DB_CONFLICT', status: 409 });
    expect(await db('count', ['Reward', { where: { code: 'B2' } }])).toBe(0);
  });

  test('an update answers the rows it changed, with the same where as the finders', async () => {
    await db('bulkCreate', ['Points', [{ customer: 'cy', level: 2 }, { customer: 'cy', level: 3 }, { customer: 'dee', level: 3 }]]);
    expect(await db('update', ['Points', { note: 'third', meta: { a: [1] } }, { where: { customer: 'cy', level: { $gte: 2 } } }])).toBe(2);
    expect(await db('update', ['Points', { note: 'none' }, { where: { customer: 'nobody' } }])).toBe(0);
    expect(await db('find', ['Points', { where: { note: 'third' }, attributes: ['customer', 'meta'] }])).toEqual([
      { customer: 'cy', meta: { a: [1] } },
      { customer: 'cy', meta: { a: [1] } },
    ]);
  });

  test('a destroy answers the rows it deleted, with the same where as the finders', async () => {
    await db('bulkCreate', ['Points', [{ customer: 'gus', level: 1 }, { customer: 'gus', level: 5 }, { customer: "o'hara", level: 5 }]]);
    expect(await db('destroy', ['Points', { where: { customer: 'gus', level: { $gte: 2 } } }])).toBe(1);
    expect(await db('destroy', ['Points', { where: { customer: "o'hara" } }])).toBe(1);
    expect(await db('destroy', ['Points', { where: { customer: 'nobody' } }])).toBe(0);
    expect(await db('find', ['Points', { where: { customer: { $in: ['gus', "o'hara"] } }, attributes: ['customer', 'level'] }])).toEqual([{ customer: 'gus', level: 1 }]);
  });

  test('one query string reaches the server per create, bulk create, update and destroy', async () => {
    const created = await sentDuring(() => db('create', ['Points', { customer: 'eve' }]));
    const updated = await sentDuring(() => db('update', ['Points', { level: 9 }, { where: { customer: 'eve' } }]));
    const destroyed = await sentDuring(() => db('destroy', ['Points', { where: { customer: 'eve' } }]));
    const bulk = await sentDuring(() => db('bulkCreate', ['Points', [{ customer: 'eve' }, { customer: 'eve' }], { returning: false }]));
    for (const [sent, verb] of [[created, 'INSERT INTO'], [updated, 'UPDATE'], [destroyed, 'DELETE FROM'], [bulk, 'INSERT INTO']] as const) {
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(new RegExp(`^SET LOCAL ROLE "mandi_mod_md_lone_write"; SET LOCAL search_path TO "md_lone_write"; SET LOCAL statement_timeout = \\d+; ${verb} `));
    }
  });

  test('the write runs as the module’s role, and a failed one leaves nothing', async () => {
    await h.sql(t, `REVOKE INSERT, DELETE ON ${ALIAS}.points FROM ${roleOf(ALIAS)}`);
    try {
      expect(await rejection(db('create', ['Points', { customer: 'mal' }]))).toMatchObject({ code: 'DB_FORBIDDEN', status: 403 });
      expect(await rejection(db('destroy', ['Points', { where: { customer: 'ada' } }]))).toMatchObject({ code: 'DB_FORBIDDEN', status: 403 });
    } finally {
      await h.sql(t, `GRANT INSERT, DELETE ON ${ALIAS}.points TO ${roleOf(ALIAS)}`);
    }
    expect(await rejection(db('create', ['Reward', { code: 'R1', title: 'Again' }]))).toMatchObject({ code: 'DB_CONFLICT', status: 409 });
    expect(await rejection(db('create', ['Points', { amount: '1.00' }]))).toMatchObject({ code: 'DB_CONSTRAINT', status: 422 });
    expect(await db('count', ['Points', { where: { customer: 'mal' } }])).toBe(0);
    expect(await db('findOne', ['Reward', { where: { code: 'R1' } }])).toMatchObject({ title: 'Mug' });
  });

  test('nothing stays on the pooled connection after a write', async () => {
    const logger = createLogger('silent');
    const dbs = new TenantDatabases({ serverUrl: testServerUrl(), maxTotal: 5, maxPerTenant: 1, idleMs: 60_000, logger, coreMigrations: false });
    const data = new ModuleDataService(dbs, logger);
    try {
      const probe = `SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s`;
      const [before] = await dbs.query<Record<string, string>>(t, probe);
      const one = data.bridge(t, ALIAS, LOYALTY_MODELS, 'one-connection');
      await one('create', ['Points', { customer: 'fay' }]);
      await one('update', ['Points', { level: 4 }, { where: { customer: 'fay' } }]);
      await one('destroy', ['Points', { where: { customer: 'fay' } }]);
      const [after] = await dbs.query<Record<string, string>>(t, probe);
      expect(after).toEqual(before);
    } finally {
      await data.close();
      await dbs.close();
    }
  });
});
