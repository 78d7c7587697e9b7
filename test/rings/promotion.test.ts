/**
 * Issue 4, "Done means": a module walked through two real versions with a data migration between
 * them (stock 1.0.0 → 1.1.0, whose migration 002 backfills items.slug): published, installed for
 * tenants in different rings, promoted canary → beta → stable, data surviving the upgrade and a ring
 * rollback; and two rings serving different versions (behaviour, routes, release manifests) to their
 * own tenants at the same time. DESIGN.md, Rings and the registry.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { appliedMigrations, busCall, inTenant, installedVersions, promoteOk, publishOk, tenantIn, type ShopTenant } from './support';

describe('issue 4: stock 1.0.0 → 1.1.0 through canary, beta and stable', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const t = {} as Record<'canary' | 'beta' | 'stable', ShopTenant>;

  const version = async (tenant: ShopTenant) => (await inTenant(tp, tenant, '/stock/version')).body;
  const install = (tenant: ShopTenant, body: object = {}) => inTenant(tp, tenant, '/modules/stock/install', { body });

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    owner = await tp.install('acme');
    t.canary = await tenantIn(tp, owner, 'early', 'canary');
    t.beta = await tenantIn(tp, owner, 'tester', 'beta');
    t.stable = await tenantIn(tp, owner, 'steady', 'stable');
    await publishOk(tp, owner.token, 'stock@1.0.0');
    await publishOk(tp, owner.token, 'stock@1.1.0');
  }, 180_000);
  afterAll(() => tp?.close());

  test('a version enters the first ring from the registry; tenants of other rings cannot install it yet', async () => {
    const op = await promoteOk(tp, owner.token, 'canary', 'stock', '1.0.0');
    expect(op.result).toMatchObject({ ring: 'canary', module: 'stock', version: '1.0.0', from: null, tenants_moved: 0, release: 1 });

    const ok = await install(t.canary);
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ alias: 'stock', version: '1.0.0', from: null });

    const refused = await install(t.beta);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'MODULE_NOT_IN_RING' });
    expect(refused.body.message).toContain('Ring beta does not release module stock');

    const wrongVersion = await install(t.canary, { version: '1.1.0' });
    expect(wrongVersion.status).toBe(422);
    expect(wrongVersion.body.code).toBe('VERSION_NOT_IN_RING');
  });

  test('canary → beta → stable; each ring then serves 1.0.0 to the tenants that install it', async () => {
    await promoteOk(tp, owner.token, 'beta', 'stock', '1.0.0', 'canary');
    await promoteOk(tp, owner.token, 'stable', 'stock', '1.0.0', 'beta');
    for (const tenant of [t.beta, t.stable]) expect((await install(tenant)).status).toBe(201);
    for (const tenant of [t.canary, t.beta, t.stable]) {
      await busCall(tp, tenant.id, 'stock.add_item', { sku: `SKU-${tenant.alias.toUpperCase()}`, name: `Item of ${tenant.alias}`, quantity: 5 });
      expect(await version(tenant)).toEqual({ version: '1.0.0' });
      expect(await appliedMigrations(tp, tenant.id, 'stock')).toEqual(['001_seed_locations']);
    }
    // Promotion from a ring must name what that ring releases.
    const wrong = await tp.api('/rings/stable/promote?wait=true', { token: owner.token, body: { module: 'stock', version: '1.1.0', from: 'beta' } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.code).toBe('NOT_IN_SOURCE_RING');
  });

  test('1.1.0 in canary: the canary tenant is migrated (slugs backfilled) while beta and stable keep 1.0.0, at the same time', async () => {
    const op = await promoteOk(tp, owner.token, 'canary', 'stock', '1.1.0');
    expect(op.result).toMatchObject({ from: '1.0.0', version: '1.1.0', tenants_moved: 1, release: 2 });
    expect(op.progress).toMatchObject({ done: 1, total: 1, percent: 100 });

    // Behaviour: each tenant is served by its ring's version, concurrently.
    const answers = await Promise.all([t.canary, t.beta, t.stable].map((x) => version(x)));
    expect(answers).toEqual([{ version: '1.1.0' }, { version: '1.0.0' }, { version: '1.0.0' }]);

    // Data: the canary tenant's item survived the upgrade and got its slug from migration 002.
    const item = await inTenant(tp, t.canary, '/stock/items/SKU-EARLY');
    expect(item.status).toBe(200);
    expect(item.body).toMatchObject({ sku: 'SKU-EARLY', name: 'Item of early', quantity: 5, slug: 'sku-early' });
    expect(await appliedMigrations(tp, t.canary.id, 'stock')).toEqual(['001_seed_locations', '002_backfill_slugs']);
    const betaItem = await inTenant(tp, t.beta, '/stock/items/SKU-TESTER');
    expect(betaItem.body).toMatchObject({ sku: 'SKU-TESTER', quantity: 5 });
    expect(betaItem.body).not.toHaveProperty('slug');

    // Routes and operations only 1.1.0 provides exist for the canary tenant alone.
    expect((await inTenant(tp, t.canary, '/stock/by-slug/sku-early')).status).toBe(200);
    expect((await inTenant(tp, t.beta, '/stock/by-slug/sku-tester')).status).toBe(404);

    // What catalogs are built from: each ring's release manifests, under a different cache key.
    const canary = await tp.api('/rings/canary/manifests', { token: owner.token });
    const beta = await tp.api('/rings/beta/manifests', { token: owner.token });
    const ops = (m: { modules: Array<{ manifest: { api: { provides: Array<{ name: string }> } } }> }) => m.modules[0].manifest.api.provides.map((p) => p.name);
    expect(ops(canary.body)).toContain('stock.find_by_slug');
    expect(ops(beta.body)).not.toContain('stock.find_by_slug');
    expect(canary.body.cacheKey).toMatch(/^canary:[0-9a-f]{16}$/);
    expect(canary.body.fingerprint).not.toBe(beta.body.fingerprint);
  });

  test('canary → beta → stable with 1.1.0: every installed tenant migrated, data kept', async () => {
    await promoteOk(tp, owner.token, 'beta', 'stock', '1.1.0', 'canary');
    const op = await promoteOk(tp, owner.token, 'stable', 'stock', '1.1.0', 'beta');
    expect(op.result.tenants_moved).toBe(1);
    expect(await installedVersions(tp, 'stock')).toEqual({ [t.canary.id]: '1.1.0', [t.beta.id]: '1.1.0', [t.stable.id]: '1.1.0' });
    for (const tenant of [t.beta, t.stable]) {
      expect(await version(tenant)).toEqual({ version: '1.1.0' });
      const item = await busCall(tp, tenant.id, 'stock.get_item', { sku: `SKU-${tenant.alias.toUpperCase()}` });
      expect(item).toMatchObject({ quantity: 5, slug: `sku-${tenant.alias}` });
    }
    const ring = await tp.api('/rings/stable', { token: owner.token });
    expect(ring.body.ring.release).toMatchObject({ number: 2, modules: { stock: '1.1.0' }, kind: 'promote', changes: [{ alias: 'stock', from: '1.0.0', to: '1.1.0' }] });
    expect(ring.body.history.map((r: { number: number }) => r.number)).toEqual([2, 1, 0]);
  });

  test('a ring rollback returns stable to 1.0.0: down migration runs, the data stays', async () => {
    const res = await tp.api('/rings/stable/rollback?wait=true', { token: owner.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.operation).toMatchObject({ status: 'completed', kind: 'ring_rollback' });
    expect(res.body.operation.result).toMatchObject({ tenants_moved: 1, release: 3, returned_to: 1 });

    expect(await version(t.stable)).toEqual({ version: '1.0.0' });
    expect(await version(t.beta)).toEqual({ version: '1.1.0' });
    expect(await appliedMigrations(tp, t.stable.id, 'stock')).toEqual(['001_seed_locations']);
    const item = await busCall(tp, t.stable.id, 'stock.get_item', { sku: 'SKU-STEADY' });
    expect(item).toMatchObject({ sku: 'SKU-STEADY', name: 'Item of steady', quantity: 5 });
    // 002's down cleared the slugs; the column itself stays (module data never drops columns).
    const [row] = await tp.platform.tenantDbs.with(t.stable.id, (db) => db.query('SELECT slug, quantity FROM stock.items', { plain: false, raw: true }));
    expect(row).toEqual([{ slug: null, quantity: 5 }]);
    expect((await tp.api('/rings/stable', { token: owner.token })).body.ring.release).toMatchObject({ number: 3, kind: 'rollback', modules: { stock: '1.0.0' } });

    // Nothing before release 1 holds stock; the next rollback would empty the ring of a module a tenant runs.
    const again = await tp.api('/rings/stable/rollback?wait=true', { token: owner.token, body: {} });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('ROLLBACK_REFUSED');
    expect(again.body.details.reasons[0]).toMatchObject({ kind: 'installed' });
  });

  test('promoting 1.1.0 to stable again migrates forward again', async () => {
    await promoteOk(tp, owner.token, 'stable', 'stock', '1.1.0', 'beta');
    expect(await busCall(tp, t.stable.id, 'stock.get_item', { sku: 'SKU-STEADY' })).toMatchObject({ slug: 'sku-steady', quantity: 5 });
  });

  test('a tenant moved to another ring runs that ring\'s version', async () => {
    // Canary and stable both hold 1.1.0 now: roll canary back to 1.0.0 so the move has work to do.
    const back = await tp.api('/rings/canary/rollback?wait=true', { token: owner.token, body: {} });
    expect(back.status).toBe(200);
    expect(await version(t.canary)).toEqual({ version: '1.0.0' });

    const move = await tp.api('/rings/stable/tenants?wait=true', { token: owner.token, body: { tenant: t.canary.alias } });
    expect(move.status).toBe(200);
    expect(move.body.operation.result).toMatchObject({ from_ring: 'canary', ring: 'stable', modules_moved: 1 });
    expect(await version(t.canary)).toEqual({ version: '1.1.0' });
    expect(await busCall(tp, t.canary.id, 'stock.get_item', { sku: 'SKU-EARLY' })).toMatchObject({ slug: 'sku-early' });
    const tenant = await tp.api(`/rings/tenants/${t.canary.alias}`, { token: owner.token });
    expect(tenant.body).toMatchObject({ tenant: { ring: 'stable' }, modules: [{ alias: 'stock', version: '1.1.0', status: 'installed', ring_version: '1.1.0' }] });
  });

  test('admins add rings with an order: listed by position, with an empty first release; names and positions are unique', async () => {
    const made = await tp.api('/rings', { token: owner.token, body: { name: 'early-access', position: 15, description: 'Design partners' } });
    expect(made.status).toBe(201);
    expect(made.body.ring).toMatchObject({ name: 'early-access', position: 15, release: { number: 0, modules: {} } });
    const list = (await tp.api('/rings', { token: owner.token })).body.rings.map((r: { name: string }) => r.name);
    expect(list.indexOf('canary')).toBeLessThan(list.indexOf('early-access'));
    expect(list.indexOf('early-access')).toBeLessThan(list.indexOf('beta'));
    const sameName = await tp.api('/rings', { token: owner.token, body: { name: 'early-access', position: 16 } });
    expect([sameName.status, sameName.body.code, sameName.body.details]).toEqual([409, 'RING_EXISTS', { field: 'name' }]);
    const samePosition = await tp.api('/rings', { token: owner.token, body: { name: 'late', position: 15 } });
    expect([samePosition.status, samePosition.body.code, samePosition.body.details]).toEqual([409, 'RING_EXISTS', { field: 'position' }]);
    const bad = await tp.api('/rings', { token: owner.token, body: { name: 'tenants', position: 'first' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['name', 'position']);
    // A tenant admin is not a platform admin.
    expect((await tp.api('/rings', { token: t.canary.token, tenant: t.canary.alias, body: { name: 'mine', position: 99 } })).status).toBe(403);
    // The new ring takes promotions like the built-in ones.
    const promoted = await tp.api('/rings/early-access/promote?wait=true', { token: owner.token, body: { module: 'stock', version: '1.0.0', from: 'canary' } });
    expect(promoted.status).toBe(200);
    expect((await tp.api('/rings/early-access', { token: owner.token })).body.ring.release).toMatchObject({ number: 1, modules: { stock: '1.0.0' } });
  });
});
