import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { eventually } from '../support/eventually';
import { freePort } from '../support/free-port';
import { apiClient, installOwner, testServerUrl } from '../support/test-platform';
import { platformProcessEnv } from '../support/platform-process';

/**
 * Some allocation shapes make V8 give up on an isolate below its memory limit (isolated-vm's
 * "catastrophic out-of-memory"): the isolate's thread and memory are never given back and the
 * process cannot exit normally. So the platform runs here as `./run start` runs it, under
 * scripts/supervise.mjs, in a child process: the node must answer the call, quarantine the module,
 * drain, end, come back, and serve the other tenants.
 */
const root = path.resolve(__dirname, '../..');
const modules = ['oom', 'steady'].map((m) => path.join(__dirname, 'fixtures', 'modules', m));

interface Node {
  child: ChildProcess;
  output: () => string;
  /** The platform's pids, in the order the supervisor started them. */
  pids: () => number[];
  api: ReturnType<typeof apiClient>;
}

async function startSupervised(env: NodeJS.ProcessEnv, port: number): Promise<Node> {
  const child = spawn(process.execPath, ['scripts/supervise.mjs', process.execPath, '--import', 'tsx', 'core/main.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const api = apiClient(`http://127.0.0.1:${port}`);
  return { child, api, output: () => out, pids: () => [...out.matchAll(/\[supervise\] started pid (\d+)/g)].map((m) => Number(m[1])) };
}

/** Waits until the platform started as the `n`th process answers its health route. */
async function serving(node: Node, n: number): Promise<void> {
  const health = () => node.api('/health').then((r) => r.status, () => 0);
  const seen = await eventually(
    async () => ({ processes: node.pids().length, health: await health() }),
    (v) => v.processes === n && v.health === 200,
    90_000,
  );
  if (seen.processes !== n || seen.health !== 200) throw new Error(`not serving as process ${n}: ${JSON.stringify(seen)}\n${node.output().slice(-4000)}`);
}

describe('spec/DESIGN Sandbox: a catastrophic out-of-memory quarantines the module and the node restarts under its supervisor', () => {
  const centralDb = `mandi_t_${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-oom-'));
  let node: Node;
  let token: string;
  const tenantIds: string[] = [];
  const acme = (p: string, body?: unknown, method?: string) => node.api(p, { token, tenant: 'acme', body, method });
  const globex = (p: string, body?: unknown) => node.api(p, { token, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' }, body });

  beforeAll(async () => {
    const port = await freePort();
    node = await startSupervised(platformProcessEnv({ port, centralDb, dataDir, modulePaths: modules }, { SHUTDOWN_GRACE_MS: '2000' }), port);
    await serving(node, 1);
    const owner = await installOwner(node.api);
    token = owner.token;
    tenantIds.push(owner.tenantId);
    const made = await acme('/admin/tenants', { name: 'Globex', alias: 'globex' });
    expect(made.status).toBe(201);
    tenantIds.push(made.body.tenant.id);
    for (const [call, alias] of [[acme, 'oom'], [acme, 'steady'], [globex, 'steady']] as const) {
      expect((await call(`/modules/${alias}/install`, {})).status).toBe(201);
    }
    expect((await acme('/oom/ok', {})).body).toBe('alive');
  }, 180_000);

  afterAll(async () => {
    if (node.child.exitCode === null) {
      const exited = new Promise((resolve) => node.child.on('exit', resolve));
      node.child.kill('SIGTERM');
      await exited;
    }
    for (const id of tenantIds) await dropDatabase(testServerUrl(), tenantDbName(id));
    await dropDatabase(testServerUrl(), centralDb);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it.each([
    ['keys', 'an object given keys without end', 2],
    ['array_from', 'Array.from of 2^27 elements', 3],
  ])('%s (%s): the caller gets MODULE_QUARANTINED, the node is replaced, other tenants are served, the quarantine holds', async (op, _what, processes) => {
    const before = node.pids().at(-1)!;
    const started = performance.now();
    const crashed = await acme(`/oom/${op}`, {});
    expect(crashed).toMatchObject({ status: 503, body: { code: 'MODULE_QUARANTINED' } });
    expect(performance.now() - started).toBeLessThan(30_000); // answered, not left to the module's 30 s timeout

    await serving(node, processes);
    expect(node.pids().at(-1)).not.toBe(before);
    expect(() => process.kill(before, 0)).toThrow(); // the old process is gone, with the isolate's memory
    expect(node.output()).toMatch(/\[supervise\] the platform was ended by SIGKILL; restarting/);

    // Other tenants, and other modules of the same tenant, are served by the new process.
    expect(await globex('/steady/ping', { n: 1 })).toMatchObject({ status: 201, body: { pong: 1, tenant: tenantIds[1] } });
    expect(await acme('/steady/ping', { n: 2 })).toMatchObject({ status: 201, body: { pong: 2 } });
    // The module version stays refused after the restart, for every tenant, and admins see why.
    const refused = await acme('/oom/ok', {});
    expect(refused).toMatchObject({ status: 503, body: { code: 'MODULE_QUARANTINED', message: expect.stringContaining('oom@1.0.0') } });
    const listed = await acme('/registry/quarantine');
    expect(listed.body.quarantined).toEqual([
      { module: 'oom@1.0.0', reason: 'Catastrophic out-of-memory error', since: expect.any(String), until: expect.any(String) },
    ]);

    // A platform admin lifts it; the module answers again.
    expect((await acme('/registry/quarantine/oom@1.0.0', undefined, 'DELETE')).status).toBe(200);
    expect(await acme('/oom/ok', {})).toMatchObject({ status: 201, body: 'alive' });
  }, 180_000);
});
