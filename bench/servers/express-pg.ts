/**
 * (b) The baseline: Express 5 and a pg.Pool running the activity-log query of
 * core/services/activity/activity-log.ts (listForUser) against the same tenant database, with nothing around
 * it: no tenant resolution, no token, no rate limit, no logging, no request context. The user is
 * fixed by the parent (BENCH_USER_ID) since there is no token to name it.
 */
import express from 'express';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { serveInChild } from './serve-in-child';

// The same text the platform sends, so PostgreSQL plans and runs the same statement for both.
const LIST_FOR_USER = `SELECT id::int, user_id::int, action, subject_type, subject_id, properties, ip_address, created_at
           FROM activity_log
          WHERE user_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3::text IS NULL OR action = $3)
          ORDER BY id DESC LIMIT $4`;

serveInChild(async () => {
  const userId = Number(process.env.BENCH_USER_ID);
  const pool = new pg.Pool({ connectionString: process.env.BENCH_TENANT_DB_URL, max: Number(process.env.BENCH_POOL_MAX || 5) });
  const app = express();
  app.disable('x-powered-by');
  app.get('/api/v1/activity-log', async (req, res, next) => {
    try {
      const limit = Number(req.query.limit ?? 25);
      const { rows } = await pool.query(LIST_FOR_USER, [userId, null, null, limit]);
      res.json({ activities: rows, next_before: rows.length === limit ? rows[rows.length - 1].id : null });
    } catch (err) {
      next(err);
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
});
