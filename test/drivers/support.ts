/**
 * Shared by the driver suites: which implementations to run, unique Redis prefixes per run, and
 * cleanup of exactly those keys.
 *
 * The Redis leg runs whenever a Redis answers at REDIS_URL (default redis://127.0.0.1:6379), so a
 * developer with a local Redis tests both paths in one run. REDIS_URL set but unreachable is an
 * error, not a skip: CI's Redis run must never pass without Redis.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createDrivers, type Drivers } from '../../core/kernel/drivers';
import { escapeGlob } from '../../core/kernel/drivers/glob';
import { createLogger } from '../../core/kernel/logger';

export type Kind = 'memory' | 'redis';

export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

export const logger = createLogger(process.env.LOG_LEVEL || 'silent');

/** Synchronous, because jest collects describe blocks synchronously. */
function probeRedis(url: string): boolean {
  const script = `
    const { Redis } = require('ioredis');
    const r = new Redis(process.argv[1], { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    r.connect().then(() => r.ping()).then(() => process.exit(0), () => process.exit(1));`;
  const res = spawnSync(process.execPath, ['-e', script, url], { cwd: process.cwd(), timeout: 5000 });
  return res.status === 0;
}

export const redisAvailable = probeRedis(REDIS_URL);

if (!redisAvailable && process.env.REDIS_URL) {
  throw new Error(`REDIS_URL is set to ${REDIS_URL} but no Redis answers there`);
}

/** The implementations to test; registers a visible skipped test when Redis is absent. */
export function kinds(): Kind[] {
  if (redisAvailable) return ['memory', 'redis'];
  describe('redis leg', () => {
    it.skip(`skipped: no Redis answers at ${REDIS_URL} (start one or set REDIS_URL)`, () => {});
  });
  return ['memory'];
}

/** describe for suites that only make sense on Redis (several nodes). */
export const describeRedis: jest.Describe = redisAvailable
  ? describe
  : (((name: string) =>
      describe(name, () => it.skip(`skipped: no Redis answers at ${REDIS_URL}`, () => {}))) as unknown as jest.Describe);

export function uniquePrefix(label: string): string {
  return `mandi-test:${label}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

export function makeDrivers(kind: Kind, prefix: string): Drivers {
  return createDrivers({ redisUrl: kind === 'redis' ? REDIS_URL : undefined, prefix, logger });
}

/** Deletes this run's keys and nothing else. */
/** Names of the Redis connections (CLIENT LIST) that drivers with this prefix still hold open. */
export async function openConnections(prefix: string): Promise<string[]> {
  if (!redisAvailable) return [];
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    const list = (await client.client('LIST')) as string;
    return [...list.matchAll(/ name=(\S*)/g)].map((m) => m[1]).filter((name) => name.startsWith(prefix));
  } finally {
    await client.quit();
  }
}

export async function flushPrefix(prefix: string): Promise<void> {
  if (!redisAvailable) return;
  const client = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${escapeGlob(prefix)}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await client.quit();
  }
}

/** Resolves when check() is truthy, polling; fails with message after timeoutMs. */
export async function waitFor<T>(check: () => T | Promise<T>, message: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${message}`);
    await sleep(20);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Drivers of `kind` for one describe block, under a key prefix of its own, closed and flushed after it. */
export function useDrivers(kind: Kind, label: string): () => Drivers {
  const prefix = uniquePrefix(`${label}-${kind}`);
  let drivers: Drivers;
  beforeAll(() => {
    drivers = makeDrivers(kind, prefix);
  });
  afterAll(async () => {
    await drivers.close();
    await flushPrefix(prefix);
  });
  return () => drivers;
}
