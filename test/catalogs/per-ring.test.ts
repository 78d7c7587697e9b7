/**
 * Issue 4, "Done means": two rings running different versions of one module serve different catalogs
 * (workflow nodes, screens, AI tools) at the same time to their own tenants; DESIGN.md, Rings and the
 * registry: catalogs are built per ring from its manifests, cached under `<ring>:<fingerprint>`, and
 * rebuilt when the ring's release changes. Spec 2, Tools (GET /ai/agent/tools) is checked here too.
 */
import { releaseFingerprint } from '../../rings';
import { promoteOk } from '../rings/support';
import { catalogWorld, inTenant, memberWith, type CatalogWorld, type ShopTenant } from './support';

describe('issue 4 item 5: catalogs per ring (DESIGN.md, Rings and the registry)', () => {
  let w: CatalogWorld;
  const ids = (res: { body: { data: Array<{ identifier?: string; name?: string; id?: string }> } }) => res.body.data.map((e) => e.identifier ?? e.id ?? e.name);
  const nodes = async (t: ShopTenant) => ids(await inTenant(w.tp, t, '/workflow-nodes'));
  const tools = async (t: ShopTenant) => (await inTenant(w.tp, t, '/ai/agent/tools')).body.data.map((x: { name: string }) => x.name);

  beforeAll(async () => {
    w = await catalogWorld();
  }, 240_000);
  afterAll(() => w?.tp.close());

  test('canary (kiosk 2.0.0) and stable (kiosk 1.0.0) serve different nodes, screens and tools at the same time', async () => {
    const [canaryNodes, stableNodes] = await Promise.all([nodes(w.canary), nodes(w.stable)]);
    expect(canaryNodes).toContain('kiosk:restock');
    expect(stableNodes).not.toContain('kiosk:restock');
    expect((await inTenant(w.tp, w.stable, '/workflow-nodes/kiosk:restock')).status).toBe(404);
    expect((await inTenant(w.tp, w.canary, '/workflow-nodes/kiosk:restock')).body.data.operation).toBe('kiosk.restock');

    const [canaryScreens, stableScreens] = await Promise.all([inTenant(w.tp, w.canary, '/mobile/screens'), inTenant(w.tp, w.stable, '/mobile/screens')]);
    expect(canaryScreens.body.data[0]).toMatchObject({ id: 'kiosk.items', title: 'Items v2', version: 2 });
    expect(stableScreens.body.data[0]).toMatchObject({ id: 'kiosk.items', title: 'Items', version: 1 });
    expect((await inTenant(w.tp, w.canary, '/mobile/screens/kiosk.items')).body).toMatchObject({ title: 'Items v2', version: 2 });
    // Behaviour too: each ring's tenants are served by their own version's code.
    expect((await inTenant(w.tp, w.canary, '/mobile/screens/kiosk.detail/data/summary?sku=A')).body.data.version).toBe('2.0.0');
    expect((await inTenant(w.tp, w.stable, '/mobile/screens/kiosk.detail/data/summary?sku=A')).body.data.version).toBe('1.0.0');
    const [canaryManifest, stableManifest] = await Promise.all([inTenant(w.tp, w.canary, '/mobile/screens/manifest'), inTenant(w.tp, w.stable, '/mobile/screens/manifest')]);
    expect(canaryManifest.body.version).not.toBe(stableManifest.body.version);

    expect(await tools(w.canary)).toContain('kiosk.restock');
    expect(await tools(w.stable)).not.toContain('kiosk.restock');
  });

  test('each catalog is cached under <ring>:<fingerprint of its release> and named in X-Catalog-Key', async () => {
    const key = async (t: ShopTenant) => (await inTenant(w.tp, t, '/workflow-nodes')).headers.get('x-catalog-key');
    expect(await key(w.canary)).toBe(`canary:${releaseFingerprint({ kiosk: '2.0.0' })}`);
    expect(await key(w.stable)).toBe(`stable:${releaseFingerprint({ kiosk: '1.0.0' })}`);
    expect(w.tp.platform.catalogs.rings.keys()).toEqual(expect.arrayContaining([`canary:${releaseFingerprint({ kiosk: '2.0.0' })}`, `stable:${releaseFingerprint({ kiosk: '1.0.0' })}`]));
    const ringManifests = await w.tp.api('/rings/stable/manifests', { token: w.owner.token });
    expect(ringManifests.body).toMatchObject({ cacheKey: `stable:${releaseFingerprint({ kiosk: '1.0.0' })}` });
  });

  describe('spec 2 Tools: GET /ai/agent/tools', () => {
    test('{data: [{name, module, description}]} of the installed modules, without operations marked ai_tool: false', async () => {
      const res = await inTenant(w.tp, w.stable, '/ai/agent/tools');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { name: 'kiosk.version', module: 'kiosk', description: 'Which version of the code answers.' },
        { name: 'kiosk.get_item', module: 'kiosk', description: 'One item by sku.' },
        { name: 'kiosk.list_items', module: 'kiosk', description: 'Items, a page at a time.' },
        { name: 'kiosk.create_item', module: 'kiosk', description: 'Creates an item.' },
        { name: 'kiosk.cancel_item', module: 'kiosk', description: 'Cancels an item.' },
      ]);
      expect((await inTenant(w.tp, w.bare, '/ai/agent/tools')).body.data).toEqual([]);
    });

    test('rule 2: tools whose inferred permission (or own permission) the user lacks are dropped silently', async () => {
      const viewer = await memberWith(w.tp, w.stable, 'ai-viewer', ['ai.view', 'kiosk.view']);
      expect(await tools(viewer)).toEqual(['kiosk.version', 'kiosk.get_item', 'kiosk.list_items']);
      // cancel needs kiosk.delete by its name and kiosk.manage by its declaration: both.
      const manager = await memberWith(w.tp, w.stable, 'ai-manager', ['ai.view', 'kiosk.view', 'kiosk.create', 'kiosk.manage']);
      expect(await tools(manager)).toEqual(['kiosk.version', 'kiosk.get_item', 'kiosk.list_items', 'kiosk.create_item']);
    });

    test('ai.view is required (403), and a token (401)', async () => {
      const plain = await memberWith(w.tp, w.stable, 'no-ai', ['kiosk.view']);
      const res = await inTenant(w.tp, plain, '/ai/agent/tools');
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'ai.view' } });
      expect((await w.tp.api('/ai/agent/tools', { tenant: w.stable.alias })).status).toBe(401);
    });
  });

  test('a promotion changes the ring release: every catalog of that ring is rebuilt, the screens manifest version changes', async () => {
    const before = await inTenant(w.tp, w.stable, '/mobile/screens/manifest');
    await promoteOk(w.tp, w.owner.token, 'stable', 'kiosk', '2.0.0', 'canary');
    const after = await inTenant(w.tp, w.stable, '/mobile/screens/manifest');
    expect(after.body.version).not.toBe(before.body.version);
    expect(after.body.screens).toContainEqual({ id: 'kiosk.items', version: 2 });
    expect(after.headers.get('x-catalog-key')).toBe(`stable:${releaseFingerprint({ kiosk: '2.0.0' })}`);
    // The canary tenant's view (same module version, other ring) now equals stable's, under its own key.
    expect(after.body.version).toBe((await inTenant(w.tp, w.canary, '/mobile/screens/manifest')).body.version);
    expect(await nodes(w.stable)).toContain('kiosk:restock');
    expect(await tools(w.stable)).toContain('kiosk.restock');
    expect((await inTenant(w.tp, w.stable, '/mobile/screens/kiosk.detail/data/summary?sku=A')).body.data.version).toBe('2.0.0');
  });

  test('a tenant rolled back to an earlier release sees the entries of the version it runs, not the ring\'s', async () => {
    const rolled = await inTenant(w.tp, w.stable, '/modules/kiosk/rollback', { body: { version: '1.0.0' } });
    expect(rolled.status).toBe(200);
    const res = await inTenant(w.tp, w.stable, '/workflow-nodes');
    expect(res.headers.get('x-catalog-key')).toBe(`stable:${releaseFingerprint({ kiosk: '2.0.0' })}`);
    expect(ids(res)).not.toContain('kiosk:restock');
    expect((await inTenant(w.tp, w.stable, '/mobile/screens')).body.data[0]).toMatchObject({ id: 'kiosk.items', version: 1 });
    expect(await tools(w.stable)).not.toContain('kiosk.restock');
  });
});
