import { eventually } from '../support/eventually';
import { jobsPlatform, type JobsPlatform } from '../jobs/support';

/**
 * One tenant's burst of slow module jobs against another tenant's quick one, on a real platform (with
 * REDIS_URL: bull on Redis). The fixture's `burst` job may run on every worker at once (concurrency 4);
 * `dawdle` keeps its worker busy with queries one after the other, about a second per 500 rounds.
 */
describe("DESIGN wave 3 (one job service, scheduling tenants fairly): one tenant's module jobs cannot hold every tenant's workers", () => {
  let p: JobsPlatform;
  const WORKERS = 4;
  const BURST = 12;
  beforeAll(async () => {
    p = await jobsPlatform({ MODULE_JOBS_WORKERS: String(WORKERS) });
  }, 120_000);
  afterAll(() => p.tp.close());

  /** When each job of the tenant started (platform clock, ms), by job id. */
  const startTimes = async (tenant: 'acme' | 'globex'): Promise<Map<string, number>> => {
    const runs = (await p.call('jobber.runs', {}, tenant)) as Array<{ job_id: string; step: string; at: string }>;
    return new Map(runs.filter((r) => r.step === 'start').map((r) => [r.job_id, Number(r.at)]));
  };
  const burst = async () => {
    const ids: string[] = [];
    for (let n = 0; n < BURST; n++) ids.push((await p.call('jobber.enqueue', { job: 'burst', data: { mode: 'dawdle', rounds: 1500, n } })).id);
    return ids;
  };
  const statuses = (ids: string[]) => Promise.all(ids.map(async (id) => (await p.call('jobber.get', { id })).status as string));
  // One job at a time: twelve probes at once would spend the bus's per-operation budget of a caller.
  const settle = async (ids: string[]) => {
    for (const id of ids) await p.until(id, ['completed'], 90_000);
  };

  test("another tenant's quick job starts as soon as a worker frees, before the rest of a burst that filled every worker", async () => {
    const hog = await burst();
    const started = async () => [...(await startTimes('acme')).keys()].filter((id) => hog.includes(id)).length;
    // The burst holds every worker (nobody else was waiting).
    await eventually(started, (n) => n >= WORKERS, 20_000);
    const queuedAt = Date.now();
    const { id } = await p.call('jobber.enqueue', { job: 'work', data: { mode: 'ok' } }, 'globex');
    expect((await p.until(id, ['completed'], 90_000, 'globex')).status).toBe('completed');
    const waited = Date.now() - queuedAt;
    // In process the first worker to free goes to globex; with bull the node holds one job more than
    // it has workers, the burst's, which takes that worker, and under load one more of the burst may
    // start while globex's job is still on its way to the node (seen once in CI on Redis). In FIFO
    // order the whole burst (12) starts first.
    const quickAt = (await startTimes('globex')).get(id)!;
    const first = [...(await startTimes('acme'))].filter(([job, at]) => hog.includes(job) && at <= quickAt).length;
    if (first > WORKERS + 2) throw new Error(`${first} of the burst's ${BURST} jobs started before globex's quick job, which was done after ${waited} ms`);
    await settle(hog);
  }, 180_000);

  test('a tenant alone uses every worker: its burst runs on all of them at once', async () => {
    const hog = await burst();
    // Twelve reads a probe: every 250 ms keeps them within the bus's per-operation budget on a slow machine.
    const active = await eventually(statuses.bind(null, hog), (s) => s.filter((x) => x === 'active').length >= WORKERS, 20_000, 250);
    expect(active.filter((x) => x === 'active')).toHaveLength(WORKERS);
    await settle(hog);
  }, 180_000);
});
