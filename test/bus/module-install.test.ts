import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addFixtureModules, installVia } from './support';

function moduleDir(manifest: object): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-mod-'));
  fs.writeFileSync(path.join(dir, 'module.json'), JSON.stringify(manifest));
  fs.mkdirSync(path.join(dir, 'dist'));
  fs.writeFileSync(path.join(dir, 'dist/index.js'), 'var __mandi_module = { operations: {} };');
  return dir;
}

describe('issue 3 items 1-2: manifests, platform range and dependencies are checked before anything runs', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await addFixtureModules(tp, ['catalog', 'reports']);
  }, 120_000);
  afterAll(() => tp.close());

  test('a bad manifest is refused with every error named by JSON pointer', async () => {
    const dir = moduleDir({ name: 'Bad Name', version: 'one', compatibility: {}, api: { provides: [{ name: 'other.get' }] } });
    const err = await loadModuleFromDir(dir).catch((e) => e);
    expect(err.name).toBe('ManifestError');
    for (const pointer of ['/name', '/version', '/compatibility', '/api/provides/0']) expect(err.message).toContain(pointer);
  });

  test('spec 1 Versioning 2: a module built for another platform major is refused with what to install instead', async () => {
    const dir = moduleDir({ name: 'future', version: '1.0.0', compatibility: { platform: '^3.0.0' }, main: 'dist/index.js' });
    const err = await loadModuleFromDir(dir).catch((e) => e);
    expect(err).toMatchObject({ code: 'MODULE_INCOMPATIBLE', status: 422 });
    expect(err.message).toMatch(/requires platform \^3\.0\.0 but this core is 2\.\d+\.\d+.*platform 2\.x/);
  });

  test('installing a module whose dependency is missing is refused with the reason', async () => {
    const res = await tp.api('/modules/reports/install', { token: owner.token, tenant: 'acme', body: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('MODULE_DEPENDENCIES');
    expect(res.body.message).toMatch(/catalog/);
    const modules = await tp.api('/modules', { token: owner.token, tenant: 'acme' });
    expect(modules.body.installed).toEqual([]);
  });

  test('with the dependency installed it works; the dependency cannot then be removed', async () => {
    await installVia(tp, owner.token, 'acme', 'catalog');
    await installVia(tp, owner.token, 'acme', 'reports');
    const removing = await tp.api('/modules/catalog', { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect(removing.status).toBe(409);
    expect(removing.body).toMatchObject({ code: 'MODULE_IN_USE', details: { dependents: ['reports'] } });
  });

  test('DESIGN Bus, Events: one installed module per event prefix, so no module can forge another\'s events', async () => {
    const withNamespace = async (name: string, namespace: string | string[] = 'stock') => {
      const manifest = { name, version: '1.0.0', compatibility: { platform: '^2.0.0' }, main: 'dist/index.js', events: { namespace, publishes: ['stock.changed'] } };
      tp.platform.kernel.source.add(await loadModuleFromDir(moduleDir(manifest)));
    };
    await withNamespace('inventory');
    await withNamespace('forger');
    await installVia(tp, owner.token, 'acme', 'inventory');
    const res = await tp.api('/modules/forger/install', { token: owner.token, tenant: 'acme', body: {} });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'MODULE_DEPENDENCIES' });
    expect(res.body.message).toContain('publishes events as "stock.*", but that prefix belongs to module inventory');
    const modules = await tp.api('/modules', { token: owner.token, tenant: 'acme' });
    expect(modules.body.installed.map((m: { alias: string }) => m.alias)).not.toContain('forger');
    // Hiding the taken prefix behind an own one in a list changes nothing.
    await withNamespace('listforger', ['listed', 'stock']);
    const listed = await tp.api('/modules/listforger/install', { token: owner.token, tenant: 'acme', body: {} });
    expect(listed.status).toBe(422);
    expect(listed.body.message).toContain('publishes events as "stock.*", but that prefix belongs to module inventory');
  });

  test('uninstall keeps data unless purged', async () => {
    await tp.platform.kernel.bus.call({ kind: 'core' }, 'catalog.add_item', { sku: 'KEEP-1', price: '1.00' }, { tenantId: owner.tenantId, user: null });
    expect((await tp.api('/modules/reports', { method: 'DELETE', token: owner.token, tenant: 'acme' })).status).toBe(200);
    expect((await tp.api('/modules/catalog', { method: 'DELETE', token: owner.token, tenant: 'acme' })).status).toBe(200);
    await installVia(tp, owner.token, 'acme', 'catalog');
    await expect(
      tp.platform.kernel.bus.call({ kind: 'core' }, 'catalog.get_item', { sku: 'KEEP-1' }, { tenantId: owner.tenantId, user: null }),
    ).resolves.toMatchObject({ sku: 'KEEP-1' });
    expect((await tp.api('/modules/catalog?purge=true', { method: 'DELETE', token: owner.token, tenant: 'acme' })).status).toBe(200);
    await installVia(tp, owner.token, 'acme', 'catalog');
    await expect(
      tp.platform.kernel.bus.call({ kind: 'core' }, 'catalog.get_item', { sku: 'KEEP-1' }, { tenantId: owner.tenantId, user: null }),
    ).rejects.toMatchObject({ code: 'ITEM_NOT_FOUND' });
  });
});
