/**
 * Issue 9 item 2 (spec 3 Bulk operations: idempotent upsert; Limits: import queue): a node that
 * dies mid-import does not lose the import. Node A is a real platform process (core/main.ts) killed
 * with SIGKILL after its first chunks: no shutdown, no end call, its Redis and PostgreSQL connections
 * cut. Node B, a second platform on the same PostgreSQL, DATA_DIR (and Redis), then finishes the
 * import, with the counts of a clean import and every order, item and history row exactly once.
 * It sits with the core suites, not orders' own tests: it tests the platform's import queue across
 * a process that dies, which takes a second platform process and a shared deployment.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueryTypes } from 'sequelize';
import { dropDatabase, databaseUrl } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { buildModule } from '../../sdk/build/build-module';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { describeWithRedis } from '../support/two-nodes';

const ROOT = path.resolve(__dirname, '../..');
const ORDERS_DIR = path.join(ROOT, 'modules/orders');
const HEADER = 'order_number,customer_phone,customer_email,customer_first_name,customer_last_name,item_name,item_quantity,item_price,item_sku,total,payment_status,status,notes';
/** 30,000 rows = 15,000 orders of two items = 60 chunks: long enough to kill A in the middle. */
const ROWS = 30_000;
const TERMINAL = ['completed', 'completed_with_errors', 'failed', 'cancelled'];

function csv(): { text: string; expectedTotal: number } {
  const lines = [HEADER];
  let expectedTotal = 0;
  for (let i = 0; i < ROWS; i++) {
    const n = String(Math.floor(i / 2)).padStart(6, '0');
    const quantity = 1 + (i % 3);
    expectedTotal += quantity * 100;
    lines.push(`NL-${n},+9198${n}00,,Cust,${n},Item ${i % 2},${quantity},100.00,,,paid,confirmed,`);
  }
  return { text: lines.join('\n') + '\n', expectedTotal };
}

interface ChildNode {
  /** Its URL once it listens. */
  ready: Promise<string>;
  /** SIGKILL: the process gets no chance to finish anything. */
  kill(): Promise<void>;
}

/** A platform in its own process (`npm start`'s entry point), so it can be killed for real. */
function startChildNode(env: Record<string, string>): ChildNode {
  const child: ChildProcess = fork(path.join(ROOT, 'core/main.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node A did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`node A exited while starting:\n${output}`));
    });
  });
  ready.catch(() => child.kill('SIGKILL'));
  return {
    ready,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON under test

async function api(url: string, method: string, p: string, opts: { token?: string; tenant?: string; body?: unknown; form?: FormData } = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.tenant) headers['x-tenant'] = opts.tenant;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}/api/v1${p}`, { method, headers, body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)) });
  return { status: res.status, body: (await res.json()) as Json };
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; last: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * One deployment's worth of shared state (central database, DATA_DIR, Redis prefix) and the env
 * both nodes start with. Short bull lock and stalled check so B takes the job over in seconds.
 */
function deployment(redis: boolean) {
  const db = `mandi_t_${randomBytes(5).toString('hex')}`;
  const env = {
    NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', ROOT_DOMAIN: 'mandi.test',
    DATABASE_URL: databaseUrl(testServerUrl(), db), REDIS_URL: redis ? process.env.REDIS_URL! : '', REDIS_PREFIX: `mandi-test-${db}`,
    DATA_DIR: path.join(os.tmpdir(), `mandi-test-${db}`), MODULE_PATHS: ORDERS_DIR, QUEUE_LOCK_MS: '3000', QUEUE_STALLED_CHECK_MS: '1000',
  };
  const children: ChildNode[] = [];
  let b: TestPlatform | undefined;
  let tenantId: string | undefined;
  return {
    env,
    /** The tenant node A created, whose database close() drops when B never started. */
    setTenant: (id: string) => void (tenantId = id),
    startA() {
      const a = startChildNode(env);
      children.push(a);
      return a;
    },
    async startB() {
      b = await startTestPlatform(env, db);
      return b;
    },
    async killAll() {
      for (const child of children) await child.kill();
    },
    async close() {
      await this.killAll();
      if (b) await b.close(); // drops the tenant databases and DATA_DIR
      else if (tenantId) await dropDatabase(testServerUrl(), tenantDbName(tenantId));
      await dropDatabase(testServerUrl(), db);
      fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** Node A: install, upload, wait for the first chunks, SIGKILL. Returns what B needs. */
async function importThenKill(d: ReturnType<typeof deployment>, file: string) {
  const a = { url: await d.startA().ready };
  const owner = await api(a.url, 'POST', '/install/owner', {
    body: { organization_name: 'Node Loss', organization_slug: 'nodeloss', name: 'Ada', email: 'ada@nodeloss.example', password: 'correct-horse-battery' },
  });
  expect(owner.status).toBe(201);
  const auth = { token: owner.body.token as string, tenant: owner.body.tenant.id as string };
  d.setTenant(auth.tenant);
  expect((await api(a.url, 'POST', '/modules/orders/install', { ...auth, body: {} })).status).toBe(201);
  const form = new FormData();
  form.append('source', 'node-loss');
  form.append('file', new Blob([file], { type: 'text/csv' }), 'orders.csv');
  const accepted = await api(a.url, 'POST', '/orders/bulk/import', { ...auth, form });
  expect(accepted.status).toBe(202);
  const importId = accepted.body.import_id as string;
  const before = await poll(() => api(a.url, 'GET', `/orders/bulk/import/${importId}`, auth), (r) => r.body.processed_rows >= 1000 || TERMINAL.includes(r.body.status), 60_000, 'no chunk was written');
  await d.killAll();
  const killedAt = Date.now();
  // Killed in the middle, not after the end: otherwise this test would prove nothing.
  expect(before.body.status).toBe('processing');
  expect(before.body.processed_rows).toBeLessThan(ROWS);
  return { auth, importId, tenantId: auth.tenant, killedAt };
}

const count = async (node: TestPlatform, tenantId: string, sql: string) =>
  ((await node.platform.tenantDbs.with(tenantId, (db) => db.query(sql, { type: QueryTypes.SELECT }))) as Array<{ n: string }>)[0]!.n;

/** Waits for B to end the import, checks it is a clean import's result; returns when it ended. */
async function expectCleanImport(b: TestPlatform, tenantId: string, auth: { token: string; tenant: string }, importId: string, expectedTotal: number): Promise<number> {
  const done = await poll(() => api(b.url, 'GET', `/orders/bulk/import/${importId}`, auth), (r) => TERMINAL.includes(r.body.status), 120_000, 'node B did not finish the import');
  const endedAt = Date.now();
  expect(done.body).toMatchObject({ status: 'completed', total_rows: ROWS, processed_rows: ROWS, created: ROWS / 2, updated: 0, unchanged: 0, failed: 0, error_count: 0, errors: [] });
  // Each order, item and history row once; each chunk's counters once (a re-run chunk replaced its row).
  expect(await count(b, tenantId, `SELECT count(*)::text AS n FROM orders.orders WHERE source = 'node-loss'`)).toBe(String(ROWS / 2));
  expect(await count(b, tenantId, `SELECT count(*)::text AS n FROM orders.order_items`)).toBe(String(ROWS));
  expect(await count(b, tenantId, `SELECT count(*)::text AS n FROM orders.order_status_history WHERE reason = 'imported'`)).toBe(String(ROWS / 2));
  expect(await count(b, tenantId, `SELECT count(*)::text AS n FROM orders.order_import_chunks WHERE import_id = '${importId}'`)).toBe(String(ROWS / 500));
  expect(await count(b, tenantId, `SELECT sum(total)::text AS n FROM orders.orders WHERE source = 'node-loss'`)).toBe(`${expectedTotal}.00`);
  // What node A had written was found and left alone, not written a second time.
  expect(await count(b, tenantId, `SELECT count(*)::text AS n FROM orders.orders WHERE version <> 1`)).toBe('0');
  return endedAt;
}

/** The upload and its journal entry go right after the end call that set the import's status. */
const uploadsGone = (dir: string) => poll(async () => fs.readdirSync(dir), (files) => files.length === 0, 5_000, 'the upload or its journal entry was left behind');

const { text: FILE, expectedTotal: EXPECTED_TOTAL } = csv();

beforeAll(() => buildModule(ORDERS_DIR), 60_000);

function nodeLoss(redis: boolean) {
  const takeOver = redis ? 'another node takes the job over once its lock runs out' : 'the restarted node queues the job again from its journal';
  it(`${takeOver} and finishes it with exact counts`, async () => {
    const d = deployment(redis);
    try {
      const { auth, importId, tenantId, killedAt } = await importThenKill(d, FILE);
      const b = await d.startB();
      const endedAt = await expectCleanImport(b, tenantId, auth, importId, EXPECTED_TOTAL);
      // QUEUE_LOCK_MS 3 s here: with bull's 30 s lock B could not even have started before this.
      if (redis) expect(endedAt - killedAt).toBeLessThan(25_000);
      await uploadsGone(path.join(d.env.DATA_DIR, 'uploads', tenantId));
    } finally {
      await d.close();
    }
  }, 240_000);

  it('a job whose node dies a second time is failed with a clear reason instead of started a third time', async () => {
    const d = deployment(redis);
    try {
      const { auth, importId, tenantId } = await importThenKill(d, FILE);
      // A fresh node takes the job up again (at boot, or once the lock has run out); it is killed
      // as soon as it has started it.
      const again = d.startA();
      again.ready.catch(() => undefined);
      const dir = path.join(d.env.DATA_DIR, 'uploads', tenantId);
      const starts = () => fs.readdirSync(dir).filter((f) => f.endsWith('.job.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).starts as number);
      await poll(async () => starts(), (n) => n[0] === 2, 30_000, 'the job was not started again');
      await d.killAll();
      const b = await d.startB();
      const done = await poll(() => api(b.url, 'GET', `/orders/bulk/import/${importId}`, auth), (r) => TERMINAL.includes(r.body.status), 60_000, 'node B did not end the import');
      expect(done.body).toMatchObject({ status: 'failed', total_rows: ROWS, failure_reason: expect.stringMatching(/stopped before it finished, twice/) });
      await uploadsGone(dir);
    } finally {
      await d.close();
    }
  }, 240_000);
}

describeWithRedis('spec 3 Bulk operations (idempotent import), on Redis: a node killed mid-import', () => nodeLoss(true));
describe('spec 3 Bulk operations (idempotent import), in process: a node killed mid-import', () => nodeLoss(false));
