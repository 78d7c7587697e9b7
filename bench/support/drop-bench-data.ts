/** Drops what a platform benchmark created: every tenant database, the central database, and the Redis keys under its prefix. */
import pg from 'pg';
import { Redis } from 'ioredis';
import { databaseUrl, dropDatabase } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';

export async function dropBenchData(serverUrl: string, centralDb: string, redisUrl: string | undefined, prefix: string, log: (m: string) => void): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, centralDb) });
  const tenantIds: string[] = [];
  try {
    await client.connect();
    tenantIds.push(...(await client.query<{ id: string }>('SELECT id FROM tenants')).rows.map((r) => r.id));
  } catch {
    // never booted: only the central database may exist
  } finally {
    await client.end().catch(() => undefined);
  }
  for (const db of [...tenantIds.map(tenantDbName), centralDb]) await dropDatabase(serverUrl, db).catch((err) => log(`could not drop ${db}: ${String(err)}`));
  if (!redisUrl) return;
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) if ((keys as string[]).length) await redis.del(...(keys as string[]));
  } catch (err) {
    log(`could not clean Redis keys ${prefix}*: ${String(err)}`);
  } finally {
    redis.disconnect();
  }
}
