/** In-process cache (REDIS_URL unset): least-recently-used eviction bounds its memory. */
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../logger';
import type { Cache } from './types';
import { createWrap } from './wrap';

export class MemoryCache implements Cache {
  // JSON text, not objects: callers get copies, as from Redis.
  private readonly entries: LRUCache<string, string>;
  readonly wrap: Cache['wrap'];

  constructor(logger: Logger, maxEntries = 10_000) {
    this.entries = new LRUCache<string, string>({ max: maxEntries });
    this.wrap = createWrap(this, logger);
  }

  async get<T>(key: string): Promise<T | undefined> {
    const text = this.entries.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  async set(key: string, value: unknown, ttlSeconds = 0): Promise<void> {
    if (value === undefined) throw new Error('cannot cache undefined');
    this.entries.set(key, JSON.stringify(value), { ttl: ttlSeconds > 0 ? ttlSeconds * 1000 : 0 });
  }

  async del(key: string): Promise<void> {
    this.entries.delete(key);
  }

  async delByPrefix(prefix: string): Promise<number> {
    let count = 0;
    for (const key of [...this.entries.keys()]) {
      if (key.startsWith(prefix) && this.entries.delete(key)) count++;
    }
    return count;
  }
}
