import { jobsPlatform, type JobsPlatform } from '../jobs/support';

/** Hostile use of module jobs (core/kernel/modules/module-jobs.ts): cross-module, cross-tenant, exhaustion. */
describe('DESIGN Bus and Host capabilities (wave 2): module jobs cannot reach other modules or tenants, nor exhaust the platform', () => {
  let p: JobsPlatform;
  const MAX_PENDING = 20;
  beforeAll(async () => {
    p = await jobsPlatform({ MODULE_JOBS_MAX_PENDING: String(MAX_PENDING), MODULE_JOBS_MAX_DATA_BYTES: '4096' });
  }, 120_000);
  afterAll(() => p.tp.close());

  const snoop = (op: string, input: unknown, tenant: 'acme' | 'globex' = 'acme') => p.call('snoop.call', { op, input }, tenant);

  test('an enqueue flood stops at the pending limit of that module and tenant; others still enqueue', async () => {
    const flood = await Promise.allSettled(Array.from({ length: MAX_PENDING + 10 }, (_, n) => p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok', n }, delay_seconds: 30 })));
    const ok = flood.filter((r) => r.status === 'fulfilled');
    const refused = flood.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(MAX_PENDING);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.reason).toMatchObject({ code: 'TOO_MANY_JOBS', status: 429 });
    // Another tenant of the same module, and another module of the same tenant, are not held back.
    expect((await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' } }, 'globex')).deduplicated).toBe(false);
    expect((await snoop('jobs.enqueue', { job: 'own' })).deduplicated).toBe(false);
    // Cancelling frees room.
    const ids = ok.map((r) => (r as PromiseFulfilledResult<{ id: string }>).value.id);
    for (const id of ids) await p.call('jobber.cancel', { id });
    expect((await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' } })).deduplicated).toBe(false);
  });

  test('huge data and huge progress are refused', async () => {
    await expect(p.call('jobber.enqueue', { job: 'work', data: { blob: 'x'.repeat(10_000) } })).rejects.toMatchObject({ code: 'JOB_PAYLOAD_TOO_LARGE', status: 413 });
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'big_progress' } });
    expect(await p.until(id, ['failed', 'completed'])).toMatchObject({ status: 'failed', progress: null, error: expect.stringContaining('larger than 4096 bytes') });
  });

  test("a module cannot enqueue a job another module declared, nor run another module's operation as a job", async () => {
    await expect(snoop('jobs.enqueue', { job: 'work', data: { mode: 'ok' } })).rejects.toMatchObject({ code: 'JOB_NOT_DECLARED', status: 422 });
    await expect(snoop('jobs.enqueue', { job: 'jobber.work' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
  });

  test("another module's or tenant's job can be neither read nor cancelled", async () => {
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' }, delay_seconds: 1 });
    await expect(snoop('jobs.get', { id })).rejects.toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
    await expect(snoop('jobs.cancel', { id })).rejects.toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
    await expect(p.call('jobber.get', { id }, 'globex')).rejects.toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
    await expect(p.call('jobber.cancel', { id }, 'globex')).rejects.toMatchObject({ code: 'JOB_NOT_FOUND', status: 404 });
    await expect(snoop('jobs.get', { id: `${id}' OR '1'='1` })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
    // Not cancelled: it still runs.
    expect((await p.until(id, ['completed', 'cancelled'], 5000)).status).toBe('completed');
  });

  test('progress cannot be reported for a job from outside it, and only modules have jobs', async () => {
    await expect(snoop('jobs.progress', { value: 50 })).rejects.toMatchObject({ code: 'NOT_IN_JOB', status: 409 });
    const core = (op: string, input: unknown) => p.tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId: p.tenants.acme, user: null });
    await expect(core('jobs.enqueue', { job: 'work' })).rejects.toMatchObject({ status: 403 });
    await expect(core('jobs.progress', { value: 1 })).rejects.toMatchObject({ status: 403 });
  });

  test('a job handler that never ends is stopped at its timeout, retried as declared, and recorded as failed', async () => {
    const started = Date.now();
    const { id } = await p.call('jobber.enqueue', { job: 'slow', data: { mode: 'hang' } });
    const done = await p.until(id, ['completed', 'failed'], 15_000);
    expect(done).toMatchObject({ status: 'failed', attempts: 2, error: expect.stringMatching(/timeout|time limit/) });
    expect(Date.now() - started).toBeLessThan(10_000);
    // The platform keeps running jobs.
    const next = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' } });
    expect((await p.until(next.id, ['completed'])).status).toBe('completed');
  });

  test('a retry storm is bounded by the declared attempts (at most 10 by the manifest schema)', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await p.call('jobber.enqueue', { job: 'storm', data: { mode: 'fail' } })).id);
    for (const id of ids) expect(await p.until(id, ['failed'], 20_000)).toMatchObject({ status: 'failed', attempts: 10 });
    await new Promise((r) => setTimeout(r, 300));
    for (const id of ids) expect(await p.call('jobber.runs', { job_id: id })).toHaveLength(10);
  });
});
