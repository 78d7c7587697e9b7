/**
 * DESIGN.md, Data ("a PostgreSQL role per module … as defence in depth") and issue 3 item 5: a
 * host.db read outside a transaction (find, findOne, count) goes to PostgreSQL as one query string,
 * the module's role, schema and statement timeout switched for it alone. The same reads inside an
 * explicit transaction still take Sequelize's finders, so comparing the two checks the single-trip
 * SQL against the finders' own.
 */
import { Client } from 'pg';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { TenantDatabases, tenantDbName } from '../../core/kernel/data/tenant-databases';
import { createLogger } from '../../core/kernel/logger';
import { ModuleDataService, type DbBridge } from '../../core/kernel/module-data';
import { roleOf } from '../../core/kernel/module-data/names';
import { testServerUrl } from '../support/test-platform';
import { installLoyalty, LOYALTY_MODELS, rejection, sentDuring, startHarness, type Harness } from './support';

const ALIAS = 'md_lone';

describe('DESIGN.md Data / issue 3 item 5: host.db reads outside a transaction take one round trip', () => {
  let h: Harness;
  let t: string;
  let db: DbBridge;

  beforeAll(async () => {
    h = startHarness({ maxLimit: 50, defaultLimit: 5 });
    const loyalty = await installLoyalty(h, ALIAS);
    t = loyalty.id;
    db = loyalty.bridge('lone-reads');
    await db('bulkCreate', [
      'Points',
      [
        { customer: 'ada', amount: '10.50', note: 'first "quoted"', active: true, earned_on: '2025-01-10', level: 1, meta: { tags: ['vip'], n: 1 } },
        { customer: 'bob', amount: '0.10', note: "it's second", active: false, earned_on: '2025-02-01', level: 2 },
        { customer: 'cy', amount: '0.20', active: true, earned_on: '2025-03-15', level: 3, meta: { tags: [] } },
        { customer: 'dee', amount: '99.99', note: 'fourth', level: 4, created_at: '2025-04-01T08:30:00+02:00' },
        { customer: 'eve', amount: '7', note: 'fifth\\back', active: false, level: 5 },
      ],
    ]);
  });
  afterAll(() => h.close());

  test('results equal the finders’ inside a transaction, for every column type and query shape', async () => {
    const queries: Array<[string, unknown[]]> = [
      ['find', ['Points', {}]],
      ['find', ['Points', { where: { amount: { $gt: '0.15' } }, order: [['amount', 'DESC']], limit: 3, offset: 1 }]],
      ['find', ['Points', { where: { $or: [{ note: { $like: '%"quoted"%' } }, { note: "it's second" }, { note: 'fifth\\back' }] }, order: [['customer', 'ASC']] }]],
      ['find', ['Points', { where: { meta: { $contains: { tags: ['vip'] } } }, attributes: ['customer', 'meta', 'created_at'] }]],
      ['find', ['Points', { where: { earned_on: { $between: ['2025-01-01', '2025-02-28'] }, active: { $not: true } } }]],
      ['find', ['Points', { where: { customer: ['ada', 'eve'], note: null }, attributes: ['ref', 'level', 'id'] }]],
      ['findOne', ['Points', { where: { customer: 'dee' } }]],
      ['findOne', ['Points', { where: { level: { $gte: 2 } }, order: [['level', 'DESC']], offset: 1, attributes: ['customer', 'amount', 'earned_on'] }]],
      ['findOne', ['Points', { where: { customer: 'nobody' } }]],
      ['count', ['Points', {}]],
      ['count', ['Points', { where: { active: false } }]],
      ['count', ['Reward']],
    ];
    const tx = (await db('tx.begin', [])) as string;
    try {
      for (const [method, args] of queries) {
        const alone = await db(method as 'find', args);
        const inTx = await db(method as 'find', args, tx);
        expect({ method, args, result: alone }).toEqual({ method, args, result: inTx });
      }
    } finally {
      await db('tx.rollback', [], tx);
    }
    expect(await db('count', ['Points', {}])).toBe(5);
    expect(((await db('findOne', ['Points', { where: { customer: 'dee' } }])) as { created_at: string }).created_at).toBe('2025-04-01T06:30:00.000Z');
  });

  test('one query string reaches the server per read', async () => {
    const sent = await sentDuring(async () => {
      expect(await db('findOne', ['Points', { where: { customer: 'ada' } }])).toMatchObject({ customer: 'ada' });
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^SET LOCAL ROLE "mandi_mod_md_lone"; SET LOCAL search_path TO "md_lone"; SET LOCAL statement_timeout = \d+; SELECT /);
  });

  test('the read runs as the module’s role: a right taken from the role is missing from the read', async () => {
    await h.sql(t, `REVOKE SELECT ON ${ALIAS}.points FROM ${roleOf(ALIAS)}`);
    try {
      expect(await rejection(db('find', ['Points', {}]))).toMatchObject({ code: 'DB_FORBIDDEN', status: 403 });
    } finally {
      await h.sql(t, `GRANT SELECT ON ${ALIAS}.points TO ${roleOf(ALIAS)}`);
    }
    expect(await db('count', ['Points', {}])).toBe(5);
  });

  test('nothing stays on the pooled connection: the next statement runs as the pool’s own user and path', async () => {
    // One connection in the pool, so the check below shares the connection the reads used (the
    // tenant's core tables exist already; their migration check wants a second connection).
    const logger = createLogger('silent');
    const dbs = new TenantDatabases({ serverUrl: testServerUrl(), maxTotal: 5, maxPerTenant: 1, idleMs: 60_000, logger, coreMigrations: false });
    const data = new ModuleDataService(dbs, logger);
    try {
      const [before] = await dbs.query<Record<string, string>>(t, `SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s`);
      const one = data.bridge(t, ALIAS, LOYALTY_MODELS, 'one-connection');
      await one('find', ['Points', {}]);
      expect(await rejection(one('find', ['Points', { where: { amount: { $gt: 'x' } } }]))).toMatchObject({ code: 'DB_INVALID_QUERY' });
      await one('count', ['Points', {}]);
      const [after] = await dbs.query<Record<string, string>>(t, `SELECT current_user AS u, current_setting('search_path') AS p, current_setting('statement_timeout') AS s`);
      expect(after).toEqual(before);
      expect(after.u).not.toBe(roleOf(ALIAS));
    } finally {
      await data.close();
      await dbs.close();
    }
  });

  test('a read waiting past the statement timeout is cancelled with DB_TIMEOUT', async () => {
    const strict = startHarness({ statementTimeoutMs: 200 });
    try {
      const { id: st, bridge } = await installLoyalty(strict, ALIAS);
      const reader = bridge('reader');
      await reader('create', ['Reward', { code: 'k', title: 'K' }]);
      // An ACCESS EXCLUSIVE lock (as a migration takes) makes even a plain read wait.
      const locker = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(st)) });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE ${ALIAS}."Reward" IN ACCESS EXCLUSIVE MODE`);
        expect(await rejection(reader('find', ['Reward', {}]))).toMatchObject({ code: 'DB_TIMEOUT', status: 504 });
      } finally {
        await locker.end();
      }
      expect(await reader('count', ['Reward'])).toBe(1);
    } finally {
      await strict.close();
    }
  });

  test('a module whose data is not installed gets DB_NOT_INSTALLED, not another schema', async () => {
    const ghost = h.data.bridge(t, 'md_lone_ghost', LOYALTY_MODELS, 'ghost');
    expect(await rejection(ghost('findOne', ['Points', {}]))).toMatchObject({ code: 'DB_NOT_INSTALLED', status: 409 });
  });
});
