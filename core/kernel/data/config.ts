/** The database server's and the tenant pools' settings (core/kernel/config/settings.ts); read into `Config` by core/config.ts. */
import { int, optionalText, settingsGroup, text } from '../config/settings';

export const databaseSettings = settingsGroup('dbServer', {
  databaseUrl: optionalText('DATABASE_URL', 'PostgreSQL server, e.g. `postgres://user:pw@host:5432/mandi`; its database is the central one (`mandi` when the URL names `postgres`). Tenant databases `tenant<id>` are created on the same server, so the user needs `CREATEDB`. Unset: embedded PostgreSQL.'),
  embeddedPgPort: int('EMBEDDED_PG_PORT', { default: 54329 }, 'Port of the embedded PostgreSQL.'),
  centralDbName: text('CENTRAL_DB_NAME', { default: 'mandi' }, 'Central database name when `DATABASE_URL` does not name one.'),
});

export const tenantPoolSettings = settingsGroup('tenantDbs', {
  /**
   * Reserved TENANT_POOL_MAX per open pool. The default keeps 12 pools open: a chain order at spec 3's
   * max_chain_depth (10) passes through 11 tenants in one request (forward, accept, the state handed
   * down), and with fewer pools than that the least recently used one closes at every level, each
   * reopened with a new connection.
   */
  tenantPoolMaxTotal: int('TENANT_POOL_MAX_TOTAL', { default: 60 }, 'Connections across all tenant database pools (`TENANT_POOL_MAX` reserved per open pool: 12 pools by default, the 11 tenants of a reseller chain at its full depth and one more; fewer, and a chain order reopens a pool at every level).'),
  tenantPoolMax: int('TENANT_POOL_MAX', { default: 5 }, 'Connections per tenant pool.'),
  tenantPoolIdleMs: int('TENANT_POOL_IDLE_MS', { default: 60_000 }, 'A tenant pool unused this long is closed.'),
});
