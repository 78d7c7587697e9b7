/**
 * Defence in depth: one PostgreSQL role per module (`mandi_mod_<alias>`, NOLOGIN, cluster-wide,
 * shared by every tenant database). It holds USAGE and CREATE on its own schema, the tables it
 * creates there, and the rows of its `_sequences`; nothing in `public`, in other modules' schemas,
 * or in any other database. When the connecting user may not create roles, one warning is logged
 * and module migrations are refused, unless MODULE_DB_ROLES allows running them as that user
 * (development only: then only the host's own checks apply).
 */
import type { Logger } from '../logger';
import { dataErrors } from './db-errors';
import type { AdminClient } from './admin-connection';
import { ident, qualified, roleOf, SEQUENCES_TABLE } from './names';
import type { ModuleDbRoles } from './types';

interface Rights {
  rolsuper: boolean;
  rolcreaterole: boolean;
}

/** Runs a query and gives its rows: adapts both a pg client and a Sequelize pool. */
export type RowsQuery = (sql: string) => Promise<unknown[]>;

const rowsOf = (client: AdminClient): RowsQuery => async (sql) => (await client.query(sql)).rows;

export class ModuleRoles {
  private rights?: Promise<Rights | null>;

  constructor(
    private readonly setting: ModuleDbRoles,
    private readonly logger: Logger,
  ) {}

  /** Whether module roles are in force; decided once from the connecting user's rights. */
  async enabled(query: RowsQuery): Promise<boolean> {
    return (await this.ownRights(query)) !== null;
  }

  private ownRights(query: RowsQuery): Promise<Rights | null> {
    this.rights ??= (async () => {
      const rows = (await query('SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user')) as Rights[];
      const r = rows[0];
      if (r && (r.rolsuper || r.rolcreaterole)) return r;
      if (this.setting === 'fallback-for-development') {
        this.logger.warn(
          'module data: the database user may not create roles, so module migrations and host.db run without per-module PostgreSQL roles (MODULE_DB_ROLES=fallback-for-development); isolation rests on the host checks alone',
        );
      } else {
        this.logger.warn('module data: the database user may not create roles (needs SUPERUSER or CREATEROLE), so module migrations are refused (MODULE_DB_ROLES=required)');
      }
      return null;
    })().catch((err) => {
      this.rights = undefined;
      throw err;
    });
    return this.rights;
  }

  /**
   * Creates the module's role when missing (inside the caller's transaction, so a failed install
   * leaves none) and returns its name, or null when roles are not in force.
   */
  async ensure(client: AdminClient, alias: string): Promise<string | null> {
    const rights = await this.ownRights(rowsOf(client));
    if (!rights) return null;
    const role = roleOf(alias);
    const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (!exists.rowCount) {
      await client.query('SAVEPOINT mandi_role');
      try {
        await client.query(`CREATE ROLE ${ident(role)} NOLOGIN NOINHERIT`);
      } catch (err) {
        // Another tenant's install created it meanwhile (42710, or 23505 when both raced).
        const code = (err as { code?: string }).code;
        if (code !== '42710' && code !== '23505') throw err;
        await client.query('ROLLBACK TO SAVEPOINT mandi_role');
      }
      await client.query('RELEASE SAVEPOINT mandi_role');
    }
    await this.checkUnprivileged(client, role);
    // A CREATEROLE user who is not superuser must be a member to SET ROLE and hand over ownership.
    if (!rights.rolsuper) await client.query(`GRANT ${ident(role)} TO CURRENT_USER`);
    return role;
  }

  /**
   * Module migration SQL runs only as the module's role, unless the operator chose the development
   * fallback: run as the connecting user, it could read every schema of the tenant database.
   */
  requireForMigrations(alias: string, role: string | null): void {
    if (role || this.setting === 'fallback-for-development') return;
    throw dataErrors.rolesRequired(alias);
  }

  /** A role someone widened (login, superuser, membership of other roles) is refused, not used. */
  private async checkUnprivileged(client: AdminClient, role: string): Promise<void> {
    const { rows } = await client.query<{ wide: boolean }>(
      `SELECT (r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolbypassrls OR r.rolcanlogin OR r.rolreplication
               OR EXISTS (SELECT 1 FROM pg_auth_members m WHERE m.member = r.oid)) AS wide
         FROM pg_roles r WHERE r.rolname = $1`,
      [role],
    );
    if (rows[0]?.wide) {
      throw dataErrors.roleUnsafe(role);
    }
  }
}

/**
 * Grants the module role its own schema and sequences table, and keeps it out of temporary
 * tables, which would outlive a migration on a pooled connection and shadow core's tables.
 */
export async function grantSchemaAccess(client: AdminClient, schema: string, role: string): Promise<void> {
  const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
  await client.query(`REVOKE ALL ON SCHEMA ${ident(schema)} FROM PUBLIC`);
  await client.query(`GRANT USAGE, CREATE ON SCHEMA ${ident(schema)} TO ${ident(role)}`);
  await client.query(`GRANT SELECT, INSERT, UPDATE ON ${qualified(schema, SEQUENCES_TABLE)} TO ${ident(role)}`);
  await client.query(`REVOKE TEMPORARY ON DATABASE ${ident(rows[0].db)} FROM PUBLIC`);
}
