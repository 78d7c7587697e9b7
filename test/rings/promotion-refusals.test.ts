/**
 * Issue 4 item 4 and "Done means": what promotion refuses, and what a failure leaves behind.
 * - a migration failing in the middle of a promotion leaves every tenant on the old version with its
 *   data intact, and the ring's release unchanged;
 * - a breaking change (operation removed, input narrowed, output narrowed, GraphQL field removed)
 *   without a major bump is refused; the same changes as a major version pass, and so does an output
 *   widened in a minor;
 * - a platform range excluding the core, and a dependency not met in the target ring, are refused;
 * - concurrent promotions of one module in one ring are refused (409), also from another node, and
 *   so is a tenant operation on that module in that ring meanwhile.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrl } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { startTestPlatform, testServerUrl, type TestPlatform } from '../support/test-platform';
import { appliedMigrations, busCall, inTenant, installedVersions, promote, promoteOk, publish, publishOk, tenantIn, type ShopTenant } from './support';

describe('issue 4: promotion refusals and all-or-nothing failures', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let canary: ShopTenant[];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mandi-data-'));

  const ringOf = async (ring: string) => (await tp.api(`/rings/${ring}`, { token: owner.token })).body.ring.release;

  beforeAll(async () => {
    tp = await startTestPlatform({ DATA_DIR: dataDir });
    owner = await tp.install('acme');
    const made = [];
    for (const alias of ['north', 'south', 'east']) made.push(await tenantIn(tp, owner, alias, 'canary'));
    // Promotion moves tenants in id order: the last one is where the migration will fail.
    canary = made.sort((a, b) => a.id.localeCompare(b.id));
    for (const name of ['stock@1.0.0', 'stock@1.1.0', 'stock@1.2.0', 'stock@1.3.0', 'stock@2.0.0', 'stock@1.4.0-platform3', 'shelf@1.0.0']) {
      await publishOk(tp, owner.token, name);
    }
    await promoteOk(tp, owner.token, 'canary', 'stock', '1.1.0');
    for (const [i, tenant] of canary.entries()) {
      expect((await inTenant(tp, tenant, '/modules/stock/install', { body: {} })).status).toBe(201);
      await busCall(tp, tenant.id, 'stock.add_item', { sku: `KEEP-${i}`, name: 'kept', quantity: 3 });
    }
    // 1.2.0's migration 003 adds CHECK (quantity > 0): this row makes it fail in the last tenant only.
    await busCall(tp, canary[2].id, 'stock.add_item', { sku: 'EMPTY', name: 'out of stock', quantity: 0 });
  }, 240_000);
  afterAll(() => tp?.close());

  test('a migration failing in the third tenant: the first two are moved back, data intact, release unchanged', async () => {
    const before = await ringOf('canary');
    const res = await promote(tp, owner.token, 'canary', 'stock', '1.2.0');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PROMOTION_FAILED');
    expect(res.body.message).toContain(`tenant ${canary[2].id}`);
    expect(res.body.message).toContain('Every tenant already moved (2) was moved back');
    expect(res.body.details).toMatchObject({
      failed: { tenantId: canary[2].id, from: '1.1.0', to: '1.2.0' },
      cause: { code: 'MIGRATION_FAILED' },
      not_undone: [],
    });
    expect(res.body.details.undone.map((m: { tenantId: string }) => m.tenantId)).toEqual([canary[1].id, canary[0].id]);

    expect(await ringOf('canary')).toEqual(before);
    expect(await installedVersions(tp, 'stock')).toEqual(Object.fromEntries(canary.map((t) => [t.id, '1.1.0'])));
    for (const [i, tenant] of canary.entries()) {
      expect((await inTenant(tp, tenant, '/stock/version')).body).toEqual({ version: '1.1.0' });
      expect(await appliedMigrations(tp, tenant.id, 'stock')).toEqual(['001_seed_locations', '002_backfill_slugs']);
      expect(await busCall(tp, tenant.id, 'stock.get_item', { sku: `KEEP-${i}` })).toMatchObject({ sku: `KEEP-${i}`, name: 'kept', quantity: 3 });
    }
    // The constraint of 003 is gone from the tenants that had it before being moved back.
    const client = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(canary[0].id)) });
    await client.connect();
    const constraints = await client.query(`SELECT conname FROM pg_constraint WHERE conname = 'items_quantity_positive'`);
    await client.end();
    expect(constraints.rowCount).toBe(0);

    // The operation keeps the story: failed, with its reasons, visible over the API.
    const op = await tp.api(`/rings/operations/${res.body.details.operation_id}`, { token: owner.token });
    expect(op.body.operation).toMatchObject({ kind: 'promote', status: 'failed', error: { code: 'PROMOTION_FAILED' } });
    expect(op.body.operation.progress.message).toMatch(/failed .*undoing 2 move/);
  });

  test('once the data is fixed the same promotion goes through', async () => {
    const client = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(canary[2].id)) });
    await client.connect();
    await client.query(`UPDATE stock.items SET quantity = 1 WHERE quantity <= 0`);
    await client.end();
    const op = await promoteOk(tp, owner.token, 'canary', 'stock', '1.2.0');
    expect(op.result).toMatchObject({ tenants_moved: 3, from: '1.1.0' });
  });

  test('a breaking change without a major bump is refused with each change named', async () => {
    await promoteOk(tp, owner.token, 'beta', 'stock', '1.1.0');
    const res = await promote(tp, owner.token, 'beta', 'stock', '1.3.0');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PROMOTION_REFUSED');
    const reasons: Array<{ kind: string; message: string }> = res.body.details.reasons;
    expect(reasons.every((r) => r.kind === 'breaking')).toBe(true);
    const text = reasons.map((r) => r.message).join('\n');
    expect(text).toContain('operation stock.find_by_slug was removed');
    expect(text).toContain('operation stock.add_item input narrowed: (root): now requires "location"');
    expect(text).toContain('GraphQL: Query.stockItemBySlug was removed');
    expect(text).toContain('needs a major version bump');
    expect((await ringOf('beta')).modules).toEqual({ stock: '1.1.0' });
  });

  test('the same changes as 2.0.0 (a major bump) are promoted', async () => {
    const op = await promoteOk(tp, owner.token, 'beta', 'stock', '2.0.0');
    expect(op.result).toMatchObject({ from: '1.1.0', version: '2.0.0' });
  });

  test('an output narrowed in a minor is refused, naming the operation and each change; widened in a minor, or narrowed in a major, it is promoted', async () => {
    for (const v of ['1.0.0', '1.1.0', '1.2.0', '2.0.0']) await publishOk(tp, owner.token, `ledger@${v}`);
    // A ring of its own, so the other tests' rings keep the releases they expect.
    expect((await tp.api('/rings', { token: owner.token, body: { name: 'contracts', position: 15 } })).status).toBe(201);
    await promoteOk(tp, owner.token, 'contracts', 'ledger', '1.0.0');
    // 1.1.0 adds an optional field to the output: consumers of 1.0.0 still get all they were promised.
    await promoteOk(tp, owner.token, 'contracts', 'ledger', '1.1.0');

    const res = await promote(tp, owner.token, 'contracts', 'ledger', '1.2.0');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('PROMOTION_REFUSED');
    const reasons: Array<{ kind: string; message: string }> = res.body.details.reasons;
    expect(reasons.every((r) => r.kind === 'breaking')).toBe(true);
    const text = reasons.map((r) => r.message).join('\n');
    expect(text).toContain('operation ledger.balance output narrowed: (root): "updated_at" removed');
    expect(text).toContain('operation ledger.balance output narrowed: /properties/points: type changed from integer to string');
    expect(text).toContain('operation ledger.balance output narrowed: /properties/customer: may now be null');
    expect(text).toContain('operation ledger.balance output narrowed: /properties/tier: enum value "platinum" added');
    expect(text).toContain('needs a major version bump');
    expect((await ringOf('contracts')).modules).toEqual({ ledger: '1.1.0' });

    const op = await promoteOk(tp, owner.token, 'contracts', 'ledger', '2.0.0');
    expect(op.result).toMatchObject({ from: '1.1.0', version: '2.0.0' });
  });

  test('a platform range that excludes this core is refused (the registry says so too)', async () => {
    const listed = await tp.api('/registry/modules/stock', { token: owner.token });
    expect(listed.body.versions.find((v: { version: string }) => v.version === '1.4.0')).toMatchObject({ compatible: false, platform_range: '^3.0.0' });
    const res = await promote(tp, owner.token, 'stable', 'stock', '1.4.0');
    expect(res.status).toBe(422);
    expect(res.body.details.reasons).toEqual([expect.objectContaining({ kind: 'platform', message: expect.stringMatching(/requires platform \^3\.0\.0 but this core is 2\./) })]);
  });

  test('a dependency not met in the target ring is refused; met, it passes', async () => {
    const res = await promote(tp, owner.token, 'stable', 'shelf', '1.0.0');
    expect(res.status).toBe(422);
    expect(res.body.details.reasons).toEqual([
      expect.objectContaining({ kind: 'dependencies', message: expect.stringContaining('in ring stable: module shelf@1.0.0 depends on stock ^1.1.0, but stock is not installed') }),
    ]);
    // Beta holds stock 2.0.0, outside ^1.1.0.
    const beta = await promote(tp, owner.token, 'beta', 'shelf', '1.0.0');
    expect(beta.status).toBe(422);
    expect(beta.body.details.reasons[0].message).toContain('but stock@2.0.0 is installed');
    await promoteOk(tp, owner.token, 'canary', 'shelf', '1.0.0');
    // …and then stock cannot leave ^1.1.0 in canary without breaking shelf.
    const major = await promote(tp, owner.token, 'canary', 'stock', '2.0.0');
    expect(major.status).toBe(422);
    expect(major.body.details.reasons.some((r: { kind: string; message: string }) => r.kind === 'dependencies' && r.message.includes('shelf@1.0.0 depends on stock ^1.1.0'))).toBe(true);
  });

  describe('concurrent lifecycle operations on one module and ring', () => {
    let node2: TestPlatform;
    let steady: ShopTenant;
    let blocker: Client;

    beforeAll(async () => {
      // A second node on the same central database and the same package store (DATA_DIR/registry).
      node2 = await startTestPlatform({ DATA_DIR: dataDir }, tp.platform.dbServer.centralDbName);
      steady = await tenantIn(tp, owner, 'steady', 'stable');
      await promoteOk(tp, owner.token, 'stable', 'stock', '1.1.0', 'beta').catch(async () => promoteOk(tp, owner.token, 'stable', 'stock', '1.1.0'));
      expect((await inTenant(tp, steady, '/modules/stock/install', { body: {} })).status).toBe(201);
      // Hold a lock on the tenant's items table so the promotion below stays running until released.
      blocker = new Client({ connectionString: databaseUrl(testServerUrl(), tenantDbName(steady.id)) });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE stock.items IN ACCESS EXCLUSIVE MODE');
    }, 120_000);
    afterAll(async () => {
      await blocker?.end().catch(() => undefined);
      await node2?.platform.stop();
    });

    test('a second promotion is refused (409) on this node and on another, and so is a tenant operation; other rings go on', async () => {
      const first = await tp.api('/rings/stable/promote', { token: owner.token, body: { module: 'stock', version: '1.2.0', from: 'canary' } });
      expect(first.status).toBe(202);
      const id = first.body.operation.id;
      for (let i = 0; i < 100; i++) {
        const op = await tp.api(`/rings/operations/${id}`, { token: owner.token });
        if (op.body.operation.status === 'running') break;
        await new Promise((r) => setTimeout(r, 50));
      }

      const again = await tp.api('/rings/stable/promote', { token: owner.token, body: { module: 'stock', version: '1.2.0', from: 'canary' } });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'OPERATION_IN_PROGRESS', details: { operation_id: id } });
      const otherNode = await node2.api('/rings/stable/promote', { token: owner.token, body: { module: 'stock', version: '1.2.0', from: 'canary' } });
      expect(otherNode.status).toBe(409);
      expect(otherNode.body.details.operation_id).toBe(id);
      const tenantOp = await inTenant(tp, steady, '/modules/stock', { method: 'DELETE' });
      expect(tenantOp.status).toBe(409);
      expect(tenantOp.body.code).toBe('OPERATION_IN_PROGRESS');
      const locks = await tp.api('/rings/locks', { token: owner.token });
      expect(locks.body.locks).toEqual([expect.objectContaining({ key: 'ring:stable:stock', operation_id: id })]);

      // Another module in the same ring is not held up, and its release survives the held one's.
      const shelf = await tp.api('/rings/stable/promote', { token: owner.token, body: { module: 'shelf', version: '1.0.0', from: 'canary' } });
      expect(shelf.status).toBe(202);
      expect((await tp.platform.rings.operations.wait(shelf.body.operation.id, 60_000)).status).toBe('completed');

      await blocker.query('COMMIT');
      const done = await tp.platform.rings.operations.wait(id, 60_000);
      expect(done.status).toBe('completed');
      const stable = (await tp.api('/rings/stable', { token: owner.token })).body.ring.release;
      expect(stable.modules).toMatchObject({ shelf: '1.0.0', stock: '1.2.0' });
      expect((await tp.api('/rings/locks', { token: owner.token })).body.locks).toEqual([]);
      expect((await inTenant(tp, steady, '/stock/version')).body).toEqual({ version: '1.2.0' });
    });
  });

  test('a lock whose node stopped heartbeating is taken over; a live one is not', async () => {
    const { Operation, Lock } = tp.platform.rings.models;
    const claim = async (heartbeatAt: Date) => {
      const op = await Operation.create({ id: randomUUID(), kind: 'promote', ring: 'beta', alias: 'stock', version: '9.9.9', tenant_id: null, status: 'running', requested_by: { kind: 'system' } });
      await Lock.create({ key: 'ring:beta:stock', operation_id: op.id, ring: 'beta', tenant_id: null, alias: 'stock', heartbeat_at: heartbeatAt });
      return op;
    };
    const live = await claim(new Date());
    const refused = await tp.api('/rings/beta/rollback', { token: owner.token, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.details.operation_id).toBe(live.id);
    await Lock.destroy({ where: { operation_id: live.id } });

    const dead = await claim(new Date(Date.now() - 10 * 60_000));
    const res = await tp.api('/rings/beta/rollback?wait=true', { token: owner.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.operation.result).toMatchObject({ changes: [{ alias: 'stock', from: '2.0.0', to: '1.1.0' }] });
    await dead.reload();
    expect(dead.status).toBe('failed');
    expect(dead.error).toMatchObject({ code: 'OPERATION_ABANDONED' });
  });

  test('re-publishing a version is refused', async () => {
    const res = await publish(tp, owner.token, 'stock@1.1.0');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('VERSION_EXISTS');
  });
});
