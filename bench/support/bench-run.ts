/**
 * What a benchmark of app nodes (child processes, support/app-node.ts) sets up around them: a
 * central database and a Redis prefix of its own on the bench PostgreSQL, the nodes' environment,
 * and, at the end, stopping the nodes and dropping every database and Redis key the run made.
 */
import { randomBytes } from 'node:crypto';
import type { BenchContext } from '../benchmark';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { dropBenchData } from './drop-bench-data';
import { openBenchPostgres } from './postgres-server';

export async function openBenchRun(ctx: BenchContext) {
  const runId = randomBytes(4).toString('hex');
  const centralDb = `mandi_bench_${runId}`;
  const prefix = `mandi-bench-${runId}`;
  const redisUrl = process.env.REDIS_URL || undefined;
  const pgServer = await openBenchPostgres(ctx.log);
  return {
    redisUrl,
    /** An app node's environment: production, rate limits out of the way, the Redis drivers when `redis` (and REDIS_URL is set). */
    env: (redis: boolean, extra: Record<string, string> = {}): Record<string, string> => ({
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl(pgServer.serverUrl, centralDb),
      REDIS_URL: redis && redisUrl ? redisUrl : '',
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      API_RATE_LIMIT: '1000000000/3600',
      BUS_RATE_LIMIT: '1000000000/3600',
      TENANT_POOL_MAX: '10',
      ...extra,
    }),
    /** Stops the nodes still running, then drops what the run made. */
    close: async (nodes: Array<{ stop(): Promise<void> }>) => {
      await Promise.allSettled(nodes.map((n) => n.stop()));
      await dropBenchData(pgServer.serverUrl, centralDb, redisUrl, prefix, ctx.log);
      await pgServer.stop();
    },
  };
}
