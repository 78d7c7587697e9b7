/** Cache shared by every node (REDIS_URL set): one Redis string per key, expiring with PX. */
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import { escapeGlob } from '../glob';
import type { Cache } from './types';
import { createWrap } from './wrap';

export class RedisCache implements Cache {
  readonly wrap: Cache['wrap'];

  /** keyPrefix namespaces the cache's keys, e.g. `mandi:cache:`. */
  constructor(
    private readonly client: Redis,
    private readonly keyPrefix: string,
    logger: Logger,
  ) {
    this.wrap = createWrap(this, logger);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const text = await this.client.get(this.keyPrefix + key);
    return text === null ? undefined : (JSON.parse(text) as T);
  }

  async set(key: string, value: unknown, ttlSeconds = 0): Promise<void> {
    if (value === undefined) throw new Error('cannot cache undefined');
    const text = JSON.stringify(value);
    if (ttlSeconds > 0) await this.client.set(this.keyPrefix + key, text, 'PX', Math.round(ttlSeconds * 1000));
    else await this.client.set(this.keyPrefix + key, text);
  }

  async del(key: string): Promise<void> {
    await this.client.unlink(this.keyPrefix + key);
  }

  /** SCAN, not KEYS: it does not block Redis for the other nodes while it walks the keyspace. */
  async delByPrefix(prefix: string): Promise<number> {
    const match = escapeGlob(this.keyPrefix + prefix) + '*';
    let cursor = '0';
    let count = 0;
    do {
      const [next, keys] = await this.client.scan(cursor, 'MATCH', match, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) count += await this.client.unlink(...keys);
    } while (cursor !== '0');
    return count;
  }
}
