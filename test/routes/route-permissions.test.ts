/**
 * DESIGN.md "How a request flows" and "Manifest": a module route checks its operation's permission
 * unless it names its own, over real HTTP through the SDK test host. The declared fixture
 * (test/routes/fixtures/gated) leaves one route's permission out and gives another its own; the
 * hand-written one (fixtures/handgated) leaves it out of module.json itself.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';

const fixture = (name: string) => path.join(__dirname, 'fixtures', name);
const refused = (permission: string) => ({ message: `This action requires the permission "${permission}".`, code: 'FORBIDDEN', details: { permission } });

let host: TestHost;
let viewer: string;
let auditor: string;
let both: string;
let handViewer: string;
beforeAll(async () => {
  host = await createTestHost({ modulePath: fixture('gated'), withModules: [fixture('handgated')] });
  viewer = await host.memberWith('gated-viewer', ['gated.view']);
  auditor = await host.memberWith('gated-auditor', ['gated.audit']);
  both = await host.memberWith('gated-both', ['gated.view', 'gated.audit']);
  handViewer = await host.memberWith('handgated-viewer', ['handgated.view']);
}, 120_000);
afterAll(() => host.close());

describe('a module route\'s permission is its operation\'s unless it names its own', () => {
  test('the build writes the operation\'s permission into the route that leaves it out, and keeps the one a route names', async () => {
    const manifest = JSON.parse(await readFile(path.join(fixture('gated'), 'module.json'), 'utf8')) as { http: { routes: Array<{ path: string; permission?: string }> } };
    expect(manifest.http.routes.map((r) => [r.path, r.permission])).toEqual([
      ['/gated/items', 'gated.view'],
      ['/gated/audit/items', 'gated.audit'],
    ]);
  });

  test('a declared route without a permission refuses a member without the operation\'s and serves one with it', async () => {
    const denied = await host.requestAs(auditor, 'GET', '/gated/items');
    expect([denied.status, denied.body]).toEqual([403, refused('gated.view')]);
    const allowed = await host.requestAs(viewer, 'GET', '/gated/items');
    expect([allowed.status, allowed.body]).toEqual([200, { items: ['a', 'b'] }]);
  });

  test('a route with its own permission checks that one, and the operation still checks its own', async () => {
    const viewerDenied = await host.requestAs(viewer, 'GET', '/gated/audit/items');
    expect([viewerDenied.status, viewerDenied.body]).toEqual([403, refused('gated.audit')]);
    const auditorDenied = await host.requestAs(auditor, 'GET', '/gated/audit/items');
    expect(auditorDenied.status).toBe(403);
    expect(auditorDenied.body).toMatchObject({ code: 'FORBIDDEN', details: { operation: 'gated.audit_list', permission: 'gated.view' } });
    const allowed = await host.requestAs(both, 'GET', '/gated/audit/items');
    expect([allowed.status, allowed.body]).toEqual([200, { items: ['a', 'b'] }]);
  });

  test('a hand-written module.json may leave a route\'s permission out: the host checks the operation\'s', async () => {
    const denied = await host.requestAs(viewer, 'GET', '/handgated/items');
    expect([denied.status, denied.body]).toEqual([403, refused('handgated.view')]);
    const allowed = await host.requestAs(handViewer, 'GET', '/handgated/items');
    expect([allowed.status, allowed.body]).toEqual([200, { items: ['c'] }]);
  });
});
