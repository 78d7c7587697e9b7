/**
 * Redis connections for the drivers. Every part parses REDIS_URL the same way, so bull (which bundles
 * its own ioredis) and our ioredis clients reach the same server, database and credentials.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/** Connection settings both ioredis versions accept (ours, and the one bull bundles). */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db: number;
  tls?: object;
}

/** Connection settings from a redis:// or rediss:// URL (rediss turns TLS on). */
export function redisOptionsFromUrl(url: string): RedisConnectionOptions {
  const u = new URL(url);
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    throw new Error(`REDIS_URL must start with redis:// or rediss://, got "${u.protocol}//"`);
  }
  const db = u.pathname.replace(/^\//, '');
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    db: db ? Number(db) : 0,
    tls: u.protocol === 'rediss:' ? {} : undefined,
  };
}

export interface RedisClientOptions {
  /** Shown in CLIENT LIST, which helps tell the connections of one node apart. */
  name: string;
  /** Subscriber connections must never give up on a command while reconnecting. */
  subscriber?: boolean;
}

export function createRedisClient(url: string, logger: Logger, opts: RedisClientOptions): Redis {
  const client = new Redis({
    ...redisOptionsFromUrl(url),
    connectionName: opts.name,
    // While Redis is unreachable a command fails within a second (callers fall back: the rate
    // limiter to local counting, cache.wrap to computing) instead of stalling the request for as
    // long as ioredis keeps reconnecting. Commands sent while the first connection is being opened
    // wait for it within the same second. A subscriber connection waits as long as it takes.
    ...(opts.subscriber ? { maxRetriesPerRequest: null } : { maxRetriesPerRequest: 1, commandTimeout: 1000 }),
  });
  // Without a listener ioredis prints every reconnect failure to stderr; route it to the logs.
  client.on('error', (err: Error) => logger.warn({ err: err.message, connection: opts.name }, 'redis connection error'));
  return client;
}

/** QUIT when connected (lets pending replies arrive); otherwise, or if QUIT hangs, disconnect at once. */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status !== 'ready') {
    client.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([client.quit(), new Promise((_, reject) => (timer = setTimeout(reject, 1000)))]);
  } catch {
    client.disconnect();
  } finally {
    clearTimeout(timer);
  }
}

/** PING with a timeout: the answer to /health must not hang while ioredis reconnects. */
export async function pingRedis(client: Redis, timeoutMs = 1000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
    });
    return (await Promise.race([client.ping(), timeout])) === 'PONG';
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
