/** The job queue contract, run against the in-process queue and bull on Redis. */
import type { Drivers, JobEvents } from '../../core/kernel/drivers';
import { flushPrefix, kinds, makeDrivers, openConnections, sleep, uniquePrefix, waitFor } from './support';

describe.each(kinds())('job queue (%s)', (kind) => {
  const prefix = uniquePrefix(`queue-${kind}`);
  let drivers: Drivers;
  let n = 0;
  /** A fresh queue name per test, so tests never see each other's jobs. */
  const fresh = () => `q${++n}`;

  beforeAll(() => {
    drivers = makeDrivers(kind, prefix);
  });
  afterAll(async () => {
    await drivers.close();
    await flushPrefix(prefix);
  });

  it('runs a job and records its result', async () => {
    const queue = fresh();
    const completed: JobEvents['completed'][] = [];
    await drivers.queue.on(queue, 'completed', (e) => completed.push(e));
    drivers.queue.process<{ a: number; b: number }, { sum: number }>(queue, 1, async (job) => {
      expect(job.name).toBe('add');
      expect(job.queue).toBe(queue);
      return { sum: job.data.a + job.data.b };
    });
    const id = await drivers.queue.add(queue, 'add', { a: 2, b: 3 });
    expect(typeof id).toBe('string');
    await waitFor(() => completed.length === 1, 'completed event');
    expect(completed[0]).toEqual({ queue, jobId: id, result: { sum: 5 } });
    const info = await drivers.queue.getJob(queue, id);
    expect(info).toMatchObject({ id, name: 'add', data: { a: 2, b: 3 }, state: 'completed', result: { sum: 5 }, attemptsMade: 0 });
    expect(Date.parse(info!.createdAt)).toBeGreaterThan(0);
    expect(info!.finishedAt).toBeDefined();
  });

  it('reports waiting, active and unknown jobs', async () => {
    const queue = fresh();
    const id = await drivers.queue.add(queue, 'slow', {});
    expect((await drivers.queue.getJob(queue, id))?.state).toBe('waiting');
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    drivers.queue.process(queue, 1, async () => {
      started = true;
      await released;
    });
    await waitFor(() => started, 'job start');
    expect((await drivers.queue.getJob(queue, id))?.state).toBe('active');
    release();
    await waitFor(async () => (await drivers.queue.getJob(queue, id))?.state === 'completed', 'completion');
    expect(await drivers.queue.getJob(queue, 'no-such-job')).toBeNull();
  });

  it('retries a failing job with backoff until it succeeds (at least once)', async () => {
    const queue = fresh();
    const seen: number[] = [];
    const startedAt: number[] = [];
    drivers.queue.process(queue, 1, async (job) => {
      seen.push(job.attemptsMade);
      startedAt.push(Date.now());
      if (job.attemptsMade < 2) throw new Error(`boom ${job.attemptsMade}`);
      return 'ok';
    });
    const id = await drivers.queue.add(queue, 'flaky', {}, { attempts: 3, backoff: { type: 'fixed', delay: 150 } });
    await waitFor(async () => (await drivers.queue.getJob(queue, id))?.state === 'completed', 'completion');
    expect(seen).toEqual([0, 1, 2]);
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(140);
    expect(startedAt[2] - startedAt[1]).toBeGreaterThanOrEqual(140);
    const info = await drivers.queue.getJob(queue, id);
    expect(info).toMatchObject({ state: 'completed', result: 'ok', attemptsMade: 2 });
  });

  it('waits exponentially longer between attempts', async () => {
    const queue = fresh();
    const startedAt: number[] = [];
    drivers.queue.process(queue, 1, async () => {
      startedAt.push(Date.now());
      throw new Error('always');
    });
    const id = await drivers.queue.add(queue, 'exp', {}, { attempts: 3, backoff: { type: 'exponential', delay: 100 } });
    await waitFor(async () => (await drivers.queue.getJob(queue, id))?.state === 'failed', 'failure');
    // bull's formula: (2^attemptsMade - 1) * delay, so 100ms then 300ms.
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(90);
    expect(startedAt[2] - startedAt[1]).toBeGreaterThanOrEqual(290);
  });

  it('fails a job for good once its attempts are used, with one failed event', async () => {
    const queue = fresh();
    const failed: JobEvents['failed'][] = [];
    await drivers.queue.on(queue, 'failed', (e) => failed.push(e));
    let calls = 0;
    drivers.queue.process(queue, 1, async () => {
      calls++;
      throw new Error('payment gateway down');
    });
    const id = await drivers.queue.add(queue, 'charge', {}, { attempts: 2 });
    await waitFor(() => failed.length === 1, 'failed event');
    await sleep(100);
    expect(calls).toBe(2);
    expect(failed).toEqual([{ queue, jobId: id, failedReason: 'payment gateway down' }]);
    expect(await drivers.queue.getJob(queue, id)).toMatchObject({ state: 'failed', failedReason: 'payment gateway down', attemptsMade: 2 });
  });

  it('pushes progress to listeners as it happens', async () => {
    const queue = fresh();
    const progress: JobEvents['progress'][] = [];
    await drivers.queue.on(queue, 'progress', (e) => progress.push(e));
    drivers.queue.process(queue, 1, async (job) => {
      await job.progress(50);
      await job.progress({ done: 3, total: 4 });
      return null;
    });
    const id = await drivers.queue.add(queue, 'migrate', {});
    await waitFor(() => progress.length === 2, 'two progress events');
    expect(progress).toEqual([
      { queue, jobId: id, progress: 50 },
      { queue, jobId: id, progress: { done: 3, total: 4 } },
    ]);
    await waitFor(async () => (await drivers.queue.getJob(queue, id))?.state === 'completed', 'completion');
    expect((await drivers.queue.getJob(queue, id))?.progress).toEqual({ done: 3, total: 4 });
  });

  it('stops delivering events after unsubscribe, and survives a throwing listener', async () => {
    const queue = fresh();
    const got: string[] = [];
    await drivers.queue.on(queue, 'completed', () => {
      throw new Error('listener bug');
    });
    const off = await drivers.queue.on(queue, 'completed', (e) => got.push(e.jobId));
    drivers.queue.process(queue, 1, async () => 1);
    const first = await drivers.queue.add(queue, 'x', {});
    await waitFor(() => got.length === 1, 'first completion');
    off();
    const second = await drivers.queue.add(queue, 'x', {});
    await waitFor(async () => (await drivers.queue.getJob(queue, second))?.state === 'completed', 'second completion');
    await sleep(100);
    expect(got).toEqual([first]);
  });

  it('holds a delayed job until its time', async () => {
    const queue = fresh();
    let ranAt = 0;
    drivers.queue.process(queue, 1, async () => {
      ranAt = Date.now();
    });
    const addedAt = Date.now();
    const id = await drivers.queue.add(queue, 'later', {}, { delay: 400 });
    expect((await drivers.queue.getJob(queue, id))?.state).toBe('delayed');
    await waitFor(() => ranAt > 0, 'delayed run');
    expect(ranAt - addedAt).toBeGreaterThanOrEqual(380);
  });

  it('deduplicates by jobId', async () => {
    const queue = fresh();
    const a = await drivers.queue.add(queue, 'once', { v: 1 }, { jobId: 'order-42' });
    const b = await drivers.queue.add(queue, 'once', { v: 2 }, { jobId: 'order-42' });
    expect(a).toBe('order-42');
    expect(b).toBe('order-42');
    const ran: unknown[] = [];
    drivers.queue.process(queue, 1, async (job) => {
      ran.push(job.data);
    });
    await waitFor(async () => (await drivers.queue.getJob(queue, a))?.state === 'completed', 'completion');
    await sleep(100);
    expect(ran).toEqual([{ v: 1 }]);
    await expect(drivers.queue.add(queue, 'x', {}, { jobId: '123' })).rejects.toThrow(/plain integer/);
  });

  it('forgets completed jobs with removeOnComplete', async () => {
    const queue = fresh();
    const done: string[] = [];
    await drivers.queue.on(queue, 'completed', (e) => done.push(e.jobId));
    drivers.queue.process(queue, 1, async () => 'x');
    const id = await drivers.queue.add(queue, 'tmp', {}, { removeOnComplete: true });
    await waitFor(() => done.includes(id), 'completion');
    await waitFor(async () => (await drivers.queue.getJob(queue, id)) === null, 'removal');
  });

  it('runs at most `concurrency` jobs at once on a node', async () => {
    const queue = fresh();
    let active = 0;
    let peak = 0;
    let finished = 0;
    drivers.queue.process(queue, 2, async () => {
      active++;
      peak = Math.max(peak, active);
      await sleep(100);
      active--;
      finished++;
    });
    for (let i = 0; i < 5; i++) await drivers.queue.add(queue, 'work', { i });
    await waitFor(() => finished === 5, 'all jobs');
    expect(peak).toBe(2);
  });

  it('shares workers between groups (groupCap): a group alone uses every worker, another group gets the next free one before the rest of a burst', async () => {
    const queue = fresh();
    const starts: string[] = [];
    const waiting = new Map<string, () => void>();
    let releaseAll = false;
    drivers.queue.process<{ name: string }, void>(
      queue,
      2,
      async (job) => {
        starts.push(job.data.name);
        if (!releaseAll) await new Promise<void>((resolve) => waiting.set(job.data.name, resolve));
      },
      { groupCap: 1 },
    );
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) ids.push(await drivers.queue.add(queue, 'work', { name: `hog${i}` }, { group: 'hog' }));
    // Nobody else waits: the burst takes both workers although its cap is 1.
    await waitFor(() => starts.length === 2, 'the burst on both workers');
    ids.push(await drivers.queue.add(queue, 'work', { name: 'other' }, { group: 'other' }));
    // The burst's jobs end one at a time, oldest first, until the other group's job has started.
    while (!starts.includes('other') && starts.length < 7) {
      const oldest = starts.find((name) => waiting.has(name))!;
      const before = starts.length;
      waiting.get(oldest)!();
      waiting.delete(oldest);
      await waitFor(() => starts.length > before, 'the next start');
    }
    // In process the first free worker goes to it; with bull the node already held hog3 for it.
    expect(starts.indexOf('other')).toBeGreaterThanOrEqual(2);
    expect(starts.indexOf('other')).toBeLessThanOrEqual(3);
    releaseAll = true;
    for (const release of waiting.values()) release();
    await waitFor(async () => (await Promise.all(ids.map((id) => drivers.queue.getJob(queue, id)))).every((j) => j?.state === 'completed'), 'all jobs');
    expect([...starts].sort()).toEqual(['hog1', 'hog2', 'hog3', 'hog4', 'hog5', 'hog6', 'other']);
  });

  it('grouped jobs still retry with backoff, wait their delay and deduplicate by jobId', async () => {
    const queue = fresh();
    const seen: string[] = [];
    drivers.queue.process<{ name: string }, void>(
      queue,
      2,
      async (job) => {
        seen.push(`${job.data.name}:${job.attemptsMade}`);
        if (job.data.name === 'flaky' && job.attemptsMade === 0) throw new Error('first attempt fails');
      },
      { groupCap: 1 },
    );
    const addedAt = Date.now();
    const flaky = await drivers.queue.add(queue, 'work', { name: 'flaky' }, { group: 'a', attempts: 2, backoff: { type: 'fixed', delay: 100 } });
    const later = await drivers.queue.add(queue, 'work', { name: 'later' }, { group: 'b', delay: 300, jobId: 'later-1' });
    expect(await drivers.queue.add(queue, 'work', { name: 'twice' }, { group: 'b', jobId: 'later-1' })).toBe(later);
    await waitFor(async () => (await drivers.queue.getJob(queue, flaky))?.state === 'completed' && (await drivers.queue.getJob(queue, later))?.state === 'completed', 'both jobs');
    expect(Date.parse((await drivers.queue.getJob(queue, later))!.finishedAt!) - addedAt).toBeGreaterThanOrEqual(290);
    expect(seen.sort()).toEqual(['flaky:0', 'flaky:1', 'later:0']);
    expect(() => drivers.queue.process(fresh(), 1, async () => null, { groupCap: 0 })).toThrow(/groupCap/);
  });

  it('repeats a job every interval, once per slot however often the schedule is declared', async () => {
    const queue = fresh();
    const runs: string[] = [];
    drivers.queue.process(queue, 1, async (job) => {
      runs.push(job.id);
    });
    const repeat = { every: 300 };
    const start = Date.now();
    // Two nodes booting declare the same schedule; it must still run once per 300ms slot.
    await drivers.queue.add(queue, 'refresh-views', {}, { repeat });
    await drivers.queue.add(queue, 'refresh-views', {}, { repeat });
    await waitFor(() => runs.length >= 3, 'three runs', 5000);
    await drivers.queue.removeRepeatable(queue, 'refresh-views', repeat);
    const slots = Math.floor((Date.now() - start) / 300) + 1;
    expect(runs.length).toBeLessThanOrEqual(slots);
    expect(new Set(runs).size).toBe(runs.length);
    await sleep(400); // a run already started may still finish
    const after = runs.length;
    await sleep(700);
    expect(runs.length).toBe(after);
  });

  it('repeats on a cron pattern and rejects a bad one', async () => {
    const queue = fresh();
    const runs: number[] = [];
    drivers.queue.process(queue, 1, async () => {
      runs.push(Date.now());
    });
    const repeat = { cron: '* * * * * *' }; // every second (six fields)
    await drivers.queue.add(queue, 'tick', {}, { repeat });
    await waitFor(() => runs.length >= 2, 'two cron runs', 5000);
    await drivers.queue.removeRepeatable(queue, 'tick', repeat);
    await expect(drivers.queue.add(queue, 'bad', {}, { repeat: { cron: 'not a cron' } })).rejects.toThrow();
    await expect(drivers.queue.add(queue, 'bad', {}, { repeat: {} })).rejects.toThrow(/exactly one/);
  });

  it('close() waits for the jobs in progress', async () => {
    const own = makeDrivers(kind, prefix);
    const queue = fresh();
    let started = false;
    let finished = false;
    own.queue.process(queue, 1, async () => {
      started = true;
      await sleep(400);
      finished = true;
    });
    await own.queue.add(queue, 'long', {});
    await waitFor(() => started, 'job start');
    await own.close();
    expect(finished).toBe(true);
    await own.close(); // idempotent
    await expect(own.queue.add(queue, 'late', {})).rejects.toThrow(/closed/);
  });

  it('stopProcessing() waits for the queue\'s jobs in progress, takes no more, and the queue still takes adds', async () => {
    const own = makeDrivers(kind, prefix);
    const queue = fresh();
    const other = fresh();
    const ran: string[] = [];
    let finished = false;
    own.queue.process<{ n: string }, void>(queue, 1, async (job) => {
      ran.push(job.data.n);
      if (job.data.n !== 'first') return;
      await sleep(400);
      // A job that ends by adding to its own queue, as a workflow run's wake-up does.
      await own.queue.add(queue, 'next', { n: 'added by the first' });
      finished = true;
    });
    const otherRan: string[] = [];
    own.queue.process<{ n: string }, void>(other, 1, async (job) => void otherRan.push(job.data.n));
    await own.queue.add(queue, 'first', { n: 'first' });
    await waitFor(() => ran.length === 1, 'job start');
    await own.queue.stopProcessing(queue);
    expect(finished).toBe(true);
    await own.queue.add(queue, 'late', { n: 'late' });
    await own.queue.add(other, 'other', { n: 'other' });
    await waitFor(() => otherRan.length === 1, 'the other queue still runs');
    await sleep(300);
    expect(ran).toEqual(['first']);
    await own.close();
  });

  it('closes cleanly right after workers start: no connection left open, no rejected promise behind', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    const own = uniquePrefix(`close-early-${kind}`);
    try {
      // A platform stopped during its start: workers on several queues, closed at once or soon after.
      for (let round = 0; round < 6; round++) {
        const early = makeDrivers(kind, own);
        for (let i = 0; i < 4; i++) early.queue.process(fresh(), 2, async () => null);
        await sleep(round * 4);
        await early.close();
      }
      await sleep(300);
      expect(unhandled).toEqual([]);
      expect(await openConnections(own)).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
      await flushPrefix(own);
    }
  });

});
