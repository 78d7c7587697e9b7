/**
 * A tenant-database connection for schema work (install, upgrade, rollback, uninstall), taken
 * from the tenant's pool and destroyed afterwards instead of returned: module migration SQL can
 * leave session state behind (plain SET, session advisory locks, prepared statements), and no
 * later request may inherit it.
 */
import type { ClientBase } from 'pg';
import type { TenantDatabases } from '../data/tenant-databases';

export type AdminClient = Pick<ClientBase, 'query'>;

/** Runs fn inside one transaction on a private connection; commits when fn resolves. */
export async function withAdminTransaction<T>(dbs: TenantDatabases, tenantId: string, fn: (client: AdminClient) => Promise<T>): Promise<T> {
  return dbs.with(tenantId, async (db) => {
    const manager = db.connectionManager;
    const client = (await manager.getConnection({ type: 'write' })) as ClientBase;
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    } finally {
      await manager.destroyConnection(client);
    }
  });
}

/**
 * Undoes every session setting that SQL run earlier in this transaction changed (RESET ALL also
 * overrides SET LOCAL), then sets the host's own until the transaction ends. Migration SQL may SET
 * anything (standard_conforming_strings changes what a string literal means); the host's later
 * statements must run under settings it chose. Names and values go as bound parameters.
 */
export async function resetSettings(client: AdminClient, settings: Record<string, string>): Promise<void> {
  await client.query('RESET ALL');
  await client.query('SELECT pg_catalog.set_config(s.name, s.value, true) FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[])) AS s(name, value)', [
    Object.keys(settings),
    Object.values(settings),
  ]);
}
