/**
 * First run in one step: `mandi platform seed` publishes every module folder it is given and promotes
 * each into every ring, dependencies first, and running it again changes nothing; the console's seed
 * (POST /platform/seed, development) does the same with the first-party modules, after which a tenant
 * installs orders.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '..', '..');

/** The real CLI in a child process (asynchronously: the platform it talks to runs in this one). */
function mandi(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'sdk/cli/main.ts'), ...args], { cwd: ROOT, env: { ...process.env, INIT_CWD: ROOT } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('issue 21 first run: mandi platform seed', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
  }, 120_000);
  afterAll(() => tp?.close());

  test('publishes each module folder and promotes it into every ring; a second run changes nothing', async () => {
    const first = await mandi('platform', 'seed', '--modules', 'test/console/fixtures', '--url', tp.url, '--token', owner.token);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toContain('✔ showcase@1.0.0: published; promoted into canary, beta, stable');
    const rings = (await tp.api('/rings', { token: owner.token })).body.rings as Array<{ name: string; release: { modules: Record<string, string> } }>;
    expect(rings.map((r) => [r.name, r.release.modules.showcase])).toEqual([['canary', '1.0.0'], ['beta', '1.0.0'], ['stable', '1.0.0']]);

    const again = await mandi('platform', 'seed', '--modules', 'test/console/fixtures', '--url', tp.url, '--token', owner.token);
    expect(again.code).toBe(0);
    expect(again.out).toContain('✔ showcase@1.0.0: already published; every ring releases it already');
  }, 300_000);

  test('a refused token exits 3 with the API\'s message', async () => {
    const res = await mandi('platform', 'seed', '--modules', 'test/console/fixtures', '--url', tp.url, '--token', 'nope');
    expect(res.code).toBe(3);
    expect(res.err).toContain('✖');
  }, 120_000);
});

describe('issue 21 first run: the console\'s seed in development, then a tenant installs orders', () => {
  let tp: TestPlatform;
  afterAll(() => tp?.close());

  test('POST /platform/seed publishes and promotes every first-party module; orders then installs', async () => {
    tp = await startTestPlatform({ NODE_ENV: 'development' });
    const owner = await tp.install('acme');
    const who = { token: owner.token, tenant: 'acme' };
    expect((await tp.api('/modules', who)).body.available).toEqual([]);
    const seeded = await tp.api('/platform/seed', { ...who, body: {} });
    expect(seeded.status).toBe(200);
    const aliases = (seeded.body.modules as Array<{ alias: string; promoted: string[] }>).map((m) => m.alias);
    expect(aliases).toEqual(expect.arrayContaining(['orders', 'loyalty']));
    for (const m of seeded.body.modules) expect(m.promoted).toEqual(['canary', 'beta', 'stable']);
    const installed = await tp.api('/modules/orders/install', { ...who, body: {} });
    expect(installed.status).toBe(201);
  }, 600_000);
});
