/** The factory: which drivers REDIS_URL selects, health, and behaviour while Redis is unreachable. */
import { createDrivers } from '../../core/kernel/drivers';
import { redisOptionsFromUrl } from '../../core/kernel/drivers/redis-connection';
import { describeRedis, flushPrefix, logger, makeDrivers, uniquePrefix } from './support';

describe('createDrivers', () => {
  it('runs in process without REDIS_URL', async () => {
    const drivers = createDrivers({ logger });
    expect(drivers.kind).toBe('memory');
    expect(drivers.prefix).toBe('mandi');
    expect(await drivers.health()).toEqual({ redis: 'not_configured' });
    await drivers.close();
  });

  it('keeps serving while Redis is unreachable: health down, local rate limits, cache falls through', async () => {
    const drivers = createDrivers({ redisUrl: 'redis://127.0.0.1:1', prefix: uniquePrefix('down'), logger });
    expect(drivers.kind).toBe('redis');
    expect(await drivers.health()).toEqual({ redis: 'down' });
    // The rate limiter's insurance limiter answers from memory when Redis commands fail.
    const policy = { points: 1, durationSeconds: 60 };
    expect((await drivers.rateLimiter.consume('k', policy)).allowed).toBe(true);
    expect((await drivers.rateLimiter.consume('k', policy)).allowed).toBe(false);
    expect(await drivers.cache.wrap('k', 60, async () => 'computed')).toBe('computed');
    await drivers.close();
  });

  it('parses REDIS_URL the same way for every connection', () => {
    expect(redisOptionsFromUrl('redis://127.0.0.1:6379')).toEqual({ host: '127.0.0.1', port: 6379, db: 0 });
    expect(redisOptionsFromUrl('rediss://user:p%40ss@cache.example:6380/2')).toEqual({
      host: 'cache.example',
      port: 6380,
      username: 'user',
      password: 'p@ss',
      db: 2,
      tls: {},
    });
    expect(() => redisOptionsFromUrl('http://x')).toThrow(/redis:\/\//);
  });
});

describeRedis('createDrivers with Redis', () => {
  it('reports Redis up and closes every connection', async () => {
    const prefix = uniquePrefix('factory');
    const drivers = makeDrivers('redis', prefix);
    expect(drivers.kind).toBe('redis');
    expect(await drivers.health()).toEqual({ redis: 'up' });
    await drivers.close();
    await flushPrefix(prefix);
  });
});
