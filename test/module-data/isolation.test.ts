/**
 * DESIGN.md, Data ("A module reaches data only through host.db, scoped to its own schema in the
 * current tenant's database") and issue 3, item 5 ("A module can never read or write another
 * module's schema, another tenant's database, or the central database: enforced by the host, and,
 * as defence in depth, by a PostgreSQL role per module") with the "Done means" line on raw access
 * to another module's schema and to another tenant's rows. Module-written SQL reaches the database
 * only as migrations, so the hostile module here attacks through its migration SQL.
 */
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import type { Data } from '../../sdk/manifest/manifest.types';
import { installLoyalty, LOYALTY_MODELS, modulePackage, rejection, startHarness, type Harness } from './support';

const VICTIM = 'md_victim';
const HOSTILE = 'md_hostile';

const hostile = (sql: string, data: Partial<Data> = {}) =>
  modulePackage(
    HOSTILE,
    { models: { Note: { table: 'notes', columns: { id: { type: 'integer', primaryKey: true }, body: { type: 'text' } } } }, migrations: [{ id: '001_attack', up: 'migrations/001.sql', down: 'migrations/001.down.sql' }], ...data },
    { 'migrations/001.sql': sql, 'migrations/001.down.sql': '' },
  );

describe('DESIGN.md Data / issue 3 item 5: a module reaches only its own schema in its own tenant', () => {
  let h: Harness;
  let t: string;

  beforeAll(async () => {
    h = startHarness();
    const victim = await installLoyalty(h, VICTIM);
    t = victim.id;
    await victim.bridge('seed')('create', ['Points', { customer: 'secret-customer', amount: '1000.00' }]);
    await h.sql(t, `INSERT INTO public.activity_log (action) VALUES ('core secret')`);
  });
  afterAll(() => h.close());

  const attackFails = async (sql: string, message: RegExp, code = 'MIGRATION_FAILED') => {
    const err = await rejection(h.data.install(t, hostile(sql)));
    expect(err).toMatchObject({ code });
    expect(err.message).toMatch(message);
    // Nothing of the hostile module is left behind, and the victim is untouched.
    expect(await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [HOSTILE])).toEqual([]);
    expect(await h.sql(t, `SELECT customer, amount::text FROM ${VICTIM}.points`)).toEqual([{ customer: 'secret-customer', amount: '1000.00' }]);
  };

  test.each([
    ['read another module’s table', `SELECT * FROM ${VICTIM}.points`, /permission denied for schema md_victim/],
    ['read core’s activity log', 'SELECT * FROM public.activity_log', /permission denied for table activity_log/],
    ['copy core rows into its own table', `INSERT INTO notes (id, body) SELECT id, action FROM public.activity_log`, /permission denied for table activity_log/],
    ['write another module’s table', `UPDATE ${VICTIM}.points SET amount = 0`, /permission denied for schema md_victim/],
    ['drop another module’s schema', `DROP SCHEMA ${VICTIM} CASCADE`, /must be owner of schema md_victim/],
    ['write core’s tables', `INSERT INTO public.activity_log (action) VALUES ('forged')`, /permission denied for table activity_log/],
    ['create tables in public', 'CREATE TABLE public.evil (id int)', /permission denied for schema public/],
    ['reset its role first', 'RESET ROLE; SELECT * FROM public.activity_log', /cannot set parameter "role" within security-definer function/],
    ['switch to the superuser role', 'SET ROLE postgres', /cannot set parameter "role" within security-definer function/],
    ['switch role with set_config', `SELECT set_config('role', 'postgres', false)`, /cannot set parameter "role" within security-definer function/],
    ['change session authorization', 'SET SESSION AUTHORIZATION postgres', /cannot set parameter "session_authorization"/],
    ['create a temporary table to shadow core tables', 'CREATE TEMP TABLE activity_log (id int)', /permission denied to create temporary tables/],
    ['grant itself the victim’s role', `GRANT mandi_mod_${VICTIM} TO mandi_mod_${HOSTILE}`, /permission denied to grant role|must have admin option/],
    ['load dblink to reach other databases', 'CREATE EXTENSION dblink', /permission denied|not available|could not open extension control file/],
  ])('a migration cannot %s', async (_name, sql, message) => {
    await attackFails(sql, message);
  });

  test('a migration cannot reach another database: not another tenant, not the central one', async () => {
    const { id: other } = await installLoyalty(h, VICTIM);
    await attackFails(`SELECT * FROM ${tenantDbName(other)}.${VICTIM}.points`, /cross-database references are not implemented/);
    await attackFails('SELECT * FROM postgres.public.pg_class', /cross-database references are not implemented/);
  });

  test.each([
    ['a function', `CREATE FUNCTION notes_fn() RETURNS int LANGUAGE sql AS 'SELECT 1'`, /function md_hostile\.notes_fn\(\)/],
    [
      'a trigger',
      `CREATE TABLE t2 (id int); CREATE TRIGGER tr BEFORE INSERT ON t2 FOR EACH ROW EXECUTE FUNCTION suppress_redundant_updates_trigger()`,
      /trigger tr on t2/,
    ],
    ['a rule', `CREATE RULE r AS ON INSERT TO notes DO ALSO SELECT set_config('role', 'postgres', true)`, /rule r on notes/],
    ['a default that switches role', `ALTER TABLE notes ALTER COLUMN body SET DEFAULT set_config('role', 'postgres', true)`, /default of notes\.body calls set_config/],
    ['a check that runs SQL', `ALTER TABLE notes ADD CONSTRAINT c CHECK (query_to_xml('select 1', true, true, '') IS NOT NULL)`, /constraint c calls query_to_xml/],
    ['a domain with a check', `CREATE DOMAIN d AS text CHECK (VALUE <> ''); CREATE TABLE t3 (x d)`, /domain d/],
    ['a policy', `ALTER TABLE notes ENABLE ROW LEVEL SECURITY; CREATE POLICY p ON notes USING (true)`, /policy p on notes/],
    ['a view in place of a model table', `DROP TABLE notes; CREATE VIEW notes AS SELECT 1 AS id, set_config('role', 'postgres', true) AS body`, /notes is no longer a table/],
  ])('a migration cannot leave %s that host.db statements would run', async (_name, sql, problem) => {
    await attackFails(sql, problem, 'MIGRATION_REFUSED');
  });

  test('a view, default or check that uses a function outside pg_catalog (an extension’s, say) is refused', async () => {
    await h.sql(t, `CREATE FUNCTION public.md_ext_fn() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 1'`);
    try {
      await attackFails('CREATE VIEW v AS SELECT public.md_ext_fn() AS n', /view v calls public\.md_ext_fn\(\)/, 'MIGRATION_REFUSED');
      await attackFails('ALTER TABLE notes ADD COLUMN n int DEFAULT public.md_ext_fn()', /default of notes\.n calls public\.md_ext_fn\(\)/, 'MIGRATION_REFUSED');
      await attackFails('ALTER TABLE notes ADD CONSTRAINT c CHECK (id <> public.md_ext_fn())', /constraint c calls public\.md_ext_fn\(\)/, 'MIGRATION_REFUSED');
    } finally {
      await h.sql(t, 'DROP FUNCTION public.md_ext_fn()');
    }
  });

  test('plain schema work in its own schema is allowed: tables, views, indexes, sequences, defaults', async () => {
    const report = await h.data.install(
      t,
      hostile(`CREATE TABLE audit (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, at timestamptz DEFAULT now(), body text CHECK (length(body) < 100));
               CREATE SEQUENCE counter; CREATE VIEW recent AS SELECT * FROM audit; CREATE INDEX audit_at_idx ON audit (at);
               ALTER TABLE notes ALTER COLUMN body SET DEFAULT 'empty';`),
    );
    expect(report.migrationsRun).toEqual(['001_attack']);
    await h.data.uninstall(t, HOSTILE, { purge: true });
  });

  test('the module role itself has no rights outside its schema, whatever the host does', async () => {
    await installLoyalty(h, HOSTILE, t);
    const asRole = (sql: string) => h.sql(t, `BEGIN; SET LOCAL ROLE mandi_mod_${HOSTILE}; ${sql}; COMMIT;`);
    await expect(asRole(`SELECT * FROM ${VICTIM}.points`)).rejects.toThrow(/permission denied for schema md_victim/);
    await expect(asRole('SELECT * FROM public.activity_log')).rejects.toThrow(/permission denied for table activity_log/);
    await expect(asRole(`SELECT * FROM ${HOSTILE}._migrations`)).rejects.toThrow(/permission denied for table _migrations/);
    await asRole(`SELECT count(*) FROM ${HOSTILE}.points`); // its own tables: allowed
    await h.data.uninstall(t, HOSTILE, { purge: true });
  });

  test('host.db maps model names to the module’s own schema only; declaring another module’s tables reaches nothing of it', async () => {
    // Same model and table names as the victim: the queries land in md_hostile.points.
    const db = (await installLoyalty(h, HOSTILE, t)).bridge('hostile-call');
    expect(await db('find', ['Points', {}])).toEqual([]);
    expect(await db('update', ['Points', { amount: '0' }, { where: {} }])).toBe(0);
    // A module whose data is not installed gets a clear error, not another schema.
    const ghost = h.data.bridge(t, 'md_ghost', LOYALTY_MODELS, 'ghost-call');
    expect(await rejection(ghost('find', ['Points', {}]))).toMatchObject({ code: 'DB_NOT_INSTALLED' });
    expect(await h.sql(t, `SELECT amount::text FROM ${VICTIM}.points`)).toEqual([{ amount: '1000.00' }]);
    await h.data.uninstall(t, HOSTILE, { purge: true });
  });

  test('two tenants never see each other’s rows', async () => {
    const one = await installLoyalty(h, VICTIM);
    const two = await installLoyalty(h, VICTIM);
    const db1 = one.bridge('call-1');
    const db2 = two.bridge('call-2');
    await db1('create', ['Points', { customer: 'only-in-t1' }]);
    await db2('bulkCreate', ['Points', [{ customer: 'only-in-t2' }, { customer: 'also-t2' }]]);
    expect(await db1('find', ['Points', { attributes: ['customer'] }])).toEqual([{ customer: 'only-in-t1' }]);
    expect(await db2('count', ['Points', {}])).toBe(2);
    expect(await db2('find', ['Points', { where: { customer: 'only-in-t1' } }])).toEqual([]);
    expect(await db1('destroy', ['Points', { where: {} }])).toBe(1);
    expect(await db2('count', ['Points', {}])).toBe(2);
    // Sequences are per tenant as well.
    expect([await db1('sequence', ['n']), await db1('sequence', ['n']), await db2('sequence', ['n'])]).toEqual([1, 2, 1]);
    // A transaction of one tenant is unknown to the other.
    const tx = (await db1('tx.begin', [])) as string;
    expect(await rejection(two.bridge('call-1')('find', ['Points', {}], tx))).toMatchObject({ code: 'DB_TX_CLOSED' });
    await db1('tx.rollback', [], tx);
  });
});
