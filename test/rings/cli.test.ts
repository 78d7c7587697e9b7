/**
 * Issue 4 item 6: `mandi module publish|install|upgrade|rollback|uninstall` and `mandi ring
 * list|show|promote|rollback|assign`, run as an operator would (the real CLI in a child process)
 * against a real platform, with their output and exit codes (0 done, 1 refused or failed, 2 bad
 * usage, 3 token refused, 4 platform unreachable).
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { fixture, tenantIn } from './support';

const ROOT = path.resolve(__dirname, '../..');

describe('issue 4 item 6: the mandi CLI against a platform', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let keyFile: string;

  /** Runs the CLI in a child process (async: this process serves the platform meanwhile). */
  const mandi = (args: string[], env: Record<string, string | undefined> = {}) =>
    new Promise<{ code: number; out: string; err: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', path.join(ROOT, 'sdk/cli/main.ts'), ...args],
        { cwd: ROOT, env: { ...process.env, MANDI_URL: tp.url, MANDI_TOKEN: owner.token, ...env }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
      );
    });

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    owner = await tp.install('acme');
    await tenantIn(tp, owner, 'shop', 'canary');
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    keyFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'mandi-key-')), 'publisher.pem');
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const created = await tp.api('/registry/publishers', { token: owner.token, body: { name: 'acme-labs', public_key: publicKey.export({ type: 'spki', format: 'pem' }) } });
    expect(created.status).toBe(201);
  }, 120_000);
  afterAll(() => tp?.close());

  test('publish packs, signs and uploads a module folder; bad usage and bad tokens have their own exit codes', async () => {
    const ok = await mandi(['module', 'publish', fixture('stock@1.0.0'), '--key', keyFile, '--publisher', 'acme-labs']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(`✔ published stock@1.0.0 to ${tp.url}`);
    expect(ok.out).toMatch(/sha256 {5}[0-9a-f]{64}/);
    expect(ok.out).toContain('signed     yes (publisher acme-labs)');

    const again = await mandi(['module', 'publish', fixture('stock@1.0.0'), '--key', keyFile, '--publisher', 'acme-labs']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('✖ stock@1.0.0 is already published; published versions are final, publish a new version instead. (VERSION_EXISTS)');

    const unsigned = await mandi(['module', 'publish', fixture('stock@1.1.0'), '--publisher', 'acme-labs']);
    expect(unsigned.code).toBe(1);
    expect(unsigned.err).toContain('SIGNATURE_REQUIRED');
    expect((await mandi(['module', 'publish', fixture('stock@1.1.0')], { MANDI_TOKEN: '' })).code).toBe(2);
    expect((await mandi(['ring', 'list'], { MANDI_TOKEN: 'mnd_0000000000000000000000000000000000000000' })).code).toBe(3);
    expect((await mandi(['ring', 'list'], { MANDI_URL: 'http://127.0.0.1:9' })).code).toBe(4);
    expect((await mandi(['ring', 'promote', 'stock', '--to', 'canary'])).code).toBe(2);
    // Commander's own usage errors are bad usage too: a missing required option, an unknown command.
    expect((await mandi(['ring', 'promote', 'stock@1.0.0'])).code).toBe(2);
    expect((await mandi(['module', 'bogus'])).code).toBe(2);

    for (const name of ['stock@1.1.0', 'stock@1.3.0']) expect((await mandi(['module', 'publish', fixture(name), '--key', keyFile, '--publisher', 'acme-labs'])).code).toBe(0);
  });

  test('ring promote, module install and upgrade, ring show and list', async () => {
    const promoted = await mandi(['ring', 'promote', 'stock@1.0.0', '--to', 'canary']);
    expect(promoted.code).toBe(0);
    expect(promoted.out).toContain('✔ ring canary releases stock@1.0.0 (release 1; was absent); 0 tenant(s) migrated');

    const installed = await mandi(['module', 'install', 'stock', '--tenant', 'shop']);
    expect(installed.code).toBe(0);
    expect(installed.out).toContain('✔ stock@1.0.0 installed in tenant shop');

    const up = await mandi(['ring', 'promote', 'stock@1.1.0', '--to', 'canary']);
    expect(up.code).toBe(0);
    expect(up.out).toContain('(release 2; was 1.0.0); 1 tenant(s) migrated');
    // Progress lines are printed when stderr is not a terminal.
    expect(up.out).toMatch(/tenant [0-9a-z]{8}: stock 1\.0\.0 → 1\.1\.0/);

    const list = await mandi(['ring', 'list']);
    expect(list.out.split('\n')[0]).toMatch(/^canary\s+position 10\s+tenants 1\s+release 2\s+stock@1\.1\.0$/);
    expect(list.out).toMatch(/stable\s+position 30\s+tenants 1\s+release 0\s+\(empty\)/);
    const show = await mandi(['ring', 'show', 'canary']);
    expect(show.out).toContain('release 2: stock@1.1.0');
    expect(show.out).toMatch(/2 {2}\S+ {2}promote {2}stock 1\.0\.0 → 1\.1\.0 {2}by user:\d+/);
  });

  test('refusals print their reasons and exit 1', async () => {
    const breaking = await mandi(['ring', 'promote', 'stock@1.3.0', '--to', 'canary']);
    expect(breaking.code).toBe(1);
    expect(breaking.err).toContain('✖ Cannot promote stock@1.3.0 to ring canary');
    expect(breaking.err).toContain('[breaking] operation stock.find_by_slug was removed');

    const assign = await mandi(['ring', 'assign', 'shop', 'stable']);
    expect(assign.code).toBe(1);
    expect(assign.err).toContain('[installed] ring stable does not release stock');
  });

  test('module rollback, ring rollback, ring assign and uninstall', async () => {
    const back = await mandi(['module', 'rollback', 'stock', '--tenant', 'shop']);
    expect(back.code).toBe(0);
    expect(back.out).toContain('✔ stock@1.0.0 rolled back in tenant shop (was 1.1.0)');
    expect((await mandi(['module', 'upgrade', 'stock', '--tenant', 'shop'])).out).toContain('✔ stock@1.1.0 upgraded in tenant shop (was 1.0.0)');

    const ringBack = await mandi(['ring', 'rollback', 'canary']);
    expect(ringBack.code).toBe(0);
    expect(ringBack.out).toContain('✔ ring canary is back at release 1 (stock 1.1.0 → 1.0.0); 1 tenant(s) migrated');

    expect((await mandi(['ring', 'promote', 'stock@1.0.0', '--to', 'stable', '--from', 'canary'])).code).toBe(0);
    const moved = await mandi(['ring', 'assign', 'shop', 'stable']);
    expect(moved.code).toBe(0);
    expect(moved.out).toContain('✔ tenant shop moved from ring canary to stable; 0 module(s) migrated');

    const removed = await mandi(['module', 'uninstall', 'stock', '--tenant', 'shop', '--purge']);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain('✔ stock uninstalled from tenant shop (data purged)');
  });
});
