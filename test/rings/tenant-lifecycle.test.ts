/**
 * Issue 4 item 3: one tenant's lifecycle (install, upgrade, rollback, uninstall with and without
 * purge) runs its module's migrations in that tenant's database, as jobs with progress visible over
 * the API and pushed in real time; the tenant's ring decides the versions (DESIGN.md, Rings and the
 * registry).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { memberWith } from '../catalogs/support';
import { appliedMigrations, busCall, inTenant, promoteOk, publishOk, tenantIn, type ShopTenant } from './support';

describe('issue 4 item 3: lifecycle per tenant, as jobs', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let shop: ShopTenant;
  let other: ShopTenant;

  const modules = (tenant: ShopTenant, rest: string, init: { method?: string; body?: unknown } = {}) => inTenant(tp, tenant, `/modules${rest}`, init);

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'mandi-data-')) });
    owner = await tp.install('acme');
    shop = await tenantIn(tp, owner, 'shop', 'stable');
    other = await tenantIn(tp, owner, 'other', 'stable');
    for (const name of ['stock@1.0.0', 'stock@1.1.0', 'stock@1.2.0']) await publishOk(tp, owner.token, name);
    // Stable has released 1.0.0 and then 1.1.0; 1.2.0 only reached canary.
    await promoteOk(tp, owner.token, 'stable', 'stock', '1.0.0');
    await promoteOk(tp, owner.token, 'stable', 'stock', '1.1.0');
    await promoteOk(tp, owner.token, 'canary', 'stock', '1.2.0');
  }, 180_000);
  afterAll(() => tp?.close());

  test('install runs as a job: 202 with ?wait=false, progress over the API and in real time', async () => {
    const socket: Socket = connect(tp.url, { auth: { token: shop.token, tenant: shop.alias }, transports: ['websocket'], reconnection: false, forceNew: true });
    const events: Array<{ id: string; status: string; progress: { done: number; total: number } }> = [];
    socket.on('.module.operation', (payload) => events.push(payload));
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    try {
      const res = await modules(shop, '/stock/install?wait=false', { body: {} });
      expect(res.status).toBe(202);
      const op = res.body.operation;
      expect(op).toMatchObject({ kind: 'install', module: 'stock', version: '1.1.0', tenant_id: shop.id, ring: 'stable' });
      expect(['queued', 'running', 'completed']).toContain(op.status);

      let seen = op;
      for (let i = 0; i < 200 && seen.status !== 'completed'; i++) {
        await new Promise((r) => setTimeout(r, 25));
        seen = (await modules(shop, `/operations/${op.id}`)).body.operation;
      }
      expect(seen).toMatchObject({ status: 'completed', progress: { done: 1, total: 1, percent: 100 }, result: { module: 'stock', version: '1.1.0', from: null } });
      for (let i = 0; i < 100 && !events.some((e) => e.id === op.id && e.status === 'completed'); i++) await new Promise((r) => setTimeout(r, 20));
      const mine = events.filter((e) => e.id === op.id);
      expect(mine.map((e) => e.status)).toContain('running');
      expect(mine[mine.length - 1]).toMatchObject({ status: 'completed', progress: { done: 1, total: 1 } });
    } finally {
      socket.disconnect();
    }
    expect(await appliedMigrations(tp, shop.id, 'stock')).toEqual(['001_seed_locations', '002_backfill_slugs']);
    // Another tenant cannot read this tenant's operations.
    const list = (await modules(shop, '/operations')).body.operations;
    expect((await modules(other, `/operations/${list[0].id}`)).status).toBe(404);
  });

  test('the overview shows the ring, what is installed and what the ring offers', async () => {
    const res = await modules(shop, '');
    expect(res.body).toEqual({
      ring: 'stable',
      installed: [{ alias: 'stock', version: '1.1.0', description: expect.any(String), ring_version: '1.1.0', source: 'ring' }],
      available: [{ alias: 'stock', versions: ['1.1.0'], ring_version: '1.1.0', source: 'ring' }],
    });
  });

  test('rollback goes to the version the ring released before (down migrations run) and keeps the data; upgrade comes back', async () => {
    await busCall(tp, shop.id, 'stock.add_item', { sku: 'BOLT-1', name: 'Bolt', quantity: 40 });
    const back = await modules(shop, '/stock/rollback', { body: {} });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ alias: 'stock', version: '1.0.0', from: '1.1.0' });
    expect((await inTenant(tp, shop, '/stock/version')).body).toEqual({ version: '1.0.0' });
    expect(await appliedMigrations(tp, shop.id, 'stock')).toEqual(['001_seed_locations']);
    expect(await busCall(tp, shop.id, 'stock.get_item', { sku: 'BOLT-1' })).toMatchObject({ name: 'Bolt', quantity: 40 });

    const nothingOlder = await modules(shop, '/stock/rollback', { body: {} });
    expect(nothingOlder.status).toBe(422);
    expect(nothingOlder.body.code).toBe('NOTHING_TO_ROLL_BACK');

    const up = await modules(shop, '/stock/upgrade', { body: {} });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ version: '1.1.0', from: '1.0.0' });
    expect(await busCall(tp, shop.id, 'stock.get_item', { sku: 'BOLT-1' })).toMatchObject({ quantity: 40, slug: 'bolt-1' });
    const again = await modules(shop, '/stock/upgrade', { body: {} });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('NOTHING_TO_UPGRADE');
    // 1.2.0 exists, but only in canary.
    const notReleased = await modules(shop, '/stock/upgrade', { body: { version: '1.2.0' } });
    expect(notReleased.body.code).toBe('VERSION_NOT_IN_RING');
    const notOlder = await modules(shop, '/stock/rollback', { body: { version: '1.2.0' } });
    expect(notOlder.body.code).toBe('VERSION_NOT_ALLOWED');
  });

  test('uninstall keeps the data for a reinstall unless purge is asked', async () => {
    const removed = await modules(shop, '/stock', { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe('Module uninstalled; its data is kept.');
    expect((await inTenant(tp, shop, '/stock/version')).status).toBe(404);
    expect((await modules(shop, '/stock/install', { body: {} })).status).toBe(201);
    expect(await busCall(tp, shop.id, 'stock.get_item', { sku: 'BOLT-1' })).toMatchObject({ quantity: 40 });

    const purged = await modules(shop, '/stock?purge=true', { method: 'DELETE' });
    expect(purged.body.message).toBe('Module uninstalled and its data purged.');
    expect((await modules(shop, '/stock/install', { body: {} })).status).toBe(201);
    await expect(busCall(tp, shop.id, 'stock.get_item', { sku: 'BOLT-1' })).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
  });

  test('super admins run the same lifecycle through the ring API, for any tenant; its managers follow it live', async () => {
    // The tenant's module managers follow operations they did not start on `modules.operations`.
    const open = async (who: ShopTenant) => {
      const socket: Socket = connect(tp.url, { auth: { token: who.token, tenant: who.alias }, transports: ['websocket'], reconnection: false, forceNew: true });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      return socket;
    };
    const manager = await open(await memberWith(tp, other, 'module-admin', ['modules.manage']));
    const viewer = await open(await memberWith(tp, other, 'viewer', []));
    const pushed: Array<{ id: string; status: string }> = [];
    manager.on('.module.operation', (payload) => pushed.push(payload));
    try {
      expect(await manager.timeout(5000).emitWithAck('subscribe', 'modules.operations')).toMatchObject({ ok: true });
      expect(await viewer.timeout(5000).emitWithAck('subscribe', 'modules.operations')).toMatchObject({ ok: false });

      const res = await tp.api(`/rings/tenants/${other.alias}/modules/stock/install?wait=true`, { token: owner.token, body: {} });
      expect(res.status).toBe(200);
      expect(res.body.operation).toMatchObject({ status: 'completed', tenant_id: other.id, requested_by: { kind: 'user', id: owner.userId } });
      for (let i = 0; i < 100 && !pushed.some((e) => e.status === 'completed'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(pushed.filter((e) => e.id === res.body.operation.id).map((e) => e.status)).toContain('completed');
    } finally {
      manager.disconnect();
      viewer.disconnect();
    }
    const view = await tp.api(`/rings/tenants/${other.id}`, { token: owner.token });
    expect(view.body.modules).toEqual([{ alias: 'stock', version: '1.1.0', status: 'installed', ring_version: '1.1.0' }]);
    const ops = await tp.api(`/rings/operations?tenant=${other.alias}`, { token: owner.token });
    expect(ops.body.operations.map((o: { kind: string }) => o.kind)).toEqual(['install']);
  });
});
