/**
 * Server-level PostgreSQL chores the ORM cannot do: creating and dropping whole databases.
 * Database names are never interpolated unchecked: only [a-z0-9_] names are accepted.
 */
import { Client } from 'pg';

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSafeDbName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`Unsafe database name "${name}"`);
  return name;
}

/** The same server URL pointing at another database. */
export function databaseUrl(serverUrl: string, dbName: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${assertSafeDbName(dbName)}`;
  return url.toString();
}

export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

async function withMaintenance<T>(serverUrl: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates the database when missing; returns true when it was created. */
export async function ensureDatabase(serverUrl: string, dbName: string): Promise<boolean> {
  assertSafeDbName(dbName);
  return withMaintenance(serverUrl, async (c) => {
    const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [dbName]);
    if (found.rowCount) return false;
    try {
      await c.query(`CREATE DATABASE "${dbName}"`);
      return true;
    } catch (err) {
      // Two processes racing to create the same database: the loser sees 42P04 (duplicate_database).
      if ((err as { code?: string }).code === '42P04') return false;
      throw err;
    }
  });
}

export async function dropDatabase(serverUrl: string, dbName: string): Promise<void> {
  assertSafeDbName(dbName);
  await withMaintenance(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
}

export async function listDatabases(serverUrl: string, prefix: string): Promise<string[]> {
  return withMaintenance(serverUrl, async (c) => {
    const r = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    return r.rows.map((row) => row.datname);
  });
}
