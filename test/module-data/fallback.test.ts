/**
 * Issue 3, item 5, and core/module-data/README.md: when the database user may not create roles,
 * module data still works with the host's own checks, and says so once in the log.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { databaseUrl } from '../../core/data/pg-admin';
import { TenantDatabases, tenantDbName } from '../../core/data/tenant-databases';
import { ModuleDataService } from '../../core/module-data';
import { testServerUrl } from '../support/test-platform';
import { LOYALTY_MODELS, modulePackage, serverSql, startHarness, type Harness } from './support';

const ALIAS = 'md_fallback';

describe('issue 3 item 5: module data without per-module roles', () => {
  let h: Harness;
  let t: string;
  let dbs: TenantDatabases;
  let data: ModuleDataService;
  const user = `md_plain_${randomBytes(4).toString('hex')}`;
  const lines: Array<{ level: number; msg: string }> = [];

  beforeAll(async () => {
    h = startHarness();
    t = await h.tenant();
    // An ordinary user (no SUPERUSER, no CREATEROLE) that may create schemas in the tenant database.
    await h.sql(t, `CREATE ROLE ${user} LOGIN PASSWORD 'plain-pw'; GRANT CREATE ON DATABASE ${tenantDbName(t)} TO ${user}`);
    const url = new URL(testServerUrl());
    url.username = user;
    url.password = 'plain-pw';
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'warn' }, sink);
    dbs = new TenantDatabases({ serverUrl: databaseUrl(url.toString(), 'postgres'), maxTotal: 20, maxPerTenant: 5, idleMs: 60_000, logger, coreMigrations: false });
    data = new ModuleDataService(dbs, logger);
  });
  afterAll(async () => {
    await data.close();
    await dbs.close();
    await h.close();
    await serverSql(`DROP ROLE IF EXISTS ${user}`);
  });

  test('install, migrations and host.db work; one warning says isolation rests on the host', async () => {
    const pkg = modulePackage(
      ALIAS,
      { models: LOYALTY_MODELS, migrations: [{ id: '001', up: 'migrations/001.sql', down: 'migrations/001.down.sql' }] },
      { 'migrations/001.sql': `INSERT INTO "Reward" (code, title) VALUES ('m', 'Mug')`, 'migrations/001.down.sql': 'DELETE FROM "Reward"' },
    );
    expect((await data.install(t, pkg)).migrationsRun).toEqual(['001']);
    expect((await data.install(t, pkg)).migrationsRun).toEqual([]);
    const db = data.bridge(t, ALIAS, LOYALTY_MODELS, 'call');
    expect(await db('find', ['Reward', {}])).toEqual([{ code: 'm', title: 'Mug', cost: null }]);
    expect(await db('sequence', ['n'])).toBe(1);

    const warnings = lines.filter((l) => /may not create roles/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/isolation rests on the host checks alone/);
    const [owner] = await h.sql<{ tableowner: string }>(t, `SELECT tableowner FROM pg_tables WHERE schemaname = $1 AND tablename = 'points'`, [ALIAS]);
    expect(owner.tableowner).toBe(user);
    // Host checks still stand: only declared models, only its own schema.
    await expect(db('find', ['activity_log', {}])).rejects.toMatchObject({ code: 'DB_INVALID_QUERY' });
    await data.uninstall(t, ALIAS, { purge: true });
  });
});
