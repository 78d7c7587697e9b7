import { randomBytes } from 'node:crypto';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { describeWithRedis } from '../support/two-nodes';


describeWithRedis('DESIGN Drivers: two app instances on one Redis', () => {
  let a: TestPlatform;
  let b: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;

  beforeAll(async () => {
    const shared = { REDIS_PREFIX: `mandi-test-${db}`, API_RATE_LIMIT: '6/60' };
    a = await startTestPlatform(shared, db);
    b = await startTestPlatform(shared, db);
    owner = await a.install('acme');
  });
  afterAll(async () => {
    await b.platform.stop();
    await a.close();
    await dropDatabase(testServerUrl(), db);
  });

  test('rate limits are shared: points spent on A count on B', async () => {
    for (let i = 0; i < 3; i++) expect((await a.api('/auth/me', { token: owner.token, tenant: 'acme' })).status).toBe(200);
    const onB = await b.api('/auth/me', { token: owner.token, tenant: 'acme' });
    expect(onB.status).toBe(200);
    expect(onB.headers.get('x-ratelimit-remaining')).toBe('2');
    await b.api('/auth/me', { token: owner.token, tenant: 'acme' });
    await a.api('/auth/me', { token: owner.token, tenant: 'acme' });
    expect((await b.api('/auth/me', { token: owner.token, tenant: 'acme' })).status).toBe(429);
  });

  test('the job queue is shared: a job added on A runs once on B, with retries', async () => {
    const ran: string[] = [];
    let attempts = 0;
    const done = new Promise<unknown>((resolve) => {
      void a.platform.drivers.queue.on('shared-test', 'completed', (e) => resolve(e.result));
    });
    b.platform.drivers.queue.process<{ n: number }, number>('shared-test', 2, async (job) => {
      attempts++;
      if (attempts === 1) throw new Error('first attempt fails');
      ran.push(job.id);
      return job.data.n * 2;
    });
    await new Promise((r) => setTimeout(r, 200));
    const id = await a.platform.drivers.queue.add('shared-test', 'double', { n: 21 }, { attempts: 3, backoff: { type: 'fixed', delay: 50 } });
    expect(await done).toBe(42);
    expect(ran).toEqual([id]);
    expect(attempts).toBe(2);
    const info = await a.platform.drivers.queue.getJob('shared-test', id);
    expect(info?.state).toBe('completed');
  });

  test('a token revoked on A is refused on B at once (cached principals dropped everywhere)', async () => {
    const login = await a.api('/auth/login', { tenant: 'acme', body: { email: 'ada@acme.example', password: 'correct-horse-battery' } });
    const token = login.body.token;
    // B caches the principal...
    const first = await b.api('/activity-log', { token, tenant: 'acme' });
    expect([200, 429]).toContain(first.status);
    await a.api('/auth/logout', { method: 'POST', token, tenant: 'acme' });
    await new Promise((r) => setTimeout(r, 100));
    // ...and drops it when A announces the revocation.
    const after = await b.api('/activity-log', { token, tenant: 'acme' });
    expect(after.status).toBe(401);
  });
});
