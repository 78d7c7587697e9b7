/**
 * Two "nodes" (two driver sets) on one Redis share rate limits, one job queue, the cache and
 * messages, as two app instances behind a load balancer would.
 */
import type { Drivers, JobEvents } from '../../core/kernel/drivers';
import { describeRedis, flushPrefix, makeDrivers, sleep, uniquePrefix, waitFor } from './support';

describeRedis('two nodes on one Redis', () => {
  const prefix = uniquePrefix('nodes');
  let a: Drivers;
  let b: Drivers;

  beforeAll(() => {
    a = makeDrivers('redis', prefix);
    b = makeDrivers('redis', prefix);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await flushPrefix(prefix);
  });

  it('share one rate limit: points spent on A count on B', async () => {
    const policy = { points: 5, durationSeconds: 60 };
    for (let i = 0; i < 3; i++) expect((await a.rateLimiter.consume('tenant:abc12345', policy)).allowed).toBe(true);
    expect(await b.rateLimiter.consume('tenant:abc12345', policy)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.rateLimiter.consume('tenant:abc12345', policy)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await b.rateLimiter.consume('tenant:abc12345', policy);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('share a job queue: a job added on A runs once on B, retried then completed, progress seen on A', async () => {
    const queue = 'ring-upgrade';
    const progress: JobEvents['progress'][] = [];
    const completed: JobEvents['completed'][] = [];
    await a.queue.on(queue, 'progress', (e) => progress.push(e));
    await a.queue.on(queue, 'completed', (e) => completed.push(e));
    const runs: { node: string; attempt: number }[] = [];
    b.queue.process<{ tenants: string[] }, { upgraded: number }>(queue, 1, async (job) => {
      runs.push({ node: 'B', attempt: job.attemptsMade });
      await job.progress({ done: 1, total: job.data.tenants.length });
      if (job.attemptsMade === 0) throw new Error('migration lock busy');
      await job.progress({ done: 2, total: job.data.tenants.length });
      return { upgraded: job.data.tenants.length };
    });

    const id = await a.queue.add(queue, 'upgrade', { tenants: ['t1', 't2'] }, { attempts: 3, backoff: { type: 'fixed', delay: 100 } });
    await waitFor(() => completed.length === 1, 'completion seen on A');
    await sleep(300);

    expect(runs).toEqual([
      { node: 'B', attempt: 0 },
      { node: 'B', attempt: 1 },
    ]);
    expect(completed).toEqual([{ queue, jobId: id, result: { upgraded: 2 } }]);
    expect(progress.map((p) => p.progress)).toEqual([
      { done: 1, total: 2 },
      { done: 1, total: 2 },
      { done: 2, total: 2 },
    ]);
    expect(await a.queue.getJob(queue, id)).toMatchObject({ state: 'completed', attemptsMade: 1, result: { upgraded: 2 } });
  });

  it('share a job queue between competing workers: each job runs exactly once', async () => {
    const queue = 'emails';
    const ranBy = new Map<string, string[]>();
    const handler = (node: string) => async (job: { id: string }) => {
      ranBy.set(job.id, [...(ranBy.get(job.id) ?? []), node]);
      await sleep(10);
    };
    a.queue.process(queue, 3, handler('A'));
    b.queue.process(queue, 3, handler('B'));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await (i % 2 ? a : b).queue.add(queue, 'send', { i }));
    await waitFor(() => ranBy.size === 30, 'all 30 jobs');
    await sleep(300);
    expect([...ranBy.keys()].sort()).toEqual([...ids].sort());
    for (const nodes of ranBy.values()) expect(nodes).toHaveLength(1);
  });

  it("share a fair queue: another group's job goes before the rest of a burst that fills both nodes, and each job runs exactly once", async () => {
    const queue = 'fair-runs';
    const starts: string[] = [];
    const ranBy = new Map<string, string[]>();
    const waiting = new Map<string, () => void>();
    let releaseAll = false;
    const handler = (node: string) => async (job: { data: { name: string } }) => {
      starts.push(job.data.name);
      ranBy.set(job.data.name, [...(ranBy.get(job.data.name) ?? []), node]);
      if (!releaseAll) await new Promise<void>((resolve) => waiting.set(job.data.name, resolve));
    };
    a.queue.process(queue, 1, handler('A'), { groupCap: 1 });
    b.queue.process(queue, 1, handler('B'), { groupCap: 1 });
    const names = Array.from({ length: 8 }, (_, i) => `hog${i + 1}`);
    for (const name of names) await a.queue.add(queue, 'run', { name }, { group: 'hog' });
    await waitFor(() => starts.length === 2, 'the burst on both nodes');
    await b.queue.add(queue, 'run', { name: 'other' }, { group: 'other' });
    while (!starts.includes('other') && starts.length < 9) {
      const oldest = starts.find((name) => waiting.has(name))!;
      const before = starts.length;
      waiting.get(oldest)!();
      waiting.delete(oldest);
      await waitFor(() => starts.length > before, 'the next start');
    }
    // Each node holds one job more than its worker; the next free one after those goes to 'other'.
    expect(starts.indexOf('other')).toBeLessThanOrEqual(4);
    releaseAll = true;
    for (const release of waiting.values()) release();
    await waitFor(() => ranBy.size === 9, 'all 9 jobs');
    await sleep(300);
    expect([...ranBy.keys()].sort()).toEqual([...names, 'other'].sort());
    for (const nodes of ranBy.values()) expect(nodes).toHaveLength(1);
  });

  it('share the cache and the message bus', async () => {
    await a.cache.set('schema:stable', { v: 1 }, 60);
    expect(await b.cache.get('schema:stable')).toEqual({ v: 1 });
    await b.cache.delByPrefix('schema:');
    expect(await a.cache.get('schema:stable')).toBeUndefined();

    const got: unknown[] = [];
    const off = await b.pubsub.subscribe('cache.invalidate', (m) => void got.push(m));
    await a.pubsub.publish('cache.invalidate', { key: 'schema:stable' });
    await waitFor(() => got.length === 1, 'message on B');
    expect(got).toEqual([{ key: 'schema:stable' }]);
    await off();
  });
});
