/**
 * Two app nodes on one Redis: the suites that check what nodes share only through Redis (pub/sub,
 * counters). Both nodes use one central database, and with it one Redis prefix, as two instances of
 * one deployment do.
 */
import { randomBytes } from 'node:crypto';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { startTestPlatform, testServerUrl, type TestPlatform } from './test-platform';

/** `describe` when REDIS_URL is set; without it the in-process drivers serve one node, so the suite is skipped, visibly. */
export function describeWithRedis(name: string, suite: () => void): void {
  if (process.env.REDIS_URL) return describe(name, suite);
  console.info(`skipped, REDIS_URL is not set (CI runs it in its Redis pass): ${name}`);
  describe.skip(name, suite);
}

export interface TwoNodes<N> {
  a: N;
  b: N;
  close(): Promise<void>;
}

/**
 * Starts node A then node B on a fresh central database. Closing stops B alone (the databases are
 * shared, and A's close drops the tenants'), then closes A and drops the central database.
 */
export async function startTwoNodes<N extends { close(): Promise<void> }>(start: (centralDb: string) => Promise<N>, stopOnly: (node: N) => Promise<void>): Promise<TwoNodes<N>> {
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;
  const a = await start(db);
  const dropAll = async () => {
    await a.close();
    await dropDatabase(testServerUrl(), db);
  };
  let b: N;
  try {
    b = await start(db);
  } catch (err) {
    await dropAll();
    throw err;
  }
  return {
    a,
    b,
    close: async () => {
      await stopOnly(b);
      await dropAll();
    },
  };
}

/** Two test platforms (env applies to both). */
export function startTwoPlatforms(env: Record<string, string> = {}): Promise<TwoNodes<TestPlatform>> {
  return startTwoNodes((db) => startTestPlatform(env, db), (node) => node.platform.stop());
}
