/**
 * Spec 1, Client releases rules 1-6, end to end: two versions of the `mandi` CLI are built as real
 * single executables (once for this file), their release archives and manifests are served from a
 * stand-in host on 127.0.0.1, and `mandi upgrade` runs for real against the platform's GET
 * /cli/releases or the public mirror. Every failure must leave the installed binary byte-for-byte
 * as it was, with the spec's exit code.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { startStandIn, type StandIn } from './stand-in-server';
import { buildRelease, install, runCli, runCliOnTerminal, sha256File, type Built } from './cli-support';

let work: string;
let v100: Built;
let v110: Built;
let host: StandIn;
let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let globexToken: string;
let closedPort: string;

function manifest(overrides: { latestAssets?: object[]; sha?: string } = {}) {
  const entry = (b: Built, sha?: string) => ({ os: b.asset.os, arch: b.asset.arch, url: `/assets/${b.asset.filename}`, sha256: sha ?? b.asset.sha256, size: b.asset.size, filename: b.asset.filename });
  return {
    schema_version: 1,
    channel: 'stable',
    latest: '1.1.0',
    min_supported: '1.0.0',
    releases: [
      { version: '1.1.0', released_at: '2026-05-01T10:00:00Z', notes: 'Adds self-upgrade polish.', notes_url: 'https://example.test/cli/1.1.0', assets: overrides.latestAssets ?? [entry(v110, overrides.sha)] },
      { version: '1.0.0', released_at: '2026-04-01T10:00:00Z', notes: 'First release.', notes_url: 'https://example.test/cli/1.0.0', assets: [entry(v100)] },
    ],
  };
}

const serveManifests = (m: object = manifest()) => {
  host.json('/mirror/manifest.json', m);
  host.json('/channel/manifest.json', m);
};

async function home(config?: object): Promise<string> {
  const dir = await mkdtemp(path.join(work, 'home-'));
  if (config) {
    await mkdir(path.join(dir, '.mandi'));
    await writeFile(path.join(dir, '.mandi/config.json'), JSON.stringify(config));
  }
  return dir;
}

/** Environment of a user whose CLI talks to the platform as Acme's owner. */
async function viaPlatform(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { HOME: await home(), MANDI_URL: tp.url, MANDI_TENANT: 'acme', MANDI_TOKEN: owner.token, MANDI_RELEASES_MIRROR_URL: `${host.url}/mirror/manifest.json`, PLATFORM_NO_UPGRADE_CHECK: '1', ...extra };
}

async function viaMirror(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { HOME: await home(), MANDI_RELEASES_MIRROR_URL: `${host.url}/mirror/manifest.json`, PLATFORM_NO_UPGRADE_CHECK: '1', ...extra };
}

const assetRequests = () => host.seen.filter((s) => s.path.startsWith('/assets/')).length;
const leftovers = async (bin: string) => (await readdir(path.dirname(bin))).filter((f) => f !== 'mandi');

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'mandi-cli-e2e-'));
  [v100, v110] = await Promise.all([buildRelease('1.0.0', work), buildRelease('1.1.0', work)]);
  host = await startStandIn();
  host.bytes(`/assets/${v100.asset.filename}`, await readFile(v100.asset.path));
  host.bytes(`/assets/${v110.asset.filename}`, await readFile(v110.asset.path));
  serveManifests();
  // A port nothing listens on: a network failure.
  const probe = await startStandIn();
  closedPort = new URL(probe.url).port;
  await probe.close();

  tp = await startTestPlatform({ CLI_RELEASES_CACHE_SECONDS: '0' });
  owner = await tp.install('acme');
  // The stand-ins are on 127.0.0.1: the owner, a super admin, allows the tenant private networks.
  await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
  const channel = await tp.api('/cli/channel', { method: 'PUT', token: owner.token, tenant: 'acme', body: { adapter: 'static', config: { manifest_url: `${host.url}/channel/manifest.json` } } });
  if (channel.status !== 200) throw new Error(JSON.stringify(channel.body));
  await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  // The owner (a super admin) adds Globex's member by acting in Globex; the CLI uses that member's token.
  globexToken = (await addMember(tp, owner.token, 'globex', { email: 'gus@globex.example', name: 'Gus' }, 'acme')).token;
}, 240_000);

afterAll(async () => {
  await tp?.close();
  await host?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

beforeEach(() => serveManifests());

describe('spec 1: Client releases, `mandi upgrade` (rules 1, 2, 5, 6)', () => {
  test('upgrades through the platform channel: the binary on disk is replaced and the new version answers', async () => {
    const bin = await install(v100, path.join(work, 'bin-upgrade'));
    expect((await runCli(bin, ['--version'], {})).out.trim()).toBe('1.0.0');
    host.seen.length = 0;
    const ran = await runCli(bin, ['upgrade'], await viaPlatform());
    expect(ran.err).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.out).toContain(`✔ downloaded ${v110.asset.filename}`);
    expect(ran.out).toContain(`✔ mandi 1.0.0 → 1.1.0 (upgrade) at ${bin}`);
    expect(await sha256File(bin)).toBe(v110.sha256);
    expect((await runCli(bin, ['--version'], {})).out.trim()).toBe('1.1.0');
    expect(await leftovers(bin)).toEqual([]);
    // Replaced by a rename (a new file at the path), not rewritten in place: the installed 1.0.0 file is intact.
    expect((await stat(bin)).ino).not.toBe((await stat(v100.executable)).ino);
    expect(await sha256File(v100.executable)).toBe(v100.sha256);
    // Rule 6: the manifest's download URL is the platform's, which redirected to the host; the
    // platform credentials stayed with the platform.
    const download = host.seen.find((s) => s.path === `/assets/${v110.asset.filename}`)!;
    expect(download.headers.authorization).toBeUndefined();
    expect(download.headers['x-tenant']).toBeUndefined();
    // Nothing newer now: up to date.
    const again = await runCli(bin, ['upgrade'], await viaPlatform());
    expect(again.code).toBe(0);
    expect(again.out).toContain('mandi 1.1.0 is up to date');
  });

  test('--check only compares and prints the notes; nothing is downloaded or changed', async () => {
    const bin = await install(v100, path.join(work, 'bin-check'));
    const before = assetRequests();
    const ran = await runCli(bin, ['upgrade', '--check'], await viaPlatform());
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('mandi 1.1.0 is available (installed: 1.0.0, channel stable, from the platform)');
    expect(ran.out).toContain('## 1.1.0 (2026-05-01)\nAdds self-upgrade polish.\nhttps://example.test/cli/1.1.0');
    expect(ran.out).not.toContain('First release.');
    expect(assetRequests()).toBe(before);
    expect(await sha256File(bin)).toBe(v100.sha256);
  });

  test('--dry-run downloads and verifies (with a progress bar on a terminal) but does not replace', async () => {
    const bin = await install(v100, path.join(work, 'bin-dry'));
    const before = assetRequests();
    const ran = await runCliOnTerminal(bin, ['upgrade', '--dry-run'], await viaPlatform());
    expect(ran.code).toBe(0);
    expect(ran.out).toContain(`dry run: mandi 1.1.0 would replace ${bin} (1.0.0); nothing was changed`);
    expect(ran.out).toMatch(new RegExp(`${v110.asset.filename.replace(/\./g, '\\.')} \\[[\\u2588\\u2591]+\\] \\d+% [\\d.]+/[\\d.]+ MB`));
    expect(assetRequests()).toBe(before + 1);
    expect(await sha256File(bin)).toBe(v100.sha256);
    expect(await leftovers(bin)).toEqual([]);
  });

  test('--target installs a given version, also downgrading', async () => {
    const bin = await install(v110, path.join(work, 'bin-target'));
    const ran = await runCli(bin, ['upgrade', '--target', '1.0.0'], await viaMirror());
    expect(ran.code).toBe(0);
    expect(ran.out).toContain('✔ mandi 1.1.0 → 1.0.0 (downgrade)');
    expect((await runCli(bin, ['--version'], {})).out.trim()).toBe('1.0.0');
    const missing = await runCli(bin, ['upgrade', '--target', '9.9.9'], await viaMirror());
    expect(missing.code).toBe(6);
    expect(missing.err).toContain('release 9.9.9 is not in the stable channel');
  });

  test('--force reinstalls the installed version', async () => {
    const bin = await install(v110, path.join(work, 'bin-force'));
    const plain = await runCli(bin, ['upgrade'], await viaMirror());
    expect(plain.out).toContain('up to date');
    const before = assetRequests();
    const forced = await runCli(bin, ['upgrade', '--force'], await viaMirror());
    expect(forced.code).toBe(0);
    expect(forced.out).toContain('✔ mandi 1.1.0 → 1.1.0 (reinstall)');
    expect(assetRequests()).toBe(before + 1);
  });

  test('the package-manager guard refuses Homebrew paths unless --allow-homebrew', async () => {
    const bin = await install(v100, path.join(work, 'homebrew/Cellar/mandi/1.0.0/bin'));
    const refused = await runCli(bin, ['upgrade'], await viaMirror());
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/installed by a package manager.*brew upgrade mandi.*--allow-homebrew/);
    expect(await sha256File(bin)).toBe(v100.sha256);
    // --check is only a comparison: allowed.
    expect((await runCli(bin, ['upgrade', '--check'], await viaMirror())).code).toBe(0);
    const allowed = await runCli(bin, ['upgrade', '--allow-homebrew'], await viaMirror());
    expect(allowed.code).toBe(0);
    expect((await runCli(bin, ['--version'], {})).out.trim()).toBe('1.1.0');
  });

  test('falls back to the public mirror when the platform lacks the endpoint or has no channel', async () => {
    const bin = await install(v100, path.join(work, 'bin-mirror'));
    // An older platform: GET /api/v1/cli/releases is a 404 there.
    const old = await runCli(bin, ['upgrade', '--check'], await viaPlatform({ MANDI_URL: `${host.url}/old-platform` }));
    expect(old.code).toBe(0);
    expect(old.out).toContain('from the mirror');
    // Globex has no channel and the platform no default: 404 NO_RELEASE_CHANNEL.
    const globex = await runCli(bin, ['upgrade', '--check'], await viaPlatform({ MANDI_TENANT: 'globex', MANDI_TOKEN: globexToken }));
    expect(globex.err).toBe('');
    expect(globex.out).toContain('from the mirror');
  });

  describe('failures leave the old binary in place, with the spec exit codes', () => {
    let bin: string;
    let original: string;
    beforeAll(async () => {
      bin = await install(v100, path.join(work, 'bin-failures'));
      original = v100.sha256;
    });
    afterEach(async () => {
      expect(await sha256File(bin)).toBe(original);
      expect(await leftovers(bin)).toEqual([]);
    });

    test('a wrong checksum aborts with 6', async () => {
      serveManifests(manifest({ sha: 'f'.repeat(64) }));
      const ran = await runCli(bin, ['upgrade'], await viaPlatform());
      expect(ran.code).toBe(6);
      expect(ran.err).toContain(`checksum mismatch for ${v110.asset.filename}`);
      expect(ran.err).toContain('nothing was changed');
    });

    test('a missing asset (none for this os/arch, or 404 at the host) is 6', async () => {
      serveManifests(manifest({ latestAssets: [{ os: 'windows', arch: 'amd64', url: '/assets/win.zip', sha256: 'a'.repeat(64) }] }));
      const none = await runCli(bin, ['upgrade'], await viaMirror());
      expect(none.code).toBe(6);
      expect(none.err).toMatch(/release 1\.1\.0 has no asset for linux\/\w+/);
      const gone = manifest();
      (gone.releases[0].assets[0] as { url: string }).url = '/assets/deleted.tar.gz';
      serveManifests(gone);
      const notFound = await runCli(bin, ['upgrade'], await viaMirror());
      expect(notFound.code).toBe(6);
      expect(notFound.err).toContain('was not found at the release source (404)');
    });

    test('a server error is 6: the mirror answering 500, or the platform\'s source failing (502)', async () => {
      host.status('/mirror/manifest.json', 500, 'down');
      const mirror = await runCli(bin, ['upgrade'], await viaMirror());
      expect(mirror.code).toBe(6);
      expect(mirror.err).toContain('answered 500');
      host.status('/channel/manifest.json', 503, 'down');
      const platform = await runCli(bin, ['upgrade'], await viaPlatform());
      expect(platform.code).toBe(6);
      expect(platform.err).toMatch(/answered 502: The release source failed/);
      const asset = manifest();
      host.json('/channel/manifest.json', asset);
      host.status(`/assets/${v110.asset.filename}`, 500);
      const download = await runCli(bin, ['upgrade'], await viaPlatform());
      expect(download.code).toBe(6);
      expect(download.err).toContain('the server answered 500');
      host.bytes(`/assets/${v110.asset.filename}`, await readFile(v110.asset.path));
    });

    test('a network failure is 5', async () => {
      const ran = await runCli(bin, ['upgrade'], await viaMirror({ MANDI_RELEASES_MIRROR_URL: `http://127.0.0.1:${closedPort}/manifest.json` }));
      expect(ran.code).toBe(5);
      expect(ran.err).toMatch(/cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
      const platformDown = await runCli(bin, ['upgrade'], await viaPlatform({ MANDI_URL: `http://127.0.0.1:${closedPort}` }));
      expect(platformDown.code).toBe(5);
    });

    test('plain HTTP to another machine is refused before any request (6)', async () => {
      const ran = await runCli(bin, ['upgrade'], await viaMirror({ MANDI_RELEASES_MIRROR_URL: 'http://releases.example.com/manifest.json' }));
      expect(ran.code).toBe(6);
      expect(ran.err).toContain('HTTPS only');
    });

    test('a file-system error is 1', async () => {
      const ran = await runCli(bin, ['upgrade'], await viaMirror({ TMPDIR: path.join(work, 'no-such-dir') }));
      expect(ran.code).toBe(1);
      expect(ran.err).toContain('creating a temporary folder');
    });
  });
});

describe('spec 1: Client releases, the background version check (rules 3, 4)', () => {
  const cacheOf = async (h: string) => JSON.parse(await readFile(path.join(h, '.mandi/upgrade-check.json'), 'utf8')) as Record<string, string>;
  const waitForCache = async (h: string, timeoutMs = 15_000) => {
    const file = path.join(h, '.mandi/upgrade-check.json');
    const until = Date.now() + timeoutMs;
    while (!existsSync(file)) {
      if (Date.now() > until) throw new Error('no upgrade-check.json');
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 100));
    return cacheOf(h);
  };
  const manifestRequests = () => host.seen.filter((s) => s.path === '/mirror/manifest.json').length;
  const cmd = (dir: string) => ['module', 'init', `m${Math.random().toString(36).slice(2, 8)}`, '-d', dir];
  let bin: string;
  beforeAll(async () => {
    bin = await install(v100, path.join(work, 'bin-check-bg'));
  });
  const env = (h: string, extra: Record<string, string> = {}) => ({ HOME: h, MANDI_RELEASES_MIRROR_URL: `${host.url}/mirror/manifest.json`, ...extra });

  test('after a successful command: cached for 24 h, nudged on a terminal at most every 6 h', async () => {
    const h = await home();
    const first = await runCliOnTerminal(bin, cmd(h), env(h));
    expect(first.code).toBe(0);
    expect(first.out).not.toContain('A new version');
    const cache = await waitForCache(h);
    expect(cache).toMatchObject({ latest: '1.1.0', min_supported: '1.0.0' });
    expect(Date.now() - Date.parse(cache.checked_at)).toBeLessThan(60_000);

    const requests = manifestRequests();
    const second = await runCliOnTerminal(bin, cmd(h), env(h));
    expect(second.out).toContain('A new version of mandi is available: 1.0.0 → 1.1.0. Run `mandi upgrade`.');
    expect((await cacheOf(h)).nudged_at).toBeDefined();
    const third = await runCliOnTerminal(bin, cmd(h), env(h));
    expect(third.out).not.toContain('A new version');
    await new Promise((r) => setTimeout(r, 500));
    // Fresh cache: no new check.
    expect(manifestRequests()).toBe(requests);

    // Six hours later the nudge comes back; without a terminal it never shows.
    await writeFile(path.join(h, '.mandi/upgrade-check.json'), JSON.stringify({ ...(await cacheOf(h)), nudged_at: new Date(Date.now() - 7 * 3600_000).toISOString() }));
    const piped = await runCli(bin, cmd(h), env(h));
    expect(piped.code).toBe(0);
    expect(piped.err).toBe('');
    const later = await runCliOnTerminal(bin, cmd(h), env(h));
    expect(later.out).toContain('A new version of mandi is available');

    // A day later the check runs again.
    await writeFile(path.join(h, '.mandi/upgrade-check.json'), JSON.stringify({ ...(await cacheOf(h)), checked_at: new Date(Date.now() - 25 * 3600_000).toISOString() }));
    await runCli(bin, cmd(h), env(h));
    const until = Date.now() + 10_000;
    while (manifestRequests() === requests && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(manifestRequests()).toBe(requests + 1);
  });

  test('disabled by no_telemetry and PLATFORM_NO_UPGRADE_CHECK=1; network failures are silent', async () => {
    const requests = manifestRequests();
    const quiet = await home({ no_telemetry: true });
    expect((await runCliOnTerminal(bin, cmd(quiet), env(quiet))).code).toBe(0);
    const off = await home();
    expect((await runCliOnTerminal(bin, cmd(off), env(off, { PLATFORM_NO_UPGRADE_CHECK: '1' }))).code).toBe(0);
    const offline = await home();
    const ran = await runCli(bin, cmd(offline), env(offline, { MANDI_RELEASES_MIRROR_URL: `http://127.0.0.1:${closedPort}/manifest.json` }));
    expect(ran.code).toBe(0);
    expect(ran.err).toBe('');
    const offlineCache = await waitForCache(offline);
    expect(offlineCache.latest).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1000));
    expect(existsSync(path.join(quiet, '.mandi/upgrade-check.json'))).toBe(false);
    expect(existsSync(path.join(off, '.mandi/upgrade-check.json'))).toBe(false);
    expect(manifestRequests()).toBe(requests);
  });

  test('development builds never check', async () => {
    const h = await home();
    const ran = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../sdk/cli/main.ts'), ...cmd(h)], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, HOME: h, MANDI_RELEASES_MIRROR_URL: `${host.url}/mirror/manifest.json`, PLATFORM_NO_UPGRADE_CHECK: '' },
        stdio: 'ignore',
      });
      child.on('close', resolve);
    });
    expect(ran).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));
    expect(existsSync(path.join(h, '.mandi/upgrade-check.json'))).toBe(false);
    const refused = await new Promise<{ code: number | null; err: string }>((resolve) => {
      let err = '';
      const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../sdk/cli/main.ts'), 'upgrade'], { cwd: path.resolve(__dirname, '../..'), env: { ...process.env, HOME: h } });
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      child.on('close', (code) => resolve({ code, err }));
    });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('development build');
  });
});
