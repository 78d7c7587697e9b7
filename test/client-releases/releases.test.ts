/**
 * Spec 1, Client releases and Client release manifest: GET /cli/releases, the download endpoint and
 * PUT /cli/channel with the three adapters, against release hosts stood in on 127.0.0.1 (plain HTTP to
 * loopback is accepted outside production only, and loopback addresses for a tenant a super admin
 * allowed private networks; see core/kernel/net/outbound-policy.ts).
 */
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { addMember, httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { startStandIn, type StandIn } from './stand-in-server';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const LINUX_1_1 = Buffer.from('linux 1.1.0 archive bytes');

let host: StandIn;
let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let member: { token: string; userId: number };

function staticManifest() {
  return {
    schema_version: 1,
    channel: 'stable',
    latest: '1.1.0',
    min_supported: '1.0.0',
    releases: [
      {
        version: '1.0.0',
        released_at: '2026-01-10T09:00:00Z',
        notes: 'First.',
        notes_url: 'https://example.test/notes/1.0.0',
        assets: [{ os: 'linux', arch: 'amd64', url: 'assets/mandi_1.0.0_linux_amd64.tar.gz', sha256: 'A'.repeat(64) }],
      },
      {
        version: 'v1.1.0',
        released_at: '2026-02-10T09:00:00Z',
        notes: '## Faster\n- upgrade',
        notes_url: 'https://example.test/notes/1.1.0',
        assets: [
          { os: 'linux', arch: 'amd64', url: '/static/assets/linux-1.1.tgz', sha256: sha(LINUX_1_1), size: LINUX_1_1.length, filename: 'mandi_1.1.0_linux_amd64.tar.gz' },
          { os: 'darwin', arch: 'arm64', url: 'https://cdn.example.test/m/mac.tar.gz', sha256: 'b'.repeat(64) },
          { os: 'windows', arch: 'x64', url: 'https://cdn.example.test/m/win-build' },
          { os: 'linux', url: 'broken-no-arch' },
        ],
      },
      { version: 'not-semver', assets: [] },
    ],
  };
}

beforeAll(async () => {
  host = await startStandIn();
  host.json('/static/manifest.json', staticManifest());
  tp = await startTestPlatform({ CLI_RELEASES_DEFAULT_ADAPTER: 'static', CLI_RELEASES_STATIC_MANIFEST_URL: `${host.url}/static/manifest.json`, CLI_RELEASES_CACHE_SECONDS: '0' });
  owner = await tp.install('acme');
  // The stand-ins are on 127.0.0.1: the owner, a super admin, allows the tenant private networks.
  await tp.api('/admin/tenants/acme/private-networks', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { allow_private_networks: true } });
  member = await addMember(tp, owner.token, 'acme', { email: 'mia@acme.example' });
}, 120_000);
afterAll(async () => {
  await tp.close();
  await host.close();
});

const releases = (token = owner.token) => tp.api('/cli/releases', { token, tenant: 'acme' });
const putChannel = (body: unknown, token = owner.token) => tp.api('/cli/channel', { method: 'PUT', token, tenant: 'acme', body });

describe('spec 1: Client release manifest (GET /cli/releases, inherited platform default)', () => {
  test('normalised schema_version 1 manifest, newest first, file names generated, URLs at the platform', async () => {
    const res = await releases(member.token);
    expect(res.status).toBe(200);
    const m = res.body;
    expect(m).toMatchObject({ schema_version: 1, channel: 'stable', latest: '1.1.0', min_supported: '1.0.0' });
    expect(m.releases.map((r: { version: string }) => r.version)).toEqual(['1.1.0', '1.0.0']);
    const [r11] = m.releases;
    expect(r11).toMatchObject({ released_at: '2026-02-10T09:00:00.000Z', notes: '## Faster\n- upgrade', notes_url: 'https://example.test/notes/1.1.0' });
    const base = `${tp.url}/api/v1/cli/releases/1.1.0/download`;
    expect(r11.assets).toEqual([
      { os: 'linux', arch: 'amd64', url: `${base}/mandi_1.1.0_linux_amd64.tar.gz`, sha256: sha(LINUX_1_1), size: LINUX_1_1.length, filename: 'mandi_1.1.0_linux_amd64.tar.gz' },
      // darwin in the os field, macos in the file name; the archive extension comes from the URL...
      { os: 'darwin', arch: 'arm64', url: `${base}/mandi_1.1.0_macos_arm64.tar.gz`, sha256: 'b'.repeat(64), filename: 'mandi_1.1.0_macos_arm64.tar.gz' },
      // ...or, when the URL has none, .zip for Windows.
      { os: 'windows', arch: 'amd64', url: `${base}/mandi_1.1.0_windows_amd64.zip`, filename: 'mandi_1.1.0_windows_amd64.zip' },
    ]);
    expect(m.releases[1].assets[0].sha256).toBe('a'.repeat(64));
  });

  test('static: the download answers 302 to the asset URL (relative URLs resolved against the manifest)', async () => {
    const m = (await releases()).body;
    const res = await httpRequest(m.releases[0].assets[0].url, 'GET', { authorization: `Bearer ${owner.token}`, 'x-tenant': 'acme' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${host.url}/static/assets/linux-1.1.tgz`);
    const old = await httpRequest(m.releases[1].assets[0].url, 'GET', { authorization: `Bearer ${owner.token}`, 'x-tenant': 'acme' });
    expect(old.headers.get('location')).toBe(`${host.url}/static/assets/mandi_1.0.0_linux_amd64.tar.gz`);
  });

  test('unknown releases and assets are 404; the endpoints need authentication', async () => {
    expect((await tp.api('/cli/releases/9.9.9/download/mandi_9.9.9_linux_amd64.tar.gz', { token: owner.token, tenant: 'acme' })).status).toBe(404);
    expect((await tp.api('/cli/releases/1.1.0/download/other.tar.gz', { token: owner.token, tenant: 'acme' })).status).toBe(404);
    expect((await tp.api('/cli/releases', { tenant: 'acme' })).status).toBe(401);
  });

  test('a failing release source is a 502 with a clear code, never a stack', async () => {
    host.status('/static/manifest.json', 500, 'boom');
    const down = await releases();
    expect(down.status).toBe(502);
    expect(down.body).toMatchObject({ code: 'RELEASE_SOURCE_UNAVAILABLE' });
    host.route('/static/manifest.json', (_q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<html>'));
    expect((await releases()).status).toBe(502);
    host.json('/static/manifest.json', { schema_version: 2, releases: [] });
    expect((await releases()).body.message).toMatch(/schema_version/);
    host.json('/static/manifest.json', staticManifest());
  });
});

describe('spec 1: Client releases (PUT /cli/channel, adapters static, bucket, hosted_repo)', () => {
  afterAll(async () => {
    await tp.api('/cli/channel', { method: 'DELETE', token: owner.token, tenant: 'acme' });
  });

  test('admins only; every adapter\'s config is validated', async () => {
    expect((await putChannel({ adapter: 'static', config: { manifest_url: `${host.url}/x.json` } }, member.token)).status).toBe(403);
    expect((await tp.api('/cli/channel', { token: member.token, tenant: 'acme' })).status).toBe(403);
    const cases: Array<[unknown, string[]]> = [
      [{ adapter: 'ftp', config: {} }, ['adapter']],
      [{ adapter: 'static' }, ['config']],
      [{ adapter: 'static', config: {} }, ['config.manifest_url']],
      [{ adapter: 'static', config: { manifest_url: 'http://releases.example.com/m.json' } }, ['config.manifest_url']],
      [{ adapter: 'static', config: { manifest_url: 'https://releases.example.com/m.json', token: 'x' } }, ['config.token']],
      [{ adapter: 'bucket', config: { bucket: 'UPPER', region: 'eu-west-1' } }, ['config.bucket', 'config.manifest_key']],
      [{ adapter: 'hosted_repo', config: { project: 'group/cli', api_url: 'https://git.example.com/api/v4' } }, ['config.token']],
    ];
    for (const [body, fields] of cases) {
      const res = await putChannel(body);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(fields);
    }
    expect((await tp.api('/cli/channel', { token: owner.token, tenant: 'acme' })).body.channel).toMatchObject({ adapter: 'static', inherited: true, updated_at: null });
  });

  test('static: the tenant\'s own manifest replaces the inherited one', async () => {
    const own = staticManifest();
    own.channel = 'beta';
    own.releases = [{ ...own.releases[1], version: '2.0.0-beta.1' }];
    own.latest = '2.0.0-beta.1';
    host.json('/tenant/acme.json', own);
    const put = await putChannel({ adapter: 'static', config: { manifest_url: `${host.url}/tenant/acme.json` } });
    expect(put.status).toBe(200);
    expect(put.body.channel).toMatchObject({ adapter: 'static', config: { manifest_url: `${host.url}/tenant/acme.json` }, inherited: false, updated_at: expect.any(String) });
    const m = (await releases()).body;
    expect(m).toMatchObject({ channel: 'beta', latest: '2.0.0-beta.1' });
    expect(m.releases.map((r: { version: string }) => r.version)).toEqual(['2.0.0-beta.1']);
  });

  test('bucket: the manifest object of an S3-compatible endpoint; downloads redirect', async () => {
    const m = staticManifest();
    host.json('/mandi-releases/cli/stable/manifest.json', m);
    const put = await putChannel({ adapter: 'bucket', config: { bucket: 'mandi-releases', region: 'eu-west-1', manifest_key: 'cli/stable/manifest.json', endpoint: host.url } });
    expect(put.status).toBe(200);
    const got = (await releases()).body;
    expect(got.latest).toBe('1.1.0');
    const res = await httpRequest(got.releases[1].assets[0].url, 'GET', { authorization: `Bearer ${owner.token}`, 'x-tenant': 'acme' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${host.url}/mandi-releases/cli/stable/assets/mandi_1.0.0_linux_amd64.tar.gz`);
  });

  describe('hosted_repo', () => {
    const TOKEN = 'glpat-repo-read-token-123';
    const linux = Buffer.from('the 1.2.0 linux archive, streamed by the platform');
    const mac = Buffer.from('mac archive on another host');

    beforeAll(() => {
      const project = encodeURIComponent('tools/mandi-cli');
      const needsToken = (fn: (res: import('node:http').ServerResponse) => void) => (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) =>
        req.headers['private-token'] === TOKEN ? fn(res) : res.writeHead(401).end('{"message":"401 Unauthorized"}');
      host.route(`/api/v4/projects/${project}/releases`, (req, res) => {
        const page = new URL(req.url!, host.url).searchParams.get('page');
        needsToken((r) => {
          if (page === '1') {
            r.writeHead(200, { 'content-type': 'application/json', 'x-next-page': '2' }).end(
              JSON.stringify([
                {
                  tag_name: 'cli/v1.2.0',
                  description: 'Adds upgrade.',
                  released_at: '2026-03-01T00:00:00Z',
                  _links: { self: `${host.url}/tools/mandi-cli/-/releases/cli%2Fv1.2.0` },
                  assets: {
                    links: [
                      { name: 'mandi_1.2.0_linux_amd64.tar.gz', url: `${host.url}/uploads/linux-120`, direct_asset_url: `${host.url}/uploads/linux-120` },
                      { name: 'mandi_1.2.0_macos_arm64.tar.gz', url: `${host.altUrl}/elsewhere/mac-120` },
                      { name: 'checksums.txt', url: `${host.url}/uploads/checksums-120` },
                    ],
                  },
                },
                { tag_name: 'server/v9.0.0', assets: { links: [] } },
              ]),
            );
          } else {
            r.writeHead(200, { 'content-type': 'application/json' }).end(
              JSON.stringify([{ tag_name: 'cli/v1.1.0', description: 'Older.', released_at: '2026-02-01T00:00:00Z', assets: { links: [{ name: 'mandi_1.1.0_linux_amd64.tar.gz', url: `${host.url}/uploads/linux-110` }, { name: 'mandi_1.1.0_linux_amd64.tar.gz.sha256', url: `${host.url}/uploads/linux-110.sha256` }] } }]),
            );
          }
        })(req, res);
      });
      host.route('/uploads/checksums-120', needsToken((r) => r.writeHead(200).end(`${sha(linux)}  mandi_1.2.0_linux_amd64.tar.gz\n${sha(mac)} *mandi_1.2.0_macos_arm64.tar.gz\n`)));
      host.route('/uploads/linux-110.sha256', needsToken((r) => r.writeHead(200).end(`${'c'.repeat(64)}\n`)));
      host.route('/uploads/linux-120', needsToken((r) => r.writeHead(200, { 'content-length': linux.length }).end(linux)));
      host.route('/elsewhere/mac-120', (_req, res) => res.writeHead(200).end(mac));
    });

    test('the token is stored encrypted at rest and never shown', async () => {
      const put = await putChannel({ adapter: 'hosted_repo', config: { project: 'tools/mandi-cli', api_url: `${host.url}/api/v4/`, token: TOKEN } });
      expect(put.status).toBe(200);
      expect(put.body.channel).toEqual({ adapter: 'hosted_repo', config: { project: 'tools/mandi-cli', api_url: `${host.url}/api/v4`, token_set: true }, inherited: false, updated_at: expect.any(String) });
      const [row] = await tp.platform.central.sequelize.query<{ config: object; token_encrypted: string }>(
        'SELECT config, token_encrypted FROM cli_release_channels WHERE tenant_id = $1',
        { bind: [owner.tenantId], type: QueryTypes.SELECT },
      );
      expect(JSON.stringify(row)).not.toContain(TOKEN);
      expect(JSON.stringify(row)).not.toContain(Buffer.from(TOKEN).toString('base64'));
      expect(row.config).toEqual({ project: 'tools/mandi-cli', api_url: `${host.url}/api/v4` });
      expect(await tp.platform.keys.decrypt('cli-releases.repo-token', row.token_encrypted)).toBe(TOKEN);
      expect(JSON.stringify((await tp.api('/cli/channel', { token: owner.token, tenant: 'acme' })).body)).not.toContain(TOKEN);
    });

    test('releases are the cli/v tags across pages, with checksums from checksums.txt or <asset>.sha256', async () => {
      const res = await releases();
      expect(res.status).toBe(200);
      const m = res.body;
      expect(m).toMatchObject({ schema_version: 1, latest: '1.2.0', min_supported: '1.1.0' });
      expect(m.releases.map((r: { version: string }) => r.version)).toEqual(['1.2.0', '1.1.0']);
      expect(m.releases[0]).toMatchObject({ notes: 'Adds upgrade.', notes_url: `${host.url}/tools/mandi-cli/-/releases/cli%2Fv1.2.0` });
      expect(m.releases[0].assets).toEqual([
        { os: 'linux', arch: 'amd64', url: `${tp.url}/api/v1/cli/releases/1.2.0/download/mandi_1.2.0_linux_amd64.tar.gz`, sha256: sha(linux), filename: 'mandi_1.2.0_linux_amd64.tar.gz' },
        { os: 'darwin', arch: 'arm64', url: `${tp.url}/api/v1/cli/releases/1.2.0/download/mandi_1.2.0_macos_arm64.tar.gz`, sha256: sha(mac), filename: 'mandi_1.2.0_macos_arm64.tar.gz' },
      ]);
      expect(m.releases[1].assets[0].sha256).toBe('c'.repeat(64));
    });

    test('downloads are fetched with the service token and streamed; the token never leaves the repository origin', async () => {
      host.seen.length = 0;
      const m = (await releases()).body;
      const get = (url: string) => httpRequest(url, 'GET', { authorization: `Bearer ${owner.token}`, 'x-tenant': 'acme' });
      const res = await get(m.releases[0].assets[0].url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/octet-stream');
      expect(sha(Buffer.from(res.text))).toBe(sha(linux));
      const mac_ = await get(m.releases[0].assets[1].url);
      expect(mac_.text).toBe(mac.toString());
      const upstreamCalls = host.seen.filter((s) => s.path.startsWith('/uploads/linux-120') || s.path.startsWith('/elsewhere/'));
      expect(upstreamCalls.find((s) => s.path === '/uploads/linux-120')?.headers['private-token']).toBe(TOKEN);
      // Another origin (localhost, not 127.0.0.1) never sees the token.
      expect(upstreamCalls.find((s) => s.path === '/elsewhere/mac-120')?.headers['private-token']).toBeUndefined();
      // Our client's bearer token is never forwarded anywhere.
      expect(host.seen.some((s) => JSON.stringify(s.headers).includes(owner.token))).toBe(false);
    });

    test('the token may be left out to keep it, only for the same api_url', async () => {
      expect((await putChannel({ adapter: 'hosted_repo', config: { project: 'tools/mandi-cli', api_url: `${host.url}/api/v4` } })).status).toBe(200);
      expect((await releases()).status).toBe(200);
      const moved = await putChannel({ adapter: 'hosted_repo', config: { project: 'tools/mandi-cli', api_url: `${host.altUrl}/api/v4` } });
      expect(moved.status).toBe(422);
      expect(moved.body.errors).toHaveProperty(['config.token']);
    });

    test('a wrong token is a 502 from the source, not our 401', async () => {
      await putChannel({ adapter: 'hosted_repo', config: { project: 'tools/mandi-cli', api_url: `${host.url}/api/v4`, token: 'wrong' } });
      const res = await releases();
      expect(res.status).toBe(502);
      expect(res.body.message).toMatch(/401/);
    });
  });

  test('DELETE /cli/channel returns the tenant to the platform default', async () => {
    const res = await tp.api('/cli/channel', { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect(res.body.channel).toMatchObject({ adapter: 'static', inherited: true });
    expect((await releases()).body.latest).toBe('1.1.0');
  });
});
