/**
 * Cache of JSON values with a time to live. In-process (lru-cache) or shared by every node (Redis).
 * Values go through JSON in both, so what comes back is a copy, never the object that was stored.
 */
export interface Cache {
  /** undefined on a miss. */
  get<T>(key: string): Promise<T | undefined>;
  /** ttlSeconds 0 or absent: kept until deleted (or evicted from memory). undefined is not storable. */
  set(key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  del(key: string): Promise<void>;
  /** Deletes every key that starts with prefix; returns how many. For invalidating a family of keys. */
  delByPrefix(prefix: string): Promise<number>;
  /**
   * The cached value, or fn's result stored for ttlSeconds. Concurrent calls for one key on a node
   * share one fn call. If the cache itself fails, fn's result is still returned (the failure is logged).
   */
  wrap<T>(key: string, ttlSeconds: number, fn: () => Promise<T>): Promise<T>;
}
