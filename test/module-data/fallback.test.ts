/**
 * DESIGN.md Data and core/kernel/module-data/README.md (Roles): when the database user may not create
 * roles, module migrations are refused (they would run with the platform's own rights) unless
 * MODULE_DB_ROLES=fallback-for-development allows it; either way the log says so once.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { TenantDatabases, tenantDbName } from '../../core/kernel/data/tenant-databases';
import { ModuleDataService } from '../../core/kernel/module-data';
import type { ModuleDbRoles } from '../../core/kernel/module-data/types';
import { testServerUrl } from '../support/test-platform';
import { LOYALTY_MODELS, modulePackage, rejection, serverSql, startHarness, type Harness } from './support';

const ALIAS = 'md_fallback';

const PACKAGE = modulePackage(
  ALIAS,
  { models: LOYALTY_MODELS, migrations: [{ id: '001', up: 'migrations/001.sql', down: 'migrations/001.down.sql' }] },
  { 'migrations/001.sql': `INSERT INTO "Reward" (code, title) VALUES ('m', 'Mug')`, 'migrations/001.down.sql': 'DELETE FROM "Reward"' },
);

describe('DESIGN.md Data, module-data README Roles: module data without per-module roles', () => {
  let h: Harness;
  let t: string;
  let dbs: TenantDatabases;
  const user = `md_plain_${randomBytes(4).toString('hex')}`;
  const lines: Array<{ level: number; msg: string }> = [];
  let logger: pino.Logger;
  const services: ModuleDataService[] = [];
  const service = (roles?: ModuleDbRoles) => {
    const data = new ModuleDataService(dbs, logger, roles && { roles });
    services.push(data);
    return data;
  };

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
    logger = pino({ level: 'warn' }, sink);
    dbs = new TenantDatabases({ serverUrl: databaseUrl(url.toString(), 'postgres'), maxTotal: 20, maxPerTenant: 5, idleMs: 60_000, logger, coreMigrations: false });
  });
  beforeEach(() => (lines.length = 0));
  afterAll(async () => {
    for (const data of services) await data.close();
    await dbs.close();
    await h.close();
    await serverSql(`DROP ROLE IF EXISTS ${user}`);
  });

  test('by default (MODULE_DB_ROLES=required) migrations are refused, naming the missing right and the setting', async () => {
    const data = service();
    const err = await rejection(data.install(t, PACKAGE));
    expect(err).toMatchObject({ code: 'DB_ROLES_REQUIRED', details: { module: ALIAS, setting: 'MODULE_DB_ROLES' } });
    expect(err.message).toMatch(/may not create roles \(it needs SUPERUSER or CREATEROLE\).*MODULE_DB_ROLES=fallback-for-development/);
    expect(await h.sql(t, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [ALIAS])).toEqual([]);
    // Models alone need no SQL of the module's: they install, and host.db works with the host's checks.
    const models = modulePackage(ALIAS, { models: LOYALTY_MODELS });
    expect((await data.install(t, models)).tablesCreated).toHaveLength(2);
    await expect(data.bridge(t, ALIAS, LOYALTY_MODELS, 'call')('count', ['Reward', {}])).resolves.toBe(0);
    const warnings = lines.filter((l) => /may not create roles/.test(l.msg));
    expect(warnings).toHaveLength(1);
    expect(warnings[0].msg).toMatch(/module migrations are refused \(MODULE_DB_ROLES=required\)/);
    await data.uninstall(t, ALIAS, { purge: true });
  });

  test('MODULE_DB_ROLES=fallback-for-development: install, migrations and host.db work; one warning says isolation rests on the host', async () => {
    const data = service('fallback-for-development');
    expect((await data.install(t, PACKAGE)).migrationsRun).toEqual(['001']);
    expect((await data.install(t, PACKAGE)).migrationsRun).toEqual([]);
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
