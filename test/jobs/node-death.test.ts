import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { eventually } from '../support/eventually';
import { platformProcessEnv, startServingNode, stopPlatformProcesses, type PlatformProcess } from '../support/platform-process';
import { describeWithRedis } from '../support/two-nodes';
import { installOwner, testServerUrl } from '../support/test-platform';
import { jobFixture } from './support';

/**
 * A module job whose node is killed mid-job (SIGKILL: no shutdown, no lock released) is taken up by
 * another node once bull finds it stalled, and completes once. Each node is a real platform process
 * (core/main.ts), as `./run start` runs it, on one central database and one Redis.
 */
describeWithRedis('DESIGN Host capabilities (wave 2): module jobs survive the death of the node running them (bull stalled-job recovery)', () => {
  const centralDb = `mandi_t_${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-jobs-'));
  const nodes: PlatformProcess[] = [];
  let tenantId: string;

  const env = (port: number) =>
    platformProcessEnv(
      { port, centralDb, dataDir, modulePaths: [jobFixture('jobber')] },
      // A dead node's job moves on within about a second and a half.
      { QUEUE_LOCK_MS: '1000', QUEUE_STALLED_CHECK_MS: '200' },
    );

  afterAll(async () => {
    await stopPlatformProcesses(nodes);
    if (tenantId) await dropDatabase(testServerUrl(), tenantDbName(tenantId));
    await dropDatabase(testServerUrl(), centralDb);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  test('a job whose node is SIGKILLed mid-job is finished by a second node, exactly once', async () => {
    const { node: a, api: apiA } = await startServingNode(env, nodes);
    const owner = await installOwner(apiA);
    const token = owner.token;
    tenantId = owner.tenantId;
    expect((await apiA('/modules/jobber/install', { token, tenant: 'acme', body: {} })).status).toBe(201);

    // Node A takes the job; its first start waits for ever.
    const queued = await apiA('/jobber/jobs', { token, tenant: 'acme', body: { job: 'durable', data: { mode: 'wait_first' } } });
    expect(queued.status).toBe(201);
    const id = queued.body.id as string;
    const job = (api: typeof apiA) => api(`/jobber/jobs/${id}`, { token, tenant: 'acme' }).then((r) => r.body);
    expect(await eventually(() => job(apiA), (j) => j.status === 'active', 15_000)).toMatchObject({ status: 'active', attempts: 1 });
    const runs = (api: typeof apiA) => api(`/jobber/runs?job_id=${id}`, { token, tenant: 'acme' }).then((r) => r.body as Array<{ step: string }>);
    expect((await eventually(() => runs(apiA), (r) => r.length === 1, 10_000)).map((r) => r.step)).toEqual(['start']);

    const exited = new Promise((resolve) => a.child.on('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;

    // Node B starts on the same database and Redis and finishes the job.
    const { api: apiB } = await startServingNode(env, nodes);
    // Node B may answer /health before it has loaded the tenant's modules: a 404 is not an answer yet.
    const done = await eventually(() => job(apiB), (j) => typeof j.status === 'string' && j.status !== 'active' && j.status !== 'pending', 30_000);
    expect(done).toMatchObject({ id, status: 'completed', result: { finished_on_start: 2 } });
    // Exactly once in effect: one finish, after the two starts (the killed one and B's).
    await new Promise((r) => setTimeout(r, 1500));
    expect((await runs(apiB)).map((r) => r.step)).toEqual(['start', 'start', 'done']);
  }, 180_000);
});
