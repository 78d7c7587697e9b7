/**
 * DESIGN.md, Data ("one PostgreSQL schema per module, holding the tables its manifest declares,
 * created and migrated by the host") and issue 3, item 5: install, idempotency, additive upgrade,
 * refused models and uninstall.
 */
import { randomBytes } from 'node:crypto';
import type { Data } from '../../sdk/manifest/manifest.types';
import { LOYALTY_MODELS, modulePackage, rejection, serverSql, startHarness, type Harness } from './support';

const ALIAS = 'md_install';

describe('DESIGN.md Data / issue 3 item 5: installing module data', () => {
  let h: Harness;
  beforeAll(() => {
    h = startHarness();
  });
  afterAll(() => h.close());

  const loyalty = (data: Data = { models: LOYALTY_MODELS }, version = '1.0.0') => modulePackage(ALIAS, data, {}, version);

  test('install creates the schema named after the module, its tables, columns and indexes', async () => {
    const t = await h.tenant();
    const report = await h.data.install(t, loyalty());
    expect(report).toEqual({
      schemaCreated: true,
      tablesCreated: ['points', 'Reward'],
      columnsAdded: [],
      indexesCreated: ['points_customer_created_at_idx', 'points_ref_unique'],
      migrationsRun: [],
    });

    const tables = await h.sql<{ table_name: string }>(t, `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [ALIAS]);
    expect(tables.map((r) => r.table_name)).toEqual(['Reward', '_migrations', '_sequences', 'points']);

    const columns = await h.sql<{ column_name: string; type: string; is_nullable: string; column_default: string | null }>(
      t,
      `SELECT a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS type, CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
              pg_get_expr(d.adbin, d.adrelid) AS column_default
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [`${ALIAS}.points`],
    );
    expect(columns.map((c) => [c.column_name, c.type, c.is_nullable])).toEqual([
      ['id', 'bigint', 'NO'],
      ['customer', 'character varying(64)', 'NO'],
      ['amount', 'numeric(12,2)', 'NO'],
      ['note', 'text', 'YES'],
      ['active', 'boolean', 'YES'],
      ['earned_on', 'date', 'YES'],
      ['created_at', 'timestamp with time zone', 'YES'],
      ['meta', 'jsonb', 'YES'],
      ['ref', 'uuid', 'YES'],
      ['level', 'integer', 'YES'],
    ]);
    const defaults = Object.fromEntries(columns.map((c) => [c.column_name, c.column_default]));
    expect(defaults).toMatchObject({ amount: expect.stringMatching(/^'?0\.00'?::numeric/), created_at: 'now()', ref: 'gen_random_uuid()', level: '1', active: 'true' });

    const indexes = await h.sql<{ indexname: string; indexdef: string }>(t, `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname`, [ALIAS]);
    const defs = Object.fromEntries(indexes.map((i) => [i.indexname, i.indexdef]));
    expect(defs.points_customer_created_at_idx).toMatch(/USING btree \(customer, created_at\)/);
    expect(defs.points_ref_unique).toMatch(/^CREATE UNIQUE INDEX .* \(ref\)/);
    expect(defs.points_pkey).toMatch(/\(id\)/);
    expect(defs.Reward_pkey).toMatch(/\(code\)/);
  });

  test('the module role owns its tables; the host keeps its bookkeeping tables', async () => {
    const t = await h.tenant();
    await h.data.install(t, loyalty());
    const owners = await h.sql<{ tablename: string; tableowner: string }>(t, `SELECT tablename, tableowner FROM pg_tables WHERE schemaname = $1 ORDER BY tablename`, [ALIAS]);
    const role = `mandi_mod_${ALIAS}`;
    expect(Object.fromEntries(owners.map((o) => [o.tablename, o.tableowner]))).toEqual({
      points: role,
      Reward: role,
      _migrations: expect.not.stringMatching(role),
      _sequences: expect.not.stringMatching(role),
    });
    const [r] = await h.sql<{ rolcanlogin: boolean; rolsuper: boolean }>(t, 'SELECT rolcanlogin, rolsuper FROM pg_roles WHERE rolname = $1', [role]);
    expect(r).toEqual({ rolcanlogin: false, rolsuper: false });
  });

  test('installing again changes nothing and keeps the data', async () => {
    const t = await h.tenant();
    await h.data.install(t, loyalty());
    const db = h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv');
    await db('create', ['Reward', { code: 'mug', title: 'Mug', cost: '9.90' }]);
    const again = await h.data.install(t, loyalty());
    expect(again).toEqual({ schemaCreated: false, tablesCreated: [], columnsAdded: [], indexesCreated: [], migrationsRun: [] });
    expect(await db('find', ['Reward', {}])).toEqual([{ code: 'mug', title: 'Mug', cost: '9.90' }]);
  });

  test('concurrent installs of the same module in one tenant serialise instead of colliding', async () => {
    const t = await h.tenant();
    const reports = await Promise.all([h.data.install(t, loyalty()), h.data.install(t, loyalty()), h.data.install(t, loyalty())]);
    expect(reports.filter((r) => r.schemaCreated)).toHaveLength(1);
  });

  test('upgrade adds new models, columns and indexes and keeps existing rows and undeclared columns', async () => {
    const t = await h.tenant();
    await h.data.install(t, loyalty());
    const v1 = h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv');
    await v1('create', ['Points', { customer: 'ada', amount: '5.00', note: 'kept' }]);

    const { note: _dropped, ...pointColumns } = LOYALTY_MODELS.Points.columns;
    void _dropped;
    const v2Models: Data['models'] = {
      ...LOYALTY_MODELS,
      Points: {
        ...LOYALTY_MODELS.Points,
        columns: { ...pointColumns, tier: { type: 'string', length: 16, nullable: false, default: 'bronze' } },
        indexes: [...(LOYALTY_MODELS.Points.indexes ?? []), { fields: ['tier'] }],
      },
      Badge: { columns: { id: { type: 'uuid', primaryKey: true, default: { $fn: 'uuid' } }, label: { type: 'string' } } },
    };
    const report = await h.data.upgrade(t, loyalty(), loyalty({ models: v2Models }, '1.1.0'));
    expect(report).toEqual({
      schemaCreated: false,
      tablesCreated: ['Badge'],
      columnsAdded: ['points.tier'],
      indexesCreated: ['points_tier_idx'],
      migrationsRun: [],
    });
    const v2 = h.data.bridge(t, ALIAS, v2Models, 'inv');
    expect(await v2('find', ['Points', { attributes: ['customer', 'amount', 'tier'] }])).toEqual([{ customer: 'ada', amount: '5.00', tier: 'bronze' }]);
    const [kept] = await h.sql<{ note: string }>(t, `SELECT note FROM ${ALIAS}.points`);
    expect(kept.note).toBe('kept');
    expect(await v2('create', ['Badge', { label: 'Gold' }])).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), label: 'Gold' });
  });

  test('an upgrade adding a NOT NULL column without a default to a table with rows fails clearly and changes nothing', async () => {
    const t = await h.tenant();
    await h.data.install(t, loyalty());
    await h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv')('create', ['Reward', { code: 'a', title: 'A' }]);
    const bad: Data['models'] = {
      ...LOYALTY_MODELS,
      Reward: { columns: { ...LOYALTY_MODELS.Reward.columns, stock: { type: 'integer', nullable: false } } },
      Extra: { columns: { id: { type: 'integer', primaryKey: true } } },
    };
    const err = await rejection(h.data.upgrade(t, loyalty(), loyalty({ models: bad }, '2.0.0')));
    expect(err).toMatchObject({ code: 'DB_SYNC_FAILED', status: 422 });
    expect(err.message).toMatch(/column Reward\.stock/);
    const tables = await h.sql(t, `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Extra'`, [ALIAS]);
    expect(tables).toHaveLength(0);
  });

  test('invalid models are refused with every problem under its JSON pointer, and nothing is created', async () => {
    const t = await h.tenant();
    const bad: Data = {
      models: {
        Thing: {
          table: '_migrations',
          columns: {
            id: { type: 'string', primaryKey: true, nullable: true },
            price: { type: 'decimal', precision: 4, scale: 6, default: 1.5 },
            code: { type: 'integer', length: 10, autoIncrement: true, default: 3 },
            at: { type: 'datetime', default: { $fn: 'uuid' } },
          },
          indexes: [{ fields: ['missing'] }],
        },
      },
    };
    const err = await rejection(h.data.install(t, modulePackage(ALIAS, bad)));
    expect(err).toMatchObject({ code: 'DB_INVALID_MODEL', status: 422 });
    expect(err.details!.problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/data\/models\/Thing\/table: "_migrations" is reserved/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/id\/nullable: a primary key column cannot be nullable/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/price\/scale: scale 6 exceeds precision 4/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/price\/default: .*decimal string/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/code\/length: only string columns/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/code\/default: an autoIncrement column cannot have a default/),
        expect.stringMatching(/^\/data\/models\/Thing\/columns\/at\/default: \{"\$fn": "uuid"\} does not fit a datetime column/),
        expect.stringMatching(/^\/data\/models\/Thing\/indexes\/0\/fields: "missing" is not a column of Thing/),
      ]),
    );
    expect(await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [ALIAS])).toHaveLength(0);
  });

  test('aliases that cannot name a module schema are refused', async () => {
    const t = await h.tenant();
    for (const name of ['public', 'pg_toast', 'information_schema']) {
      expect(await rejection(h.data.install(t, modulePackage(name, { models: LOYALTY_MODELS })))).toMatchObject({ code: 'DB_INVALID_MODULE' });
    }
  });

  test('uninstall keeps the data unless purged; purge drops the schema', async () => {
    const t = await h.tenant();
    await h.data.install(t, loyalty());
    await h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv')('create', ['Reward', { code: 'a', title: 'A' }]);
    await h.data.uninstall(t, ALIAS, { purge: false });
    expect(await h.sql(t, `SELECT code FROM ${ALIAS}."Reward"`)).toEqual([{ code: 'a' }]);
    await h.data.install(t, loyalty());
    expect(await h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv')('count', ['Reward', {}])).toBe(1);
    await h.data.uninstall(t, ALIAS, { purge: true });
    expect(await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [ALIAS])).toHaveLength(0);
  });
});

describe('DESIGN.md Data / issue 3 item 5: the module role is shared by tenants', () => {
  // A fresh alias, so its role does not exist yet; dropped again once the tenants are gone.
  const alias = `md_race_${randomBytes(3).toString('hex')}`;
  let h: Harness;
  beforeAll(() => {
    h = startHarness();
  });
  afterAll(async () => {
    await h.close();
    await serverSql(`DROP ROLE IF EXISTS mandi_mod_${alias}`);
  });

  test('tenants installing a new module at the same moment create its role once and all succeed', async () => {
    const tenants = await Promise.all([h.tenant(), h.tenant(), h.tenant()]);
    const reports = await Promise.all(tenants.map((t) => h.data.install(t, modulePackage(alias, { models: LOYALTY_MODELS }))));
    expect(reports.every((r) => r.schemaCreated)).toBe(true);
    for (const t of tenants) {
      const [owner] = await h.sql<{ tableowner: string }>(t, `SELECT tableowner FROM pg_tables WHERE schemaname = $1 AND tablename = 'points'`, [alias]);
      expect(owner.tableowner).toBe(`mandi_mod_${alias}`);
    }
  });
});
