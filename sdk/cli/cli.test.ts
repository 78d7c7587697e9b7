import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { readPackage } from '../package/read';

const ROOT = path.resolve(__dirname, '../..');

/** Runs the real CLI as an author would, from `cwd` (npm passes it as INIT_CWD). */
function mandi(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'sdk/cli/main.ts'), 'module', ...args], {
    cwd: ROOT,
    env: { ...process.env, INIT_CWD: cwd },
    encoding: 'utf8',
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('issue 3 item 7: mandi module init -> build -> pack', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'mandi-cli-'));
  });

  it('scaffolds, builds and packs a module that readPackage accepts', async () => {
    const init = mandi(work, 'init', 'loyalty');
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(init.out).toContain('✔ created loyalty');
    const dir = path.join(work, 'loyalty');

    const build = mandi(dir, 'build');
    expect(build.err).toBe('');
    expect(build.out).toMatch(/✔ module.json valid: loyalty@0.1.0\n✔ bundled dist\/index.js \(.+\) in \d+ ms/);

    const pack = mandi(dir, 'pack');
    expect(pack.code).toBe(0);
    expect(pack.out).toContain('✔ bundle dist/index.js is up to date');
    expect(pack.out).toContain('✔ wrote loyalty-0.1.0.tgz');
    const sha = /sha256 {2}([0-9a-f]{64})/.exec(pack.out)?.[1];
    const size = Number(/size {4}(\d+) bytes/.exec(pack.out)?.[1]);

    const buffer = await readFile(path.join(dir, 'loyalty-0.1.0.tgz'));
    expect(buffer.length).toBe(size);
    expect(sha).toBe(createHash('sha256').update(buffer).digest('hex'));
    const pkg = await readPackage(buffer);
    expect(pkg.manifest.api?.provides?.map((op) => op.name)).toEqual(['loyalty.hello']);
    expect([...pkg.files.keys()]).toEqual(['module.json', 'dist/index.js']);
    // Strict like the modules in the repository: esbuild follows the scaffold's tsconfig.json to the repository's.
    expect(pkg.files.get('dist/index.js')?.toString()).toMatch(/^"use strict";\nvar __mandi_module = /);
  });

  it('scaffolds source that type-checks strictly against the sdk', async () => {
    const dir = path.join(work, 'loyalty');
    const program = ts.createProgram([path.join(dir, 'src/index.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
    const test = await readFile(path.join(dir, 'test/loyalty.test.ts'), 'utf8');
    expect(test).toContain(`import { createTestHost } from '${path.relative(path.join(dir, 'test'), path.join(ROOT, 'sdk/testing'))}'`);
    expect(test).toContain('createTestHost({ modulePath: path.resolve(__dirname, \'..\') })');
  });

  it('packs again after a source change, rebuilding first', async () => {
    const dir = path.join(work, 'loyalty');
    const file = path.join(dir, 'src/index.ts');
    await writeFile(file, (await readFile(file, 'utf8')).replace('Hello, ', 'Hi, '));
    const pack = mandi(dir, 'pack', '--out', work);
    expect(pack.code).toBe(0);
    expect(pack.out).toMatch(/✔ bundled dist\/index.js/);
    const pkg = await readPackage(await readFile(path.join(work, 'loyalty-0.1.0.tgz')));
    expect(pkg.files.get('dist/index.js')?.toString()).toContain('Hi, ');
  });

  it('refuses to scaffold over an existing folder or with an invalid alias', () => {
    const again = mandi(work, 'init', 'loyalty');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^✖ .*loyalty already exists and is not empty/);
    const bad = mandi(work, 'init', 'Loyalty-Points');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/"Loyalty-Points" is not a valid module alias/);
  });

  it('fails a build with every manifest error as "<pointer>: <message>" and exit code 1', async () => {
    const dir = path.join(work, 'loyalty');
    const file = path.join(dir, 'src/index.ts');
    const source = await readFile(file, 'utf8');
    await writeFile(file, source.replace("version: '0.1.0',", "version: '1', extra: 1,").replace("platform: '^2.0.0'", "platform: '^9'"));
    const build = mandi(dir, 'build');
    expect(build.code).toBe(1);
    expect(build.out).toBe('');
    expect(build.err).toBe(
      `✖ Invalid module manifest declared in src/index.ts (pointers into the module.json it gives):\n` +
        '  /extra: is not a known property\n' +
        '  /version: must be a SemVer version such as "1.0.0"\n',
    );
  });

  it('fails a build that imports a Node builtin, naming file and line', async () => {
    expect(mandi(work, 'init', 'fsuser').code).toBe(0);
    const dir = path.join(work, 'fsuser');
    const file = path.join(dir, 'src/index.ts');
    const source = await readFile(file, 'utf8');
    await writeFile(file, `import { readFileSync } from 'node:fs';\n${source.replace('Hello, ${input.who}!', '${readFileSync("/etc/passwd", "utf8")}')}`);
    const build = mandi(dir, 'build');
    expect(build.code).toBe(1);
    expect(build.err).toMatch(/^✖ Build failed:\n {2}src\/index\.ts:1:\d+: imports the Node\.js builtin "node:fs", which does not exist in the module sandbox/);
  });
});
