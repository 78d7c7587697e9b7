/**
 * DESIGN.md Data ("A module reaches data only through host.db, scoped to its own schema") and
 * core/kernel/module-data/README.md, Defence layers. A module attacks through its migrations: the first
 * turns `standard_conforming_strings` off for the rest of the install (so that a string literal
 * read by the host changes meaning), the second arms its table's defaults so that the next
 * host.db.create leaves the module role and reads core's rows, another module's rows and a
 * server file into the row it gets back.
 */
import { Client } from 'pg';
import { QueryTypes } from 'sequelize';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { auditSchema } from '../../core/kernel/module-data/migration-audit';
import { SandboxRuntime } from '../../sandbox';
import { TestBridge } from '../../sandbox/testing';
import { installLoyalty, modulePackage, startHarness, type Harness } from '../module-data/support';
import { testServerUrl } from '../support/test-platform';
import { fixture } from './support';

const ALIAS = 'md_escape';
const VICTIM = 'md_escape_victim';
const KEY = `${ALIAS}@1.0.0`;

const text = { type: 'text' } as const;
const MODELS = { Loot: { table: 'loot', columns: { id: { type: 'integer', primaryKey: true }, role_reset: text, core_rows: text, victim_rows: text, server_file: text } } } as const;

/** Defaults run in column order: the first drops the module role, the others read as the platform. */
const ARM_DEFAULTS = `
  ALTER TABLE loot ALTER COLUMN role_reset SET DEFAULT pg_catalog.set_config('role', 'none', true);
  ALTER TABLE loot ALTER COLUMN core_rows SET DEFAULT pg_catalog.query_to_xml('SELECT action FROM public.activity_log', true, false, '')::text;
  ALTER TABLE loot ALTER COLUMN victim_rows SET DEFAULT pg_catalog.query_to_xml('SELECT customer FROM ${VICTIM}.points', true, false, '')::text;
  ALTER TABLE loot ALTER COLUMN server_file SET DEFAULT pg_catalog.query_to_xml('SELECT pg_catalog.pg_read_file(''PG_VERSION'')', true, false, '')::text;`;

const escapePackage = (settings: string) =>
  modulePackage(
    ALIAS,
    {
      models: MODELS,
      migrations: [
        { id: '001_settings', up: 'migrations/001.sql', down: 'migrations/none.sql' },
        { id: '002_defaults', up: 'migrations/002.sql', down: 'migrations/none.sql' },
      ],
    },
    { 'migrations/001.sql': settings, 'migrations/002.sql': ARM_DEFAULTS, 'migrations/none.sql': '' },
  );

/** A client of the tenant database as the server's superuser, for setting a session up by hand. */
async function superClient(tenantId: string): Promise<Client> {
  const client = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(tenantId)) });
  await client.connect();
  return client;
}

describe('DESIGN.md Data: a module migration cannot make host.db leave the module role', () => {
  let h: Harness;
  const runtime = new SandboxRuntime();

  beforeAll(() => {
    h = startHarness();
    runtime.load(KEY, fixture('migration-escape'), { timeoutMs: 20_000 });
  });
  afterAll(async () => {
    runtime.dispose();
    await h.close();
  });

  /** A tenant holding a secret in core's tables and one in another module's. */
  const victimTenant = async () => {
    const victim = await installLoyalty(h, VICTIM);
    await victim.bridge('seed')('create', ['Points', { customer: 'victim-secret', amount: '1.00' }]);
    await h.sql(victim.id, `INSERT INTO public.activity_log (action) VALUES ('core-secret')`);
    return victim.id;
  };

  /** The module's operation, calling the real host.db of tenant t. */
  const grab = (t: string, id: number) => {
    const bridge = new TestBridge();
    const db = h.data.bridge(t, ALIAS, MODELS, `grab-${id}`);
    bridge.db = (method, args, txId) => db(method, args, txId);
    return runtime.invoke(KEY, { tenantId: t, kind: 'operation', name: 'grab', input: { id }, caller: 'http', user: null, bridge });
  };

  test.each([
    ['standard_conforming_strings off', 'SET standard_conforming_strings = off'],
    ['standard_conforming_strings off with set_config', `SELECT pg_catalog.set_config('standard_conforming_strings', 'off', false)`],
    ['standard_conforming_strings off until the transaction ends', 'SET LOCAL standard_conforming_strings = off'],
  ])('after a migration sets %s, the armed defaults are refused and host.db.create returns nothing of others', async (_name, settings) => {
    const t = await victimTenant();
    const installed = await h.data.install(t, escapePackage(settings)).then(
      () => null,
      (err: { code: string; message: string }) => err,
    );
    const answer = await grab(t, 1).then(
      (row) => ({ row }),
      (err: { details: { code: string } }) => ({ refused: err.details.code }),
    );
    const shown = JSON.stringify(answer);
    expect(shown).not.toMatch(/core-secret|victim-secret/);
    expect(shown).not.toMatch(/<pg_read_file>/);
    expect(answer).toEqual({ refused: 'DB_NOT_INSTALLED' });

    expect(installed).toMatchObject({ code: 'MIGRATION_REFUSED' });
    expect(installed!.message).toMatch(/default of loot\.role_reset calls set_config\(text,text,boolean\)/);
    expect(installed!.message).toMatch(/default of loot\.core_rows calls query_to_xml/);
    expect(await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [ALIAS])).toEqual([]);
  });

  test('a migration’s session settings reach neither the later migrations nor host.db on pooled connections', async () => {
    const t = await victimTenant();
    const names = ['standard_conforming_strings', 'DateStyle', 'IntervalStyle', 'TimeZone', 'extra_float_digits', 'bytea_output', 'lock_timeout', 'default_transaction_read_only', 'transform_null_equals', 'escape_string_warning'];
    const setAll = `SET standard_conforming_strings = off; SET DateStyle = 'SQL, DMY'; SET IntervalStyle = 'sql_standard'; SET TimeZone = 'Pacific/Kiritimati';
      SET extra_float_digits = -15; SET bytea_output = 'escape'; SET lock_timeout = 1; SET default_transaction_read_only = on; SET transform_null_equals = on;
      SET escape_string_warning = off; SELECT pg_catalog.set_config('mandi.leak', 'leaked', false); SET statement_timeout = 1`;
    // The second migration keeps what it saw in a table of its own.
    const record = `CREATE TABLE seen AS SELECT s.name, pg_catalog.current_setting(s.name, true) AS setting
      FROM pg_catalog.unnest(ARRAY['${names.join("', '")}', 'mandi.leak', 'statement_timeout']) AS s(name)`;
    const models = { Probe: { table: 'probe', columns: { id: { type: 'integer', primaryKey: true }, at: { type: 'datetime' } } } } as const;
    const pkg = modulePackage(
      'md_settings',
      { models, migrations: [{ id: '001_set', up: 'migrations/001.sql', down: 'migrations/none.sql' }, { id: '002_record', up: 'migrations/002.sql', down: 'migrations/none.sql' }] },
      { 'migrations/001.sql': setAll, 'migrations/002.sql': record, 'migrations/none.sql': '' },
    );
    expect((await h.data.install(t, pkg)).migrationsRun).toEqual(['001_set', '002_record']);

    const seen = new Map((await h.sql<{ name: string; setting: string | null }>(t, 'SELECT name, setting FROM md_settings.seen')).map((r) => [r.name, r.setting]));
    const fresh = await h.sql<{ name: string; setting: string }>(t, 'SELECT s.name, pg_catalog.current_setting(s.name) AS setting FROM pg_catalog.unnest($1::text[]) AS s(name)', [names]);
    for (const { name, setting } of fresh) expect([name, seen.get(name)]).toEqual([name, setting]);
    expect(seen.get('mandi.leak') ?? '').toBe('');
    expect(seen.get('statement_timeout')).toBe('10min'); // the host's own limit for schema work

    // host.db works (no read-only default, no 1 ms timeouts) and every pooled connection is clean.
    const db = h.data.bridge(t, 'md_settings', models, 'after-install');
    await expect(db('create', ['Probe', { id: 1, at: '2025-01-02T03:04:05.000Z' }])).resolves.toEqual({ id: 1, at: '2025-01-02T03:04:05.000Z' });
    await expect(db('find', ['Probe', {}])).resolves.toEqual([{ id: 1, at: '2025-01-02T03:04:05.000Z' }]);
    const pooled = await h.dbs.with(t, (pool) =>
      Promise.all(
        Array.from({ length: 20 }, () =>
          pool.query(`SELECT pg_catalog.current_setting('mandi.leak', true) AS leak, pg_catalog.current_setting('standard_conforming_strings') AS scs, pg_catalog.pg_sleep(0.05)::text AS slept`, {
            type: QueryTypes.SELECT,
          }),
        ),
      ),
    );
    for (const [row] of pooled as Array<Array<{ leak: string | null; scs: string }>>) expect(row).toMatchObject({ leak: null, scs: 'on' });
  });

  test('the audit finds the armed defaults whatever the session settings it runs under', async () => {
    const t = await victimTenant();
    const client = await superClient(t);
    try {
      await client.query('BEGIN');
      await client.query(`CREATE SCHEMA ${ALIAS}; SET LOCAL search_path TO ${ALIAS}; CREATE TABLE loot (id int, role_reset text, core_rows text, victim_rows text, server_file text)`);
      await client.query(ARM_DEFAULTS);
      await client.query(`SET LOCAL standard_conforming_strings = off; SET LOCAL search_path TO ${ALIAS}, pg_catalog; SET LOCAL DateStyle = 'SQL, DMY'; SET LOCAL extra_float_digits = -15`);
      const problems = await auditSchema(client, ALIAS, ['loot']);
      expect(problems).toEqual(
        expect.arrayContaining([
          'default of loot.role_reset calls set_config(text,text,boolean)',
          'default of loot.core_rows calls query_to_xml(text,boolean,boolean,text)',
          'default of loot.victim_rows calls query_to_xml(text,boolean,boolean,text)',
          'default of loot.server_file calls query_to_xml(text,boolean,boolean,text)',
        ]),
      );
    } finally {
      await client.query('ROLLBACK');
      await client.end();
    }
  });
});
