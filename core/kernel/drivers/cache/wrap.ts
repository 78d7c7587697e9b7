/** Cache-aside shared by both caches: read, else compute once per key on this node and store. */
import type { Logger } from '../../logger';
import type { Cache } from './types';
import { SingleFlight } from './single-flight';

export function createWrap(cache: Pick<Cache, 'get' | 'set'>, logger: Logger): Cache['wrap'] {
  const flights = new SingleFlight();
  return <T>(key: string, ttlSeconds: number, fn: () => Promise<T>) =>
    flights.run(key, async () => {
      try {
        const hit = await cache.get<T>(key);
        if (hit !== undefined) return hit;
      } catch (err) {
        logger.warn({ err, key }, 'cache read failed; computing the value');
      }
      const value = await fn();
      // Not awaited: the caller has its value. A later read still sees the write, since commands on
      // one Redis connection run in order (and the memory cache writes at once).
      if (value !== undefined) {
        cache.set(key, value, ttlSeconds).catch((err: unknown) => logger.warn({ err, key }, 'cache write failed'));
      }
      return value;
    });
}
