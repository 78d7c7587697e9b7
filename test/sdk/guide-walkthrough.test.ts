/**
 * The SDK guide followed as a newcomer would (docs/guides/, sections 1, 5 and 8: the module declared
 * in TypeScript, module.json written by the build), so it cannot
 * silently rot: each command line must appear in the guide word for word, and is then run as typed,
 * through the repository's `run` script, from a scratch folder outside the repository, against a
 * real platform (real HTTP, registry, rings, sandbox and tenant databases), including the author's
 * own tsc and jest runs.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '../..');
/** The guide's pages (docs/guides/, one per section), read whole: a command may be on any of them. */
const GUIDE_DIR = path.join(ROOT, 'docs/guides');
const GUIDE = readdirSync(GUIDE_DIR)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => readFileSync(path.join(GUIDE_DIR, f), 'utf8'))
  .join('\n');
/** How the guide names the repository's run script (the repository checked out at ~/mandi). */
const RUN = '~/mandi/run';

interface Ran {
  code: number;
  out: string;
  err: string;
}

describe('the SDK guide (docs/guides/) sections 1, 5 and 8: from nothing to a published, upgraded and rolled back module', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'mandi-newcomer-'));
  const moduleDir = path.join(work, 'loyalty');
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  /** Runs one command line of the guide in the scratch folder, as bash would (async: this process serves the platform). */
  const guide = (command: string, env: Record<string, string> = {}): Promise<Ran> => {
    expect(GUIDE).toContain(command);
    return new Promise((resolve) => {
      execFile(
        'bash',
        ['-c', command.replaceAll(RUN, path.join(ROOT, 'run'))],
        { cwd: work, env: { ...process.env, MANDI_URL: tp.url, MANDI_TOKEN: owner.token, ...env }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr }),
      );
    });
  };
  const ok = async (command: string, env: Record<string, string> = {}): Promise<string> => {
    const ran = await guide(command, env);
    if (ran.code !== 0) throw new Error(`${command} exited ${ran.code}:\n${ran.out}\n${ran.err}`);
    return ran.out;
  };
  const hello = () => tp.api('/loyalty/hello?who=Ada', { token: owner.token, tenant: 'acme' });
  const migrations = () => tp.platform.kernel.moduleData.appliedMigrations(owner.tenantId, 'loyalty');

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    owner = await tp.install('acme');
  }, 60_000);
  afterAll(async () => {
    await tp?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('init, build, type check, the author\'s tests and pack, in the folder the author stands in', async () => {
    expect(await ok(`${RUN} npm run mandi -- module init loyalty`)).toContain('✔ created loyalty');
    expect(existsSync(path.join(moduleDir, 'tsconfig.json'))).toBe(true);
    // Declared in TypeScript: module.json is the build's to write.
    expect(readFileSync(path.join(moduleDir, 'src/index.ts'), 'utf8')).toContain("name: 'loyalty',");
    expect(existsSync(path.join(moduleDir, 'module.json'))).toBe(false);
    expect(existsSync(path.join(ROOT, 'loyalty'))).toBe(false);
    expect(await ok(`${RUN} npm run mandi -- module build loyalty`)).toMatch(
      /✔ wrote module.json from the declarations in src\/index.ts\n✔ module.json valid: loyalty@0.1.0\n✔ bundled dist\/index.js/,
    );
    // The author's type check and own tests, on this run's PostgreSQL server (not a second embedded one).
    await ok(`${RUN} npx tsc -p $PWD/loyalty`);
    const tests = await guide(`${RUN} npx jest --roots $PWD/loyalty`, { DATABASE_URL: process.env.MANDI_TEST_PG_URL ?? '' });
    expect(tests.code).toBe(0);
    expect(tests.err).toMatch(/Tests: +1 passed, 1 total/);
    expect(await ok(`${RUN} npm run mandi -- module pack loyalty`)).toContain('✔ wrote loyalty/loyalty-0.1.0.tgz');
    expect(existsSync(path.join(moduleDir, 'loyalty-0.1.0.tgz'))).toBe(true);
  }, 120_000);

  test('publish, put the tenant in canary, promote, install, and call the route over HTTP', async () => {
    expect(GUIDE).toContain(`curl 'http://localhost:3000/api/v1/loyalty/hello?who=Ada' -H 'X-Tenant: acme' -H "Authorization: Bearer $MANDI_TOKEN"`);
    expect(await ok(`${RUN} npm run mandi -- module publish loyalty`)).toContain(`✔ published loyalty@0.1.0 to ${tp.url}`);
    expect(await ok(`${RUN} npm run mandi -- ring assign acme canary`)).toContain('✔ tenant acme moved from ring stable to canary');
    expect(await ok(`${RUN} npm run mandi -- ring promote loyalty@0.1.0 --to canary`)).toContain('✔ ring canary releases loyalty@0.1.0');
    expect(await ok(`${RUN} npm run mandi -- module install loyalty --tenant acme`)).toContain('✔ loyalty@0.1.0 installed in tenant acme');
    expect(await hello()).toMatchObject({ status: 200, body: { message: 'Hello, Ada!' } });
  }, 60_000);

  test('a second version with a migration reaches the tenant by promotion, and the ring rolls back', async () => {
    // The changes the guide describes for 0.2.0, in the declarations: the version, a table (section 4) and one migration.
    const sourceFile = path.join(moduleDir, 'src/index.ts');
    const data = [
      '  data: {',
      '    models: {',
      '      Balance: {',
      "        table: 'balances',",
      "        columns: { customer_id: { type: 'string', length: 100, primaryKey: true }, points: { type: 'integer', nullable: false, default: 0 } },",
      '      },',
      '    },',
      "    migrations: [{ id: '001_points_not_negative', up: 'migrations/001_points_not_negative.up.sql', down: 'migrations/001_points_not_negative.down.sql' }],",
      '  },',
      '',
    ].join('\n');
    expect(GUIDE).toContain(data);
    expect(GUIDE).toContain("`version: '0.2.0'`");
    const source = readFileSync(sourceFile, 'utf8');
    writeFileSync(sourceFile, source.replace("version: '0.1.0',", "version: '0.2.0',").replace('  limits:', `${data}  limits:`));
    mkdirSync(path.join(moduleDir, 'migrations'));
    const up = 'ALTER TABLE balances ADD CONSTRAINT balances_points_not_negative CHECK (points >= 0);';
    const down = 'ALTER TABLE balances DROP CONSTRAINT balances_points_not_negative;';
    expect(GUIDE).toContain(up);
    expect(GUIDE).toContain(down);
    writeFileSync(path.join(moduleDir, 'migrations/001_points_not_negative.up.sql'), `${up}\n`);
    writeFileSync(path.join(moduleDir, 'migrations/001_points_not_negative.down.sql'), `${down}\n`);

    expect(await ok(`${RUN} npm run mandi -- module publish loyalty`)).toMatch(/✔ built loyalty@0.2.0\n[^]*✔ published loyalty@0.2.0/);
    // publish rebuilt: the module.json it packed is the declarations' and stays for the author to commit.
    expect(JSON.parse(readFileSync(path.join(moduleDir, 'module.json'), 'utf8'))).toMatchObject({ version: '0.2.0', data: { migrations: [{ id: '001_points_not_negative' }] } });
    expect(await ok(`${RUN} npm run mandi -- ring promote loyalty@0.2.0 --to canary`)).toContain('(release 2; was 0.1.0); 1 tenant(s) migrated');
    expect(await migrations()).toEqual(['001_points_not_negative']);
    expect(await ok(`${RUN} npm run mandi -- ring rollback canary`)).toContain('✔ ring canary is back at release 1 (loyalty 0.2.0 → 0.1.0); 1 tenant(s) migrated');
    expect(await migrations()).toEqual([]);
    expect(await hello()).toMatchObject({ status: 200, body: { message: 'Hello, Ada!' } });
  }, 60_000);
});
