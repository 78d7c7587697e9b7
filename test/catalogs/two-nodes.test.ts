/**
 * DESIGN.md, Rings and the registry, on two nodes: each node caches ring catalogs; a release change
 * made on one node reaches the other through Redis pub/sub (`onReleaseChanged`), which then serves the
 * new release's catalog under its new `<ring>:<fingerprint>` key.
 */
import { releaseFingerprint } from '../../rings';
import { inTenant, promoteOk, tenantIn } from '../rings/support';
import { eventually } from '../support/eventually';
import type { TestPlatform } from '../support/test-platform';
import { describeWithRedis, startTwoPlatforms, type TwoNodes } from '../support/two-nodes';
import { publishFixture } from './support';

describeWithRedis('issue 4 item 5: ring catalogs across two nodes on one Redis', () => {
  let nodes: TwoNodes<TestPlatform>;
  let a: TestPlatform;
  let b: TestPlatform;

  beforeAll(async () => {
    nodes = await startTwoPlatforms();
    ({ a, b } = nodes);
  }, 120_000);
  afterAll(() => nodes?.close());

  test('a promotion on node A: node B drops its cached ring catalog and serves the new release', async () => {
    const owner = await a.install('acme');
    await publishFixture(a, owner.token, 'kiosk@1.0.0');
    await publishFixture(a, owner.token, 'kiosk@2.0.0');
    await promoteOk(a, owner.token, 'stable', 'kiosk', '1.0.0');
    const shop = await tenantIn(a, owner, 'steady', 'stable');
    expect((await inTenant(a, shop, '/modules/kiosk/install', { body: {} })).status).toBe(201);

    const onB = () => inTenant(b, shop, '/workflow-nodes');
    const before = await onB();
    expect(before.headers.get('x-catalog-key')).toBe(`stable:${releaseFingerprint({ kiosk: '1.0.0' })}`);
    expect(before.body.data.map((n: { identifier: string }) => n.identifier)).not.toContain('kiosk:restock');

    await promoteOk(a, owner.token, 'stable', 'kiosk', '2.0.0');
    const after = await eventually(onB, (r) => r.headers.get('x-catalog-key') === `stable:${releaseFingerprint({ kiosk: '2.0.0' })}`);
    expect(after.headers.get('x-catalog-key')).toBe(`stable:${releaseFingerprint({ kiosk: '2.0.0' })}`);
    expect(after.body.data.map((n: { identifier: string }) => n.identifier)).toContain('kiosk:restock');
    expect(b.platform.catalogs.rings.keys()).toContain(`stable:${releaseFingerprint({ kiosk: '2.0.0' })}`);
  });
});
