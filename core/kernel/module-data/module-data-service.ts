/**
 * Module data (DESIGN.md, Data; issue 3 item 5): each module's declared models become tables in a
 * PostgreSQL schema named after it, in every tenant database that installs it; its migrations run
 * there under its own role; and `bridge()` gives its sandbox `host.db`, reaching only those tables.
 * See README.md in this folder for the rules a module author and an operator need to know.
 */
import { createHash } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { TenantDatabases } from '../data/tenant-databases';
import { notFound } from '../errors';
import { dataErrors } from './db-errors';
import type { Logger } from '../logger';
import { resetSettings, withAdminTransaction, type AdminClient } from './admin-connection';
import { createBridge, type BridgeDeps } from './bridge';
import { compileModels } from './compile-models';
import { auditSchema } from './migration-audit';
import {
  appliedMigrations,
  checksumOf,
  createRunner,
  dropRunner,
  pendingMigrations,
  readMigrationSql,
  runMigration,
} from './migration-runner';
import { ModuleRoles } from './module-role';
import { checkAlias, ident, MIGRATIONS_TABLE, qualified, roleOf } from './names';
import { syncSchema } from './schema-sync';
import { TransactionRegistry } from './transactions';
import type { CompiledModels, DataChangeReport, DbBridge, ManifestModels, ModuleDataOptions, ModulePackage, RollbackReport } from './types';

// pg_advisory_xact_lock(namespace, alias hash): one schema change per module and tenant at a time.
const LOCK_NAMESPACE = 727010;
const lockKey = (alias: string) => createHash('sha256').update(alias).digest().readInt32BE(0);

function readerOf(pkg: ModulePackage): (path: string) => Promise<string> {
  if (pkg.readFile) return (p) => pkg.readFile!(p);
  if (pkg.files) return (p) => pkg.files!.read(p);
  return async (p) => {
    throw new Error(`the package gives no way to read ${p}`);
  };
}

const currentDatabase = async (client: AdminClient): Promise<string> => (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;

export class ModuleDataService {
  private readonly logger: Logger;
  private readonly roles: ModuleRoles;
  private readonly txs: TransactionRegistry;
  private readonly bridgeDeps: BridgeDeps;
  private readonly limits: { maxLimit: number; defaultLimit: number; maxInList: number; maxBulkRows: number };
  /** Session settings of schema work, set again after every migration (admin-connection.ts). */
  private readonly schemaWorkSettings: Record<string, string>;

  constructor(
    private readonly dbs: TenantDatabases,
    logger: Logger,
    options: ModuleDataOptions = {},
  ) {
    this.logger = logger.child({ part: 'module-data' });
    // statement_timeout bounds each statement: a migration that hangs (or sleeps) is cancelled
    // instead of holding the lock. search_path: the host's own statements resolve built-ins only.
    this.schemaWorkSettings = { statement_timeout: String(Math.floor(options.migrationTimeoutMs ?? 600_000)), search_path: 'pg_catalog, pg_temp' };
    this.roles = new ModuleRoles(options.roles ?? 'required', this.logger);
    this.txs = new TransactionRegistry({ timeoutMs: options.txTimeoutMs ?? 30_000, maxPerOwner: options.maxOpenTransactionsPerOwner ?? 4 }, this.logger);
    this.limits = {
      maxLimit: options.maxLimit ?? 1000,
      defaultLimit: Math.min(options.defaultLimit ?? 100, options.maxLimit ?? 1000),
      maxInList: options.maxInList ?? 1000,
      maxBulkRows: options.maxBulkRows ?? 1000,
    };
    this.bridgeDeps = {
      dbs,
      txs: this.txs,
      statementTimeoutMs: options.statementTimeoutMs ?? 10_000,
      rolesEnabled: (db: Sequelize) => this.roles.enabled((sql) => db.query(sql, { type: QueryTypes.SELECT })),
    };
  }

  /**
   * Creates the module's schema, tables, indexes and host tables in the tenant database and runs
   * its pending migrations, all in one transaction. Running it again changes nothing.
   */
  async install(tenantId: string, module: ModulePackage): Promise<DataChangeReport> {
    return this.apply(tenantId, module);
  }

  /**
   * Moves the tenant to another version of the module: adds the tables, columns and indexes the
   * new version declares (nothing is dropped; the data stays) and runs its new migrations.
   */
  async upgrade(tenantId: string, from: ModulePackage, to: ModulePackage): Promise<DataChangeReport> {
    if (from.manifest.name !== to.manifest.name) {
      throw dataErrors.otherModule(from.manifest.name, to.manifest.name);
    }
    const report = await this.apply(tenantId, to);
    this.logDropped(tenantId, compileModels(from.manifest.name, from.manifest.data?.models), compileModels(to.manifest.name, to.manifest.data?.models));
    return report;
  }

  /**
   * Runs `down` of every applied migration after `toMigrationId` (all of them for null), newest
   * first, in one transaction. The module version given must declare those migrations.
   */
  async rollback(tenantId: string, module: ModulePackage, toMigrationId: string | null): Promise<RollbackReport> {
    const alias = checkAlias(module.manifest.name);
    const compiled = compileModels(alias, module.manifest.data?.models);
    const declared = module.manifest.data?.migrations ?? [];
    const position = new Map(declared.map((m, i) => [m.id, i]));
    if (toMigrationId !== null && !position.has(toMigrationId)) {
      throw notFound(`Module "${alias}" declares no migration "${toMigrationId}".`, { module: alias, migration: toMigrationId });
    }
    const read = readerOf(module);
    return withAdminTransaction(this.dbs, tenantId, async (client) => {
      await this.lock(client, alias);
      await this.requireSchema(client, alias);
      const role = await this.roles.ensure(client, alias);
      const applied = await appliedMigrations(client, alias);
      pendingMigrations(alias, declared, applied); // refuses histories this version does not know
      if (toMigrationId !== null && !applied.some((a) => a.id === toMigrationId)) {
        throw dataErrors.migrationNotApplied(alias, toMigrationId);
      }
      const floor = toMigrationId === null ? -1 : position.get(toMigrationId)!;
      const undo = applied.map((a) => position.get(a.id)!).filter((i) => i > floor).sort((a, b) => b - a);
      if (!undo.length) return { rolledBack: [] };
      this.roles.requireForMigrations(alias, role);
      await createRunner(client, alias, role);
      for (const i of undo) {
        const m = declared[i];
        const sql = await readMigrationSql(alias, read, m.down);
        await runMigration(client, alias, { id: m.id, position: i }, 'down', sql, '', this.schemaWorkSettings);
      }
      await dropRunner(client, alias);
      await this.audit(client, compiled, true);
      this.logger.info({ tenantId, module: alias, rolledBack: undo.map((i) => declared[i].id) }, 'module migrations rolled back');
      return { rolledBack: undo.map((i) => declared[i].id) };
    });
  }

  /** Without purge the schema and its data stay for a later reinstall; purge drops the schema. */
  async uninstall(tenantId: string, alias: string, opts: { purge?: boolean } = {}): Promise<void> {
    checkAlias(alias);
    if (!opts.purge) return;
    await withAdminTransaction(this.dbs, tenantId, async (client) => {
      await this.lock(client, alias);
      await client.query(`DROP SCHEMA IF EXISTS ${ident(alias)} CASCADE`);
    });
    this.logger.info({ tenantId, module: alias }, 'module data purged');
  }

  /** Ids of the module's migrations that have run in the tenant, in order. */
  async appliedMigrations(tenantId: string, alias: string): Promise<string[]> {
    checkAlias(alias);
    return this.dbs.with(tenantId, async (db) => {
      const found = await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', { bind: [alias], type: QueryTypes.SELECT });
      if (!found.length) return [];
      const rows = await db.query<{ id: string }>(`SELECT id FROM ${qualified(alias, MIGRATIONS_TABLE)} ORDER BY position, ran_at`, { type: QueryTypes.SELECT });
      return rows.map((r) => r.id);
    });
  }

  /**
   * The function the sandbox host bridge calls for `host.db` in one invocation:
   * `(method, args, txId?)`. `models` is the module version's `data.models`; `ownerKey` names the
   * invocation (e.g. its id): transactions it begins are bound to it, and `releaseAll(ownerKey)`,
   * which the bus calls when the invocation ends, rolls back any it left open.
   */
  bridge(tenantId: string, alias: string, models: ManifestModels | undefined, ownerKey: string): DbBridge {
    if (typeof ownerKey !== 'string' || !ownerKey) throw new TypeError('bridge() needs an ownerKey naming the invocation');
    const compiled = compileModels(alias, models);
    return createBridge(this.bridgeDeps, { tenantId, alias, ownerKey }, { compiled, limits: this.limits });
  }

  /**
   * Runs `fn` in one transaction on a private connection as the module's role, with its schema as
   * search path (materialized views: refresh and read, see materialized-views.ts). Host-written SQL
   * only; the module never supplies SQL text.
   */
  async asModule<T>(tenantId: string, alias: string, fn: (client: AdminClient) => Promise<T>, opts: { timeoutMs?: number; temporaryTables?: boolean } = {}): Promise<T> {
    checkAlias(alias);
    return withAdminTransaction(this.dbs, tenantId, async (client) => {
      const roles = await this.roles.enabled(async (sql) => (await client.query(sql)).rows);
      // REFRESH … CONCURRENTLY builds its diff in a temporary table owned by the view's owner.
      // TEMPORARY is revoked from module roles (a temp table could outlive a migration on a pooled
      // connection); here it is granted and revoked inside this one transaction, on a private
      // connection that is destroyed afterwards, so nothing of it is ever committed or reused.
      const temp = roles && opts.temporaryTables;
      if (temp) await client.query(`GRANT TEMPORARY ON DATABASE ${ident(await currentDatabase(client))} TO ${ident(roleOf(alias))}`);
      if (roles) await client.query(`SET LOCAL ROLE ${ident(roleOf(alias))}`);
      await client.query(`SET LOCAL search_path TO ${ident(alias)}`);
      await client.query(`SET LOCAL statement_timeout = ${Math.floor(opts.timeoutMs ?? 600_000)}`);
      const result = await fn(client);
      if (temp) {
        await client.query('RESET ROLE');
        await client.query(`REVOKE TEMPORARY ON DATABASE ${ident(await currentDatabase(client))} FROM ${ident(roleOf(alias))}`);
      }
      return result;
    });
  }

  /** Rolls back every transaction `ownerKey` left open; resolves to how many there were. */
  releaseAll(ownerKey: string): Promise<number> {
    return this.txs.releaseAll(ownerKey);
  }

  /** Rolls back every open transaction (shutdown). */
  close(): Promise<void> {
    return this.txs.closeAll();
  }

  private async apply(tenantId: string, module: ModulePackage): Promise<DataChangeReport> {
    const alias = checkAlias(module.manifest.name);
    const compiled = compileModels(alias, module.manifest.data?.models);
    const declared = module.manifest.data?.migrations ?? [];
    const read = readerOf(module);
    const report = await withAdminTransaction(this.dbs, tenantId, async (client) => {
      await this.lock(client, alias);
      const role = await this.roles.ensure(client, alias);
      const { drift, ...sync } = await syncSchema(client, compiled, role);
      const applied = await appliedMigrations(client, alias);
      const pending = pendingMigrations(alias, declared, applied);
      await this.checkEdited(tenantId, alias, read, declared, applied);
      if (pending.length) {
        this.roles.requireForMigrations(alias, role);
        await createRunner(client, alias, role);
        for (const m of pending) {
          const sql = await readMigrationSql(alias, read, m.up);
          await runMigration(client, alias, { id: m.id, position: declared.indexOf(m) }, 'up', sql, checksumOf(sql), this.schemaWorkSettings);
        }
        await dropRunner(client, alias);
      }
      await this.audit(client, compiled, false);
      if (drift.length) this.logger.warn({ tenantId, module: alias, drift }, 'declared column types differ from the tables; change them with a migration');
      return { ...sync, migrationsRun: pending.map((m) => m.id) };
    });
    const changed = report.schemaCreated || report.tablesCreated.length || report.columnsAdded.length || report.indexesCreated.length || report.migrationsRun.length;
    if (changed) this.logger.info({ tenantId, module: `${alias}@${module.manifest.version}`, ...report }, 'module data installed');
    return report;
  }

  /** Serialises schema work per module and tenant, then sets its session settings. */
  private async lock(client: AdminClient, alias: string): Promise<void> {
    await client.query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, lockKey(alias)]);
    await resetSettings(client, this.schemaWorkSettings);
  }

  private async requireSchema(client: AdminClient, alias: string): Promise<void> {
    const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [alias]);
    if (!exists.rowCount) throw notFound(`The data of module "${alias}" is not installed in this tenant.`, { module: alias });
  }

  private async audit(client: AdminClient, compiled: CompiledModels, allowMissing: boolean): Promise<void> {
    const tables = [...compiled.models.values()].map((m) => m.table);
    const problems = await auditSchema(client, compiled.alias, tables, allowMissing);
    if (problems.length) {
      throw dataErrors.migrationRefused(compiled.alias, problems);
    }
  }

  /** Warns when a migration that already ran was edited since: released migrations are final. */
  private async checkEdited(tenantId: string, alias: string, read: (p: string) => Promise<string>, declared: { id: string; up: string }[], applied: { id: string; checksum: string }[]): Promise<void> {
    const byId = new Map(declared.map((m) => [m.id, m]));
    for (const a of applied) {
      const m = byId.get(a.id);
      if (!m) continue;
      const sql = await read(m.up).catch(() => undefined);
      if (sql !== undefined && checksumOf(sql) !== a.checksum) {
        this.logger.warn({ tenantId, module: alias, migration: a.id }, 'a migration that already ran was edited; append a new migration instead');
      }
    }
  }

  private logDropped(tenantId: string, from: CompiledModels, to: CompiledModels): void {
    const gone: string[] = [];
    for (const [name, m] of from.models) {
      const next = to.models.get(name);
      if (!next) gone.push(`model ${name}`);
      else for (const c of m.columns.keys()) if (!next.columns.has(c)) gone.push(`${name}.${c}`);
    }
    if (gone.length) this.logger.info({ tenantId, module: to.alias, kept: gone }, 'no longer declared; kept in the database with their data');
  }
}
