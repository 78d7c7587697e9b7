/** The cache contract, run against lru-cache in process and Redis. */
import { kinds, sleep, useDrivers } from './support';

describe.each(kinds())('cache (%s)', (kind) => {
  const drivers = useDrivers(kind, 'cache');

  it('stores, reads and deletes JSON values', async () => {
    const { cache } = drivers();
    expect(await cache.get('missing')).toBeUndefined();
    await cache.set('user:1', { name: 'Asha', roles: ['admin'], balance: '10.50' });
    await cache.set('zero', 0);
    await cache.set('nothing', null);
    expect(await cache.get('user:1')).toEqual({ name: 'Asha', roles: ['admin'], balance: '10.50' });
    expect(await cache.get('zero')).toBe(0);
    expect(await cache.get('nothing')).toBeNull();
    await cache.del('user:1');
    expect(await cache.get('user:1')).toBeUndefined();
    await expect(cache.set('undef', undefined)).rejects.toThrow(/undefined/);
  });

  it('hands out copies, never the stored object', async () => {
    const value = { items: [1, 2] };
    await drivers().cache.set('copy', value);
    value.items.push(3);
    const read = await drivers().cache.get<{ items: number[] }>('copy');
    expect(read).toEqual({ items: [1, 2] });
    read!.items.push(4);
    expect(await drivers().cache.get('copy')).toEqual({ items: [1, 2] });
  });

  it('expires values after their TTL', async () => {
    await drivers().cache.set('short', 'v', 0.3);
    await drivers().cache.set('long', 'v', 60);
    expect(await drivers().cache.get('short')).toBe('v');
    await sleep(450);
    expect(await drivers().cache.get('short')).toBeUndefined();
    expect(await drivers().cache.get('long')).toBe('v');
  });

  it('deletes by prefix and nothing else, taking the prefix literally', async () => {
    const { cache } = drivers();
    await cache.set('schema:stable:a', 1);
    await cache.set('schema:stable:b', 2);
    await cache.set('schema:beta:a', 3);
    await cache.set('schema*', 4);
    expect(await cache.delByPrefix('schema:stable:')).toBe(2);
    expect(await cache.get('schema:stable:a')).toBeUndefined();
    expect(await cache.get('schema:beta:a')).toBe(3);
    // `*` in a prefix is a character, not a wildcard.
    expect(await cache.delByPrefix('schema*')).toBe(1);
    expect(await cache.get('schema:beta:a')).toBe(3);
  });

  it('wrap computes once for concurrent callers and then serves the cache', async () => {
    let calls = 0;
    const compute = async () => {
      calls++;
      await sleep(50);
      return { fingerprint: 'abc' };
    };
    const results = await Promise.all(Array.from({ length: 5 }, () => drivers().cache.wrap('ring:stable', 60, compute)));
    expect(calls).toBe(1);
    for (const r of results) expect(r).toEqual({ fingerprint: 'abc' });
    expect(await drivers().cache.wrap('ring:stable', 60, compute)).toEqual({ fingerprint: 'abc' });
    expect(calls).toBe(1);
    expect(await drivers().cache.get('ring:stable')).toEqual({ fingerprint: 'abc' });
  });

  it('wrap passes errors through and caches nothing for them', async () => {
    await expect(drivers().cache.wrap('failing', 60, async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await drivers().cache.get('failing')).toBeUndefined();
    expect(await drivers().cache.wrap('failing', 60, async () => 'recovered')).toBe('recovered');
  });
});
