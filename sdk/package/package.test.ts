import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import { ManifestError } from '../manifest/issues';
import { PackageError } from './layout';
import { packModule } from './pack';
import { readPackage } from './read';

const MANIFEST = {
  name: 'points',
  version: '1.2.3',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/points.js',
  graphql: { schema: 'graphql/schema.graphql', resolvers: 'graphql/resolvers.json' },
  data: { migrations: [{ id: '001', up: 'migrations/001.up.sql', down: 'migrations/001.down.sql' }] },
};

const BUNDLE = 'var __mandi_module = (() => ({ default: { operations: {} } }))();';

async function builtModule(files: Record<string, string> = {}): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-pack-'));
  const all: Record<string, string> = {
    'module.json': JSON.stringify(MANIFEST, null, 2),
    'dist/points.js': BUNDLE,
    'graphql/schema.graphql': 'type Query { points: Int }',
    'graphql/resolvers.json': '{"Query.points": "points.balance"}',
    'migrations/001.up.sql': 'create table points (id int);',
    'migrations/001.down.sql': 'drop table points;',
    'screens/home.json': '{"id": "points.home"}',
    'src/index.ts': 'export default {}',
    'README.md': '# points',
    ...files,
  };
  for (const [file, content] of Object.entries(all)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  return dir;
}

/** A hand-made archive, for what packModule would never write. */
async function archive(entries: (Partial<tar.Header> & { name: string; content?: string })[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const done = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const { content, ...header } of entries) {
    await new Promise<void>((resolve, reject) =>
      pack.entry(header, content ?? '', (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await done;
  return zlib.gzipSync(Buffer.concat(chunks));
}

const VALID_ENTRIES = [
  { name: 'module.json', content: JSON.stringify({ ...MANIFEST, graphql: undefined, data: undefined }) },
  { name: 'dist/points.js', content: BUNDLE },
];

async function refusal(buffer: Buffer, limits?: Parameters<typeof readPackage>[1]): Promise<Error> {
  const err = await readPackage(buffer, limits).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  if (!err) throw new Error('expected the package to be refused');
  return err;
}

describe('DESIGN Rings and the registry: a module package is a .tgz of module.json, the bundle, graphql/, screens/, migrations/', () => {
  it('packs exactly those files, writes <name>-<version>.tgz and reports its sha256', async () => {
    const dir = await builtModule();
    const progress: string[] = [];
    const result = await packModule(dir, { onProgress: (done, total, file) => progress.push(`${done}/${total} ${file}`) });
    expect(result.file).toBe(path.join(dir, 'points-1.2.3.tgz'));
    expect(result.entries).toEqual([
      'module.json',
      'dist/points.js',
      'graphql/resolvers.json',
      'graphql/schema.graphql',
      'screens/home.json',
      'migrations/001.down.sql',
      'migrations/001.up.sql',
    ]);
    expect(progress).toHaveLength(7);
    expect(progress[6]).toBe('7/7 migrations/001.up.sql');
    const written = await readFile(result.file);
    expect(written.equals(result.buffer)).toBe(true);
    expect(result.size).toBe(written.length);
    expect(result.sha256).toBe(createHash('sha256').update(written).digest('hex'));
  });

  it('round-trips through readPackage with the validated manifest and every file', async () => {
    const dir = await builtModule();
    const { buffer } = await packModule(dir);
    const pkg = await readPackage(buffer);
    expect(pkg.manifest).toMatchObject({ name: 'points', version: '1.2.3', limits: { timeout_ms: 5000 } });
    expect([...pkg.files.keys()].sort()).toEqual([
      'dist/points.js',
      'graphql/resolvers.json',
      'graphql/schema.graphql',
      'migrations/001.down.sql',
      'migrations/001.up.sql',
      'module.json',
      'screens/home.json',
    ]);
    expect(pkg.files.get('dist/points.js')?.toString()).toBe(BUNDLE);
    expect(pkg.files.get('module.json')?.toString()).toBe(JSON.stringify(MANIFEST, null, 2));
  });

  it('gives the same bytes for the same sources, so the sha256 identifies the content', async () => {
    const first = await packModule(await builtModule());
    await new Promise((r) => setTimeout(r, 20));
    const second = await packModule(await builtModule(), { outDir: os.tmpdir() });
    expect(second.sha256).toBe(first.sha256);
  });

  it('refuses to pack without a bundle, or with a file the manifest names missing', async () => {
    const dir = await builtModule();
    await writeFile(path.join(dir, 'module.json'), JSON.stringify({ ...MANIFEST, main: 'dist/other.js' }));
    await expect(packModule(dir)).rejects.toThrow('dist/other.js does not exist: run `mandi module build` first');
    await writeFile(path.join(dir, 'module.json'), JSON.stringify({ ...MANIFEST, graphql: { schema: 'graphql/nope.graphql', resolvers: 'graphql/resolvers.json' } }));
    await expect(packModule(dir)).rejects.toThrow('/graphql/schema: file graphql/nope.graphql does not exist');
  });

  it('refuses to pack a symbolic link', async () => {
    const dir = await builtModule();
    await symlink('/etc/passwd', path.join(dir, 'screens/passwd.json'));
    await expect(packModule(dir)).rejects.toThrow('screens/passwd.json is not a regular file');
  });
});

describe('DESIGN Rings and the registry: readPackage trusts nothing in an upload', () => {
  it.each([
    ['../evil.js', 'escapes the package with ".."'],
    ['graphql/../../evil.js', 'escapes the package with ".."'],
    ['/etc/cron.d/evil', 'is absolute'],
    ['C:/Windows/evil.dll', 'starts with a drive letter'],
    ['graphql\\..\\..\\evil.js', 'contains a backslash'],
    ['graphql//x', 'has an empty or "." segment'],
  ])('refuses the path %p', async (name, reason) => {
    const err = await refusal(await archive([...VALID_ENTRIES, { name, content: 'x' }]));
    expect(err).toBeInstanceOf(PackageError);
    expect(err.message).toBe(`package entry "${name}" refused: its path ${reason}`);
  });

  it('refuses symbolic and hard links', async () => {
    const sym = await refusal(await archive([...VALID_ENTRIES, { name: 'screens/x.json', type: 'symlink', linkname: '/etc/passwd' }]));
    expect(sym.message).toBe('package entry "screens/x.json" refused: it is a symlink; packages hold regular files only');
    const hard = await refusal(await archive([...VALID_ENTRIES, { name: 'screens/y.json', type: 'link', linkname: 'module.json' }]));
    expect(hard.message).toMatch(/it is a link; packages hold regular files only/);
  });

  it('accepts "./" prefixes and directory entries as tar tools write them', async () => {
    const pkg = await readPackage(
      await archive([
        { name: './', type: 'directory' },
        { name: './module.json', content: VALID_ENTRIES[0].content },
        { name: './dist/', type: 'directory' },
        { name: './dist/points.js', content: BUNDLE },
      ]),
    );
    expect([...pkg.files.keys()]).toEqual(['module.json', 'dist/points.js']);
  });

  it('refuses files outside the package layout and duplicate entries', async () => {
    const extra = await refusal(await archive([...VALID_ENTRIES, { name: 'src/index.ts', content: 'x' }, { name: 'run.sh', content: 'x' }]));
    expect(extra.message).toBe(
      'unexpected files in the package: src/index.ts, run.sh; a package holds module.json, dist/points.js, graphql/, screens/, migrations/ and dist/console/ only',
    );
    const twice = await refusal(await archive([...VALID_ENTRIES, { name: 'module.json', content: '{}' }]));
    expect(twice.message).toBe('package entry "module.json" appears twice');
  });

  it('enforces size and count limits, before and while unpacking', async () => {
    const big = { name: 'screens/big.json', content: 'x'.repeat(5000) };
    expect((await refusal(await archive([...VALID_ENTRIES, big]), { maxFileBytes: 4096 })).message).toBe(
      'package entry "screens/big.json" is 5000 bytes; the limit per file is 4096',
    );
    expect((await refusal(await archive([...VALID_ENTRIES, big]), { maxCompressedBytes: 100 })).message).toMatch(
      /^the package is \d+ bytes; the limit is 100$/,
    );
    expect((await refusal(await archive([...VALID_ENTRIES, { name: 'screens/a.json' }]), { maxFiles: 2 })).message).toBe(
      'the package holds more than 2 files',
    );
  });

  it('refuses a gzip bomb without inflating it', async () => {
    // 64 MB of zeros compresses to about 64 kB.
    const bomb = await archive([...VALID_ENTRIES, { name: 'screens/zero.json', content: '\0'.repeat(64 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const err = await refusal(bomb);
    expect(err).toBeInstanceOf(PackageError);
    expect(err.message).toBe(`the package unpacks to more than ${50 * 1024 * 1024} bytes`);
  });

  it('refuses what is not a gzip archive', async () => {
    expect((await refusal(Buffer.from('not a package'))).message).toMatch(/^the package is not a gzip archive/);
  });

  it('lists every manifest problem by pointer, and files the manifest names but the package lacks', async () => {
    const bad = await refusal(
      await archive([{ name: 'module.json', content: JSON.stringify({ ...MANIFEST, version: 'x', name: 'Points' }) }]),
    );
    expect(bad).toBeInstanceOf(ManifestError);
    expect((bad as ManifestError).errors.map((e) => e.pointer)).toEqual(['/name', '/version']);
    const missing = (await refusal(await archive([{ name: 'module.json', content: JSON.stringify(MANIFEST) }]))) as ManifestError;
    expect(missing.errors).toEqual([
      { pointer: '/main', message: 'the bundle dist/points.js is not in the package' },
      { pointer: '/graphql/schema', message: 'file graphql/schema.graphql is not in the package' },
      { pointer: '/graphql/resolvers', message: 'file graphql/resolvers.json is not in the package' },
      { pointer: '/data/migrations/0/up', message: 'file migrations/001.up.sql is not in the package' },
      { pointer: '/data/migrations/0/down', message: 'file migrations/001.down.sql is not in the package' },
    ]);
    expect((await refusal(await archive([{ name: 'dist/points.js', content: BUNDLE }]))).message).toBe('the package holds no module.json');
  });
});

describe('docs/decisions/console-pages.md: a package carries its console pages\' bundles', () => {
  const withPage = { ...MANIFEST, console: { pages: [{ path: 'board', label: 'Board', permission: 'points.view', entry: 'console/board.ts' }] }, permissions: [{ name: 'points.view', description: 'See' }] };

  test('dist/console/ is packed and read back; the page sources under console/ are not packed', async () => {
    const dir = await builtModule({ 'module.json': JSON.stringify(withPage), 'console/board.ts': 'export {}', 'dist/console/board.js': '(() => {})();' });
    const packed = await packModule(dir);
    expect(packed.entries).toContain('dist/console/board.js');
    expect(packed.entries).not.toContain('console/board.ts');
    const pkg = await readPackage(packed.buffer);
    expect(pkg.files.get('dist/console/board.js')?.toString()).toBe('(() => {})();');
  });

  test('a package whose page bundle is missing is refused, naming the page', async () => {
    const err = await refusal(await archive([{ name: 'module.json', content: JSON.stringify({ ...withPage, graphql: undefined, data: undefined }) }, { name: 'dist/points.js', content: BUNDLE }]));
    expect(err).toBeInstanceOf(ManifestError);
    expect((err as ManifestError).errors).toEqual([{ pointer: '/console/pages/0/entry', message: expect.stringContaining('dist/console/board.js is not in the package') }]);
  });
});
