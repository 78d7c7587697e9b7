import { randomBytes } from 'node:crypto';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { eventually } from '../support/eventually';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { jobFixture } from './support';

/**
 * A job still waiting when its node stops runs once the platform is back: on Redis bull keeps it;
 * in process the restarted node queues again what the records hold open (module-jobs.ts, resume).
 */
describe('DESIGN Host capabilities (wave 2): module jobs outlive a restart of the platform', () => {
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;
  const env = { MODULE_PATHS: jobFixture('jobber') };
  let a: TestPlatform | undefined;
  let b: TestPlatform | undefined;

  afterAll(async () => {
    await a?.platform.stop().catch(() => undefined);
    await b?.close();
    await dropDatabase(testServerUrl(), db);
  }, 60_000);

  test('a delayed job enqueued before the stop runs after the start, once', async () => {
    a = await startTestPlatform(env, db);
    const owner = await a.install('acme');
    expect((await a.api('/modules/jobber/install', { token: owner.token, tenant: 'acme', body: {} })).status).toBe(201);
    const queued = await a.api('/jobber/jobs', { token: owner.token, tenant: 'acme', body: { job: 'work', data: { mode: 'ok', n: 5 }, delay_seconds: 1 } });
    expect(queued.status).toBe(201);
    await a.platform.stop();
    a = undefined;

    b = await startTestPlatform(env, db);
    const api = b.api;
    const job = () => api(`/jobber/jobs/${queued.body.id}`, { token: owner.token, tenant: 'acme' }).then((r) => r.body);
    expect(await eventually(job, (j) => j.status === 'completed', 10_000)).toMatchObject({ status: 'completed', attempts: 1, result: { n: 5 } });
    const runs = await api(`/jobber/runs?job_id=${queued.body.id}`, { token: owner.token, tenant: 'acme' });
    expect(runs.body.map((r: { step: string }) => r.step)).toEqual(['start', 'done']);
  }, 120_000);
});
