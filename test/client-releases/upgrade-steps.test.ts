/**
 * Spec 1, Client releases rule 2, step by step on real files: the asset name rule, extraction from
 * .tar.gz and .zip (stored and deflated), the Windows move-aside replacement, the package-manager
 * guard, and which addresses the platform refuses to fetch for a tenant.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { platformDefault } from '../../core/services/client-releases/channel-config';
import { checkOutboundUrl, httpsPolicy } from '../../core/kernel/net/outbound-policy';
import { loadConfig } from '../../core/config';
import { parseChecksums } from '../../core/services/client-releases/sources/hosted-repo-source';
import { extractExecutable } from '../../sdk/cli/upgrade/extract';
import { packageManagerPath } from '../../sdk/cli/upgrade/package-manager';
import { packageRelease } from '../../sdk/cli/upgrade/package-release';
import { pickAsset, planUpgrade } from '../../sdk/cli/upgrade/plan';
import { ManifestFormatError, parseManifest, type Release } from '../../sdk/cli/upgrade/release-manifest';
import { replaceBinary } from '../../sdk/cli/upgrade/replace-binary';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mandi-upgrade-steps-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/**
 * A minimal zip writer (local headers, central directory, end record), as release tooling writes them;
 * with `zip64`, sizes and offsets live in ZIP64 extra fields and end records, as writers do past 4 GiB.
 */
function zip(entries: { name: string; data: Buffer; deflate: boolean }[], { zip64 = false } = {}): Buffer {
  const FULL = 0xffffffff;
  const u64 = (...values: number[]) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(v)); return b; }));
  const extra = (...values: number[]) => { const b = Buffer.alloc(4); b.writeUInt16LE(0x0001, 0); b.writeUInt16LE(values.length * 8, 2); return Buffer.concat([b, u64(...values)]); };
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const body = e.deflate ? zlib.deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name);
    const localExtra = zip64 ? extra(e.data.length, body.length) : Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.deflate ? 8 : 0, 8);
    local.writeUInt32LE(zip64 ? FULL : body.length, 18);
    local.writeUInt32LE(zip64 ? FULL : e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(localExtra.length, 28);
    const centralExtra = zip64 ? extra(e.data.length, body.length, offset) : Buffer.alloc(0);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(e.deflate ? 8 : 0, 10);
    cd.writeUInt32LE(zip64 ? FULL : body.length, 20);
    cd.writeUInt32LE(zip64 ? FULL : e.data.length, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt16LE(centralExtra.length, 30);
    cd.writeUInt32LE(zip64 ? FULL : offset, 42);
    locals.push(local, name, localExtra, body);
    central.push(cd, name, centralExtra);
    offset += 30 + name.length + localExtra.length + body.length;
  }
  const cdBuf = Buffer.concat(central);
  const ends: Buffer[] = [];
  if (zip64) {
    const end64 = Buffer.alloc(24);
    end64.writeUInt32LE(0x06064b50, 0);
    ends.push(end64, u64(entries.length, entries.length, cdBuf.length, offset));
    end64.writeBigUInt64LE(BigInt(44), 4);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + cdBuf.length), 8);
    locator.writeUInt32LE(1, 16);
    ends.push(locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 8);
  end.writeUInt16LE(zip64 ? 0xffff : entries.length, 10);
  end.writeUInt32LE(zip64 ? FULL : cdBuf.length, 12);
  end.writeUInt32LE(zip64 ? FULL : offset, 16);
  return Buffer.concat([...locals, cdBuf, ...ends, end]);
}

describe('spec 1: Client releases rule 2 (asset name, extraction, replacement, guard)', () => {
  const release: Release = {
    version: '2.1.0',
    released_at: '',
    notes: '',
    notes_url: '',
    assets: ['mandi_2.1.0_linux_amd64.zip', 'mandi_2.1.0_linux_amd64.tar.gz', 'mandi_2.1.0_macos_arm64.tar.gz', 'mandi_2.1.0_windows_x86_64.tar.gz', 'mandi_2.1.0_windows_amd64.zip', 'mandi_2.0.0_linux_arm64.tar.gz'].map(
      (filename) => ({ os: 'x', arch: 'x', url: filename, filename, sha256: 'a'.repeat(64) }),
    ),
  };

  test('the asset is picked by its name mandi_<version>_<os>_<arch> (macos in names, .tar.gz or .zip)', () => {
    expect(pickAsset(release, 'linux', 'x64')?.filename).toBe('mandi_2.1.0_linux_amd64.tar.gz');
    expect(pickAsset(release, 'darwin', 'arm64')?.filename).toBe('mandi_2.1.0_macos_arm64.tar.gz');
    expect(pickAsset(release, 'win32', 'x64')?.filename).toBe('mandi_2.1.0_windows_amd64.zip');
    // A name of another version does not count for this release.
    expect(pickAsset(release, 'linux', 'arm64')).toBeUndefined();
  });

  test('plans: latest by default, --target also downgrades, --force reinstalls, nothing when up to date', () => {
    const m = parseManifest({ schema_version: 1, channel: 'stable', releases: [release, { ...release, version: '2.0.0' }, { ...release, version: '2.2.0-beta.1' }] }).manifest;
    expect(m.latest).toBe('2.1.0');
    expect(planUpgrade(m, '2.0.0', {})).toMatchObject({ action: 'install', kind: 'upgrade', release: { version: '2.1.0' } });
    expect(planUpgrade(m, '2.1.0', {})).toMatchObject({ action: 'none' });
    expect(planUpgrade(m, '2.1.0', { force: true })).toMatchObject({ action: 'install', kind: 'reinstall' });
    expect(planUpgrade(m, '2.1.0', { target: 'v2.0.0' })).toMatchObject({ action: 'install', kind: 'downgrade', release: { version: '2.0.0' } });
    expect(() => planUpgrade(m, '2.1.0', { target: '3.0.0' })).toThrow(/not in the stable channel/);
  });

  test('the manifest reader refuses other schema versions and keeps what is usable', () => {
    expect(() => parseManifest({ schema_version: 2, releases: [] })).toThrow(ManifestFormatError);
    expect(() => parseManifest({ schema_version: 1, releases: [{ version: 'x' }] })).toThrow(/no usable release/);
    const { manifest, problems } = parseManifest({ schema_version: 1, releases: [{ version: '1.0.0', assets: [{ os: 'linux', arch: 'amd64', url: 'a', sha256: 'short' }, { os: 'linux', arch: 'amd64', url: 'b', filename: '../evil' }] }] });
    expect(manifest.releases[0].assets).toEqual([{ os: 'linux', arch: 'amd64', url: 'a', filename: 'mandi_1.0.0_linux_amd64.tar.gz' }]);
    expect(problems).toHaveLength(2);
  });

  test('extracts only the executable from .tar.gz and from .zip (stored and deflated)', async () => {
    const exe = path.join(dir, 'fake-mandi');
    const program = Buffer.from('#!/bin/sh\necho 2.1.0\n');
    await writeFile(exe, program, { mode: 0o755 });
    const tgz = await packageRelease({ executable: exe, version: '2.1.0', os: 'linux', arch: 'x64', outDir: dir });
    expect(tgz.filename).toBe('mandi_2.1.0_linux_amd64.tar.gz');
    expect(tgz.sha256).toBe(createHash('sha256').update(await readFile(tgz.path)).digest('hex'));
    await extractExecutable(tgz.path, path.join(dir, 'out-tgz'));
    expect(await readFile(path.join(dir, 'out-tgz'))).toEqual(program);

    for (const deflate of [false, true]) {
      const archive = path.join(dir, `a-${deflate}.zip`);
      await writeFile(archive, zip([{ name: 'README.md', data: Buffer.from('hi'), deflate }, { name: 'mandi_2.1.0_windows_amd64/mandi.exe', data: program, deflate }]));
      await extractExecutable(archive, path.join(dir, `out-${deflate}`), 'win32');
      expect(await readFile(path.join(dir, `out-${deflate}`))).toEqual(program);
    }
    const empty = path.join(dir, 'empty.zip');
    await writeFile(empty, zip([{ name: 'README.md', data: Buffer.from('hi'), deflate: false }]));
    await expect(extractExecutable(empty, path.join(dir, 'never'), 'win32')).rejects.toMatchObject({ exitCode: 6 });
    await writeFile(path.join(dir, 'broken.tar.gz'), Buffer.from('not gzip'));
    await expect(extractExecutable(path.join(dir, 'broken.tar.gz'), path.join(dir, 'never2'))).rejects.toMatchObject({ exitCode: 6 });
  });

  test('extracts the executable from a ZIP64 archive (sizes and offsets in ZIP64 records)', async () => {
    const program = Buffer.from('#!/bin/sh\necho 2.1.0\n');
    const archive = path.join(dir, 'zip64.zip');
    await writeFile(archive, zip([{ name: 'README.md', data: Buffer.from('hi'), deflate: true }, { name: 'mandi_2.1.0_windows_amd64/mandi.exe', data: program, deflate: true }], { zip64: true }));
    await extractExecutable(archive, path.join(dir, 'out-zip64'), 'win32');
    expect(await readFile(path.join(dir, 'out-zip64'))).toEqual(program);
  });

  test('Windows: the old executable is moved aside to <bin>.old, then the new one takes its name', async () => {
    const bin = path.join(dir, 'win', 'mandi.exe');
    await mkdir(path.dirname(bin));
    await writeFile(bin, 'old program');
    await writeFile(`${bin}.old`, 'leftover from last time');
    const staged = path.join(dir, 'win', '.mandi.exe.upgrade');
    await writeFile(staged, 'new program');
    await replaceBinary(bin, staged, 'win32');
    expect(await readFile(bin, 'utf8')).toBe('new program');
    expect(await readFile(`${bin}.old`, 'utf8')).toBe('old program');
  });

  test('the package-manager guard sees Homebrew paths, also behind a symlink', async () => {
    expect(packageManagerPath('/opt/homebrew/bin/mandi')).toBe('/opt/homebrew/bin/mandi');
    expect(packageManagerPath('/home/linuxbrew/.linuxbrew/bin/mandi')).toBeDefined();
    expect(packageManagerPath('/usr/local/bin/mandi')).toBeUndefined();
    const cellar = path.join(dir, 'Cellar/mandi/1.0.0/bin');
    await mkdir(cellar, { recursive: true });
    await writeFile(path.join(cellar, 'mandi'), '');
    await symlink(path.join(cellar, 'mandi'), path.join(dir, 'linked-mandi'));
    expect(packageManagerPath(path.join(dir, 'linked-mandi'))).toContain('/Cellar/');
  });
});

describe('spec 1: Client releases, what the platform fetches for a tenant', () => {
  test('https only in production; http only to loopback elsewhere (addresses: core/kernel/net/outbound-policy.test.ts)', () => {
    expect(() => checkOutboundUrl('http://127.0.0.1:9/m.json', httpsPolicy('production', false))).toThrow(/https/);
    expect(checkOutboundUrl('http://127.0.0.1:9/m.json', httpsPolicy('test', false)).host).toBe('127.0.0.1:9');
    expect(() => checkOutboundUrl('http://10.1.2.3/m.json', httpsPolicy('development', false))).toThrow(/https/);
    expect(() => checkOutboundUrl('https://user:pw@example.com/m.json', httpsPolicy('test', false))).toThrow(/credentials/);
  });

  test('platform defaults come from CLI_RELEASES_* (hosted_repo or static), trusted with private addresses', () => {
    const repo = platformDefault(loadConfig({ NODE_ENV: 'production', CLI_RELEASES_DEFAULT_ADAPTER: 'hosted_repo', CLI_RELEASES_REPO_PROJECT: 'tools/mandi-cli', CLI_RELEASES_REPO_API_URL: 'https://git.internal/api/v4/', CLI_RELEASES_REPO_TOKEN: 'read-token' }));
    expect(repo).toEqual({ config: { adapter: 'hosted_repo', project: 'tools/mandi-cli', api_url: 'https://git.internal/api/v4' }, token: 'read-token', policy: { plainHttp: 'never', allowPrivate: true } });
    const stat = platformDefault(loadConfig({ CLI_RELEASES_DEFAULT_ADAPTER: 'static', CLI_RELEASES_STATIC_MANIFEST_URL: 'https://releases.example.com/cli/manifest.json' }));
    expect(stat?.config).toEqual({ adapter: 'static', manifest_url: 'https://releases.example.com/cli/manifest.json' });
    expect(platformDefault(loadConfig({}))).toBeUndefined();
    expect(() => platformDefault(loadConfig({ CLI_RELEASES_DEFAULT_ADAPTER: 'static' }))).toThrow(/CLI_RELEASES_STATIC_MANIFEST_URL/);
    expect(() => platformDefault(loadConfig({ NODE_ENV: 'production', CLI_RELEASES_DEFAULT_ADAPTER: 'static', CLI_RELEASES_STATIC_MANIFEST_URL: 'http://releases.example.com/m.json' }))).toThrow(/https/);
    expect(() => loadConfig({ CLI_RELEASES_DEFAULT_ADAPTER: 'bucket' })).toThrow(/hosted_repo, static/);
  });

  test('checksum files in sha256sum format', () => {
    const sums = parseChecksums(`${'A'.repeat(64)}  mandi_1.0.0_linux_amd64.tar.gz\n${'b'.repeat(64)} *mandi_1.0.0_macos_arm64.tar.gz\nnot a line\n`);
    expect([...sums.entries()]).toEqual([
      ['mandi_1.0.0_linux_amd64.tar.gz', 'a'.repeat(64)],
      ['mandi_1.0.0_macos_arm64.tar.gz', 'b'.repeat(64)],
    ]);
    expect(parseChecksums(`${'c'.repeat(64)}\n`, 'x.tar.gz').get('x.tar.gz')).toBe('c'.repeat(64));
  });
});
