/**
 * A platform with a small reseller network, each tenant running the relay fixture module:
 *
 *   acme (level 0, the install's tenant)
 *   ├── north (applied with parent_tenant "acme", approved by acme)
 *   │   └── northa (applied with parent_tenant = north's id, approved by north)
 *   └── south (applied without parent_tenant, so under acme, approved by acme)
 */
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { buildModule } from '../../sdk/build/build-module';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

export interface Network {
  tp: TestPlatform;
  owner: Awaited<ReturnType<TestPlatform['install']>>;
  /** alias → tenant id */
  ids: Record<'acme' | 'north' | 'northa' | 'south', string>;
  /** alias → the owner's token in that tenant (acme's is the super admin's) */
  tokens: Record<'acme' | 'north' | 'northa' | 'south', string>;
  /** Runs a relay operation in a tenant as the platform would (core caller), e.g. relay.send. */
  run(tenantId: string, op: string, input?: unknown): Promise<unknown>;
}

export const fixtureDir = (...parts: string[]) => path.join(__dirname, 'fixtures', ...parts);

export async function addModule(tp: TestPlatform, dir: string, build = true): Promise<void> {
  if (build) await buildModule(dir);
  tp.platform.kernel.source.add(await loadModuleFromDir(dir));
}

/** POST /reseller-register/apply; returns the response. */
export function apply(tp: TestPlatform, alias: string, extra: Record<string, unknown> = {}) {
  return tp.api('/reseller-register/apply', {
    body: {
      organization_name: `${alias} Traders`,
      name: `${alias} Owner`,
      email: `owner@${alias}.example`,
      password: 'correct-horse-battery',
      password_confirmation: 'correct-horse-battery',
      preferred_domain: alias,
      ...extra,
    },
  });
}

/** The parent's admin approves an application (POST /reseller/applications/{id}/approve). */
export async function approve(tp: TestPlatform, parent: { token: string; tenant: string }, applicantId: string): Promise<void> {
  const res = await tp.api(`/reseller/applications/${applicantId}/approve`, { ...parent, body: {} });
  if (res.status !== 200) throw new Error(`approve ${applicantId}: ${res.status} ${JSON.stringify(res.body)}`);
}

/** An application the parent approves at once: the tenant is then linked under it. */
export async function applyApproved(tp: TestPlatform, alias: string, parent: { token: string; tenant: string }, extra: Record<string, unknown> = {}) {
  const res = await apply(tp, alias, extra);
  if (res.status !== 201) throw new Error(`apply ${alias}: ${res.status} ${JSON.stringify(res.body)}`);
  await approve(tp, parent, res.body.tenant.id);
  return res;
}

export async function startNetwork(): Promise<Network> {
  const tp = await startTestPlatform({ RESELLER_SIGNUP: 'true' });
  const owner = await tp.install('acme');
  const asAcme = { token: owner.token, tenant: 'acme' };
  const north = await applyApproved(tp, 'north', asAcme, { parent_tenant: 'acme' });
  const northa = await applyApproved(tp, 'northa', { token: north.body.token, tenant: north.body.tenant.id }, { parent_tenant: north.body.tenant.id });
  const south = await applyApproved(tp, 'south', asAcme);
  const ids = { acme: owner.tenantId, north: north.body.tenant.id, northa: northa.body.tenant.id, south: south.body.tenant.id };
  const tokens = { acme: owner.token, north: north.body.token, northa: northa.body.token, south: south.body.token };
  await addModule(tp, fixtureDir('relay'));
  for (const id of Object.values(ids)) await tp.platform.kernel.modules.install(id, 'relay');
  const run = (tenantId: string, op: string, input: unknown = {}) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
  return { tp, owner, ids, tokens, run };
}

/** The audit rows of a tenant for an action, once the batched writer has flushed. */
export async function auditRows(tp: TestPlatform, tenantId: string, action: string) {
  await tp.platform.kernel.audit.flush();
  const [rows] = await tp.platform.central.sequelize.query(
    'SELECT actor_type, actor_id, action, target, status, details FROM audit_log WHERE tenant_id = $1 AND action = $2 ORDER BY id',
    { bind: [tenantId, action] },
  );
  return rows as Array<{ actor_type: string; actor_id: string; action: string; target: string; status: string; details: Record<string, unknown> }>;
}
