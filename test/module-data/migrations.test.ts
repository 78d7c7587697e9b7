/**
 * DESIGN.md, Data ("created and migrated by the host") and issue 3, item 5 ("migrated (up and
 * down) by the host"): migrations run once per tenant in order, inside the module's schema, in
 * one transaction with the install, and roll back newest first.
 */
import type { Data, Migration } from '../../sdk/manifest/manifest.types';
import { LOYALTY_MODELS, modulePackage, rejection, startHarness, type Harness } from './support';

const ALIAS = 'md_migrate';

const MIGRATIONS: Migration[] = [
  { id: '001_seed_rewards', up: 'migrations/001.up.sql', down: 'migrations/001.down.sql' },
  { id: '002_history', up: 'migrations/002.up.sql', down: 'migrations/002.down.sql' },
];
const FILES: Record<string, string> = {
  // Unqualified names: search_path is the module's schema.
  'migrations/001.up.sql': `INSERT INTO "Reward" (code, title, cost) VALUES ('mug', 'Mug', '9.90'), ('cap', 'Cap', '4.50');`,
  'migrations/001.down.sql': `DELETE FROM "Reward" WHERE code IN ('mug', 'cap');`,
  'migrations/002.up.sql': `CREATE TABLE history (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, what text NOT NULL);
    INSERT INTO history (what) VALUES ('created');
    CREATE INDEX history_what_idx ON history (what);`,
  'migrations/002.down.sql': 'DROP TABLE history;',
  'migrations/003.up.sql': `ALTER TABLE points ADD COLUMN expires_on date; UPDATE points SET expires_on = DATE '2030-01-01';`,
  'migrations/003.down.sql': 'ALTER TABLE points DROP COLUMN expires_on;',
};
const M3: Migration = { id: '003_expiry', up: 'migrations/003.up.sql', down: 'migrations/003.down.sql' };

const pkg = (migrations: Migration[], files = FILES, models = LOYALTY_MODELS, version = '1.0.0') =>
  modulePackage(ALIAS, { models, migrations } satisfies Data, files, version);

describe('DESIGN.md Data / issue 3 item 5: module migrations', () => {
  let h: Harness;
  beforeAll(() => {
    h = startHarness();
  });
  afterAll(() => h.close());

  const rewards = async (t: string) => (await h.sql<{ code: string }>(t, `SELECT code FROM ${ALIAS}."Reward" ORDER BY code`)).map((r) => r.code);
  const recorded = async (t: string) => (await h.sql<{ id: string }>(t, `SELECT id FROM ${ALIAS}._migrations ORDER BY position`)).map((r) => r.id);
  const schemaExists = async (t: string) => (await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [ALIAS])).length === 1;

  test('install runs pending migrations once, in order, in the module schema, and records them', async () => {
    const t = await h.tenant();
    const first = await h.data.install(t, pkg(MIGRATIONS));
    expect(first.migrationsRun).toEqual(['001_seed_rewards', '002_history']);
    expect(await rewards(t)).toEqual(['cap', 'mug']);
    expect(await h.sql(t, `SELECT what FROM ${ALIAS}.history`)).toEqual([{ what: 'created' }]);
    expect(await recorded(t)).toEqual(['001_seed_rewards', '002_history']);
    expect(await h.data.appliedMigrations(t, ALIAS)).toEqual(['001_seed_rewards', '002_history']);

    const again = await h.data.install(t, pkg(MIGRATIONS));
    expect(again.migrationsRun).toEqual([]);
    expect(await h.sql(t, `SELECT count(*)::int AS n FROM ${ALIAS}.history`)).toEqual([{ n: 1 }]);
    // The migration runner is gone once the install commits.
    expect(await h.sql(t, `SELECT proname FROM pg_proc WHERE pronamespace = $1::regnamespace`, [ALIAS])).toEqual([]);
  });

  test('upgrade runs only the new migrations; the tables migrations create belong to the module role', async () => {
    const t = await h.tenant();
    await h.data.install(t, pkg(MIGRATIONS));
    await h.data.bridge(t, ALIAS, LOYALTY_MODELS, 'inv')('create', ['Points', { customer: 'ada' }]);
    const report = await h.data.upgrade(t, pkg(MIGRATIONS), pkg([...MIGRATIONS, M3], FILES, LOYALTY_MODELS, '1.1.0'));
    expect(report.migrationsRun).toEqual(['003_expiry']);
    expect(await h.sql(t, `SELECT customer, expires_on::text AS expires_on FROM ${ALIAS}.points`)).toEqual([{ customer: 'ada', expires_on: '2030-01-01' }]);
    const [owner] = await h.sql<{ tableowner: string }>(t, `SELECT tableowner FROM pg_tables WHERE schemaname = $1 AND tablename = 'history'`, [ALIAS]);
    expect(owner.tableowner).toBe(`mandi_mod_${ALIAS}`);
  });

  test('a failing migration on install leaves nothing behind: no schema, tables, rows or records', async () => {
    const t = await h.tenant();
    const broken = { ...FILES, 'migrations/002.up.sql': 'CREATE TABLE history (id int); INSERT INTO no_such_table VALUES (1);' };
    const err = await rejection(h.data.install(t, pkg(MIGRATIONS, broken)));
    expect(err).toMatchObject({ code: 'MIGRATION_FAILED', status: 422, details: { module: ALIAS, migration: '002_history', direction: 'up' } });
    expect(err.message).toMatch(/Migration "002_history" \(up\) of module "md_migrate" failed: relation "no_such_table" does not exist/);
    expect(await schemaExists(t)).toBe(false);
  });

  test('a failing migration on upgrade leaves the previous version working with its data', async () => {
    const t = await h.tenant();
    await h.data.install(t, pkg(MIGRATIONS));
    const broken = { ...FILES, 'migrations/003.up.sql': 'ALTER TABLE points ADD COLUMN expires_on date; SELECT 1/0;' };
    const newModels: Data['models'] = { ...LOYALTY_MODELS, Extra: { columns: { id: { type: 'integer', primaryKey: true } } } };
    const err = await rejection(h.data.upgrade(t, pkg(MIGRATIONS), pkg([...MIGRATIONS, M3], broken, newModels, '1.1.0')));
    expect(err).toMatchObject({ code: 'MIGRATION_FAILED', details: { migration: '003_expiry' } });
    expect(err.message).toMatch(/division by zero/);
    expect(await recorded(t)).toEqual(['001_seed_rewards', '002_history']);
    expect(await h.sql(t, `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'expires_on'`, [ALIAS])).toEqual([]);
    expect(await h.sql(t, `SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Extra'`, [ALIAS])).toEqual([]);
    expect(await rewards(t)).toEqual(['cap', 'mug']);
  });

  test('rollback runs down of later migrations newest first; null rolls back all of them', async () => {
    const t = await h.tenant();
    const all = [...MIGRATIONS, M3];
    await h.data.install(t, pkg(all));
    expect(await h.data.rollback(t, pkg(all), '001_seed_rewards')).toEqual({ rolledBack: ['003_expiry', '002_history'] });
    expect(await recorded(t)).toEqual(['001_seed_rewards']);
    expect(await h.sql(t, `SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'history'`, [ALIAS])).toEqual([]);
    expect(await h.sql(t, `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND column_name = 'expires_on'`, [ALIAS])).toEqual([]);
    expect(await rewards(t)).toEqual(['cap', 'mug']);

    expect(await h.data.rollback(t, pkg(all), null)).toEqual({ rolledBack: ['001_seed_rewards'] });
    expect(await rewards(t)).toEqual([]);
    expect(await h.data.rollback(t, pkg(all), null)).toEqual({ rolledBack: [] });
    // Upgrading again re-applies them.
    expect((await h.data.install(t, pkg(all))).migrationsRun).toEqual(['001_seed_rewards', '002_history', '003_expiry']);
  });

  test('a failing down migration leaves every migration applied', async () => {
    const t = await h.tenant();
    await h.data.install(t, pkg(MIGRATIONS));
    const broken = { ...FILES, 'migrations/001.down.sql': 'DELETE FROM nowhere;' };
    const err = await rejection(h.data.rollback(t, pkg(MIGRATIONS, broken), null));
    expect(err).toMatchObject({ code: 'MIGRATION_FAILED', details: { migration: '001_seed_rewards', direction: 'down' } });
    expect(await recorded(t)).toEqual(['001_seed_rewards', '002_history']);
    expect(await h.sql(t, `SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'history'`, [ALIAS])).toHaveLength(1);
  });

  test('rollback refuses targets that were never declared or never ran', async () => {
    const t = await h.tenant();
    await h.data.install(t, pkg(MIGRATIONS.slice(0, 1)));
    expect(await rejection(h.data.rollback(t, pkg(MIGRATIONS), 'nope'))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await rejection(h.data.rollback(t, pkg(MIGRATIONS), '002_history'))).toMatchObject({ code: 'MIGRATION_NOT_APPLIED' });
  });

  test('histories the manifest contradicts are refused: inserted before applied ones, or unknown', async () => {
    const t = await h.tenant();
    await h.data.install(t, pkg([MIGRATIONS[1]]));
    const inserted = await rejection(h.data.upgrade(t, pkg([MIGRATIONS[1]]), pkg(MIGRATIONS, FILES, LOYALTY_MODELS, '1.1.0')));
    expect(inserted).toMatchObject({ code: 'MIGRATION_ORDER' });
    expect(inserted.message).toMatch(/"001_seed_rewards" is declared before "002_history", which already ran/);
    const unknown = await rejection(h.data.upgrade(t, pkg([MIGRATIONS[1]]), pkg([MIGRATIONS[0]], FILES, LOYALTY_MODELS, '0.9.0')));
    expect(unknown).toMatchObject({ code: 'MIGRATION_UNKNOWN' });
  });

  test('a package read through files.read (core\'s LoadedModule) installs the same way', async () => {
    const t = await h.tenant();
    const { manifest } = pkg(MIGRATIONS);
    const report = await h.data.install(t, { manifest, files: { read: async (p: string) => FILES[p] } });
    expect(report.migrationsRun).toEqual(['001_seed_rewards', '002_history']);
  });

  test('migration files must sit under migrations/', async () => {
    const t = await h.tenant();
    const err = await rejection(h.data.install(t, pkg([{ id: 'x', up: '../secrets.sql', down: 'migrations/x.sql' }])));
    expect(err).toMatchObject({ code: 'MIGRATION_INVALID' });
    expect(err.message).toMatch(/must be under migrations\//);
  });

  test('a migration that runs too long is cancelled and leaves nothing', async () => {
    const quick = startHarness({ migrationTimeoutMs: 300 });
    try {
      const t = await quick.tenant();
      const files = { ...FILES, 'migrations/001.up.sql': 'SELECT pg_sleep(5);' };
      const err = await rejection(quick.data.install(t, pkg(MIGRATIONS.slice(0, 1), files)));
      expect(err).toMatchObject({ code: 'MIGRATION_FAILED' });
      expect(err.message).toMatch(/canceling statement due to statement timeout/);
    } finally {
      await quick.close();
    }
  });

  test('migration SQL cannot commit or end the host transaction', async () => {
    const t = await h.tenant();
    const files = { ...FILES, 'migrations/001.up.sql': `INSERT INTO "Reward" (code, title) VALUES ('a', 'A'); COMMIT; INSERT INTO "Reward" (code, title) VALUES ('b', 'B');` };
    const err = await rejection(h.data.install(t, pkg(MIGRATIONS.slice(0, 1), files)));
    expect(err).toMatchObject({ code: 'MIGRATION_FAILED' });
    expect(await schemaExists(t)).toBe(false);
  });
});
