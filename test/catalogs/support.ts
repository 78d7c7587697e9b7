/**
 * Shared by the catalog tests: the kiosk fixture (two real versions, built with the sdk and packed as
 * `mandi module pack` does) published over HTTP, promoted into rings, and installed by tenants of
 * those rings; plus members with chosen permissions.
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { packModule } from '../../sdk/package';
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { inTenant, promoteOk, rawRequest, tenantIn, type ShopTenant } from '../rings/support';

export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

export async function publishFixture(tp: TestPlatform, token: string, name: string): Promise<void> {
  await buildModule(fixture(name));
  const pkg = await packModule(fixture(name), { outDir: await mkdtemp(path.join(os.tmpdir(), 'mandi-pkg-')) });
  const res = await rawRequest(tp, 'POST', '/registry/packages', { token, body: pkg.buffer });
  if (res.status !== 201) throw new Error(`publish ${name} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export interface CatalogWorld {
  tp: TestPlatform;
  owner: Awaited<ReturnType<TestPlatform['install']>>;
  /** kiosk@2.0.0 in canary, kiosk@1.0.0 in stable, both installed; `bare` (stable) has nothing installed. */
  canary: ShopTenant;
  stable: ShopTenant;
  bare: ShopTenant;
}

export async function catalogWorld(env: Record<string, string> = {}): Promise<CatalogWorld> {
  const tp = await startTestPlatform(env);
  const owner = await tp.install('acme');
  await publishFixture(tp, owner.token, 'kiosk@1.0.0');
  await publishFixture(tp, owner.token, 'kiosk@2.0.0');
  await promoteOk(tp, owner.token, 'stable', 'kiosk', '1.0.0');
  await promoteOk(tp, owner.token, 'canary', 'kiosk', '2.0.0');
  const canary = await tenantIn(tp, owner, 'early', 'canary');
  const stable = await tenantIn(tp, owner, 'steady', 'stable');
  const bare = await tenantIn(tp, owner, 'bare', 'stable');
  for (const t of [canary, stable]) {
    const res = await inTenant(tp, t, '/modules/kiosk/install', { body: {} });
    if (res.status !== 201) throw new Error(`install failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { tp, owner, canary, stable, bare };
}

/** A member of the tenant holding exactly `permissions` (through a role made for them). */
export async function memberWith(tp: TestPlatform, tenant: ShopTenant, name: string, permissions: string[]): Promise<ShopTenant> {
  const role = await inTenant(tp, tenant, '/roles', { body: { name, permissions } });
  if (role.status !== 201) throw new Error(`role failed: ${role.status} ${JSON.stringify(role.body)}`);
  const { token } = await addMember(tp, tenant.token, tenant.alias, { email: `${name}@${tenant.alias}.example`, role: name });
  return { ...tenant, token };
}

export { inTenant, type ShopTenant };
