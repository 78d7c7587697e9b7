/** The public test host runs and settles module jobs, so authors can test theirs (sdk/testing). */
import { createTestHost, type TestHost } from '../../sdk/testing';
import { jobFixture } from './support';

let host: TestHost;
beforeAll(async () => {
  host = await createTestHost({ modulePath: jobFixture('jobber'), build: false });
}, 90_000);
afterAll(() => host?.close());

describe('sdk testing: module jobs in the test host', () => {
  it('runJobs(at) runs the jobs due on the platform clock, retries back to back, and leaves later ones pending', async () => {
    const start = Date.parse('2031-03-01T10:00:00Z');
    host.clock.freeze(start);
    try {
      const sweep = await host.call<{ id: string }>('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 1 }, delay_seconds: 3600, key: 'sweep' });
      const flaky = await host.call<{ id: string }>('jobber.enqueue', { job: 'work', data: { mode: 'flaky', succeed_at: 2 }, delay_seconds: 3600 });
      expect(await host.runJobs()).toEqual([]);
      host.clock.advance(3600_000);
      const ran = await host.runJobs();
      expect(ran.map((j) => [j.id, j.status, j.attempts])).toEqual([
        [sweep.id, 'completed', 1],
        [flaky.id, 'completed', 2],
      ]);
      expect((await host.job(sweep.id)).result).toMatchObject({ n: 1, now: start + 3600_000 });
      expect(await host.runJobs()).toEqual([]);
    } finally {
      host.clock.reset();
    }
  });

  it('settleJob(id) waits for a job the queue runs on its own', async () => {
    const { id } = await host.call<{ id: string }>('jobber.enqueue', { job: 'work', data: { mode: 'ok', n: 2 } });
    expect(await host.settleJob(id)).toMatchObject({ status: 'completed', result: { n: 2 }, progress: { done: 1, of: 2 } });
    await expect(host.job('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/no module job/);
  });
});
