import { jobsPlatform, type JobsPlatform } from './support';

describe('DESIGN Host capabilities (wave 2): module jobs (manifest jobs, jobs.* operations) run delayed, retried, deduplicated, with progress', () => {
  let p: JobsPlatform;
  beforeAll(async () => {
    p = await jobsPlatform();
  }, 120_000);
  afterAll(() => p.tp.close());

  test('a job runs its operation in the sandbox for the tenant, with no user, caller core, and records result and progress', async () => {
    const { id, deduplicated } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 7 } });
    expect(deduplicated).toBe(false);
    const done = await p.until(id, ['completed', 'failed']);
    expect(done).toMatchObject({
      id,
      job: 'work',
      status: 'completed',
      attempts: 1,
      progress: { done: 1, of: 2 },
      result: { n: 7, job: 'work', caller: 'core', user: null, tenant: p.tenants.acme },
      error: null,
    });
    expect(done.finished_at).toEqual(expect.any(String));
    expect((await p.call('jobber.runs', { job_id: id })).map((r: { step: string }) => r.step)).toEqual(['start', 'done']);
  });

  test('a failing attempt is retried with the declared backoff until it succeeds', async () => {
    const started = Date.now();
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'flaky', succeed_at: 3 } });
    const done = await p.until(id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'completed', attempts: 3, result: { attempt: 3 }, error: expect.stringContaining('flaky attempt 2') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400); // two fixed waits of 0.2 s
  });

  test('after the last attempt the failure is recorded', async () => {
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'fail' } });
    const done = await p.until(id, ['completed', 'failed']);
    expect(done).toMatchObject({ status: 'failed', attempts: 3, error: expect.stringContaining('always fails') });
    expect(await p.call('jobber.runs', { job_id: id })).toHaveLength(3);
  });

  test('a delayed job waits its delay, measured on the platform clock; run_at as well', async () => {
    const now = p.tp.platform.clock.now();
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, delay_seconds: 1 });
    const at = await p.call('jobber.get', { id });
    expect(at.status).toBe('pending');
    expect(Date.parse(at.run_at) - now).toBeGreaterThanOrEqual(1000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await p.call('jobber.get', { id })).status).toBe('pending');
    expect((await p.until(id, ['completed'], 5000)).status).toBe('completed');

    const later = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, run_at: new Date(p.tp.platform.clock.now() + 600).toISOString() });
    expect((await p.call('jobber.get', { id: later.id })).status).toBe('pending');
    expect((await p.until(later.id, ['completed'], 5000)).status).toBe('completed');
  });

  test('a key names one open job: enqueuing again returns it; once it has run, the key is free again', async () => {
    const first = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 1 }, key: 'sweep', delay_seconds: 1 });
    const again = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 2 }, key: 'sweep' });
    expect(again).toEqual({ id: first.id, deduplicated: true });
    // The same key in another tenant is another job.
    const other = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, key: 'sweep' }, 'globex');
    expect(other.deduplicated).toBe(false);
    expect((await p.until(first.id, ['completed'], 5000)).result.n).toBe(1);
    const next = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 3 }, key: 'sweep' });
    expect(next).toEqual({ id: expect.any(String), deduplicated: false });
    expect(next.id).not.toBe(first.id);
  });

  test('a running job that queues its own next run under its own key is not deduplicated against itself', async () => {
    const first = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'chain', left: 2 }, key: 'chain' });
    const one = await p.until(first.id, ['completed', 'failed']);
    expect(one.result.next).toEqual({ id: expect.any(String), deduplicated: false });
    const two = await p.until(one.result.next.id, ['completed', 'failed']);
    expect(two.result.next.deduplicated).toBe(false);
    expect(await p.until(two.result.next.id, ['completed', 'failed'])).toMatchObject({ status: 'completed', result: { last: true }, key: 'chain' });
  });

  test('a cancelled job never runs', async () => {
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, delay_seconds: 0.5 });
    expect(await p.call('jobber.cancel', { id })).toMatchObject({ id, status: 'cancelled', attempts: 0 });
    await new Promise((r) => setTimeout(r, 1200));
    expect(await p.call('jobber.get', { id })).toMatchObject({ status: 'cancelled', attempts: 0 });
    expect(await p.call('jobber.runs', { job_id: id })).toEqual([]);
  });

  test('concurrency: one at a time per tenant runs them one after the other, without spending attempts on waiting', async () => {
    const started = Date.now();
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await p.call('jobber.enqueue', { job: 'single', data: { mode: 'hang' } })).id);
    for (const id of ids) expect(await p.until(id, ['failed', 'completed'], 10_000)).toMatchObject({ status: 'failed', attempts: 1, error: expect.stringContaining('timeout') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900); // two 1 s timeouts, not overlapping
  });

  test('progress is refused outside a running job', async () => {
    await expect(p.call('jobber.progress_outside')).rejects.toMatchObject({ code: 'NOT_IN_JOB', status: 409 });
  });

  test('a job that is not declared is refused with what to fix', async () => {
    await expect(p.call('jobber.enqueue', { job: 'nope', data: {} })).rejects.toMatchObject({ code: 'JOB_NOT_DECLARED', status: 422, message: expect.stringContaining('add it under jobs') });
  });

  test('jobs that ended are kept for a week, then forgotten by the sweep (platform clock)', async () => {
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' } });
    await p.until(id, ['completed']);
    const { jobs } = p.tp.platform.kernel;
    const now = p.tp.platform.clock.now();
    await jobs.prune(now + 6 * 24 * 3600_000);
    expect((await p.call('jobber.get', { id })).status).toBe('completed');
    const open = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, delay_seconds: 3600 });
    expect(await jobs.prune(now + 8 * 24 * 3600_000)).toBeGreaterThanOrEqual(1);
    await expect(p.call('jobber.get', { id })).rejects.toMatchObject({ code: 'JOB_NOT_FOUND' });
    expect((await p.call('jobber.get', { id: open.id })).status).toBe('pending'); // open jobs are never swept
    await p.call('jobber.cancel', { id: open.id });
  });

  test('jobs of a module uninstalled before they run are dropped', async () => {
    const { id } = await p.call('snoop.call', { op: 'jobs.enqueue', input: { job: 'own', delay_seconds: 0.5 } }, 'globex');
    const row = async () => (await p.tp.platform.central.sequelize.query('SELECT status, error FROM module_jobs WHERE id = $1', { bind: [id], plain: true })) as { status: string; error: string };
    expect((await row()).status).toBe('pending');
    await p.tp.platform.kernel.modules.uninstall(p.tenants.globex, 'snoop');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await row()).toEqual({ status: 'dropped', error: expect.stringContaining('no longer has the job') });
  });
});
