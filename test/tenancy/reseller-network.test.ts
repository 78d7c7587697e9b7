import { startTestPlatform, addMember, type TestPlatform } from '../support/test-platform';
import { TenantNetwork } from '../../core/kernel/tenancy/tenant-network';
import { apply, approve } from './support';

/**
 * Spec 3 (reseller network; Limits: max_chain_depth 10; Authentication 1: X-Effective-Tenant) and
 * spec 1 (Tenant onboarding: POST /reseller-register/apply): where a tenant sits in the chain, who
 * may list and suspend sub-resellers, and who may switch context to whom.
 */
describe('spec 3 reseller network: the chain of tenants', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const asRoot = { token: '', tenant: 'acme' };
  let eastToken = '';
  const link = (id: string) => new TenantNetwork(tp.platform.central).link(id);
  const createUnder = (name: string, parent?: string) => tp.api('/admin/tenants', { ...asRoot, body: { name, alias: name, ...(parent ? { parent_tenant: parent } : {}) } });

  beforeAll(async () => {
    tp = await startTestPlatform({ RESELLER_SIGNUP: 'true' });
    owner = await tp.install('acme');
    asRoot.token = owner.token;
  }, 120_000);
  afterAll(() => tp.close());

  test('the install tenant is level 0; apply places the new tenant under parent_tenant given by alias or id once that tenant approves', async () => {
    expect(await link(owner.tenantId)).toEqual({ tenant_id: owner.tenantId, parent_id: null, level: 0, status: 'active' });
    const east = await apply(tp, 'east', { parent_tenant: 'ACME' });
    expect(east.status).toBe(201);
    eastToken = east.body.token;
    expect(await link(east.body.tenant.id)).toBeUndefined();
    await approve(tp, asRoot, east.body.tenant.id);
    expect(await link(east.body.tenant.id)).toMatchObject({ parent_id: owner.tenantId, level: 1, status: 'active' });
    const eastA = await apply(tp, 'easta', { parent_tenant: east.body.tenant.id });
    expect(eastA.status).toBe(201);
    await approve(tp, { token: eastToken, tenant: 'east' }, eastA.body.tenant.id);
    expect(await link(eastA.body.tenant.id)).toMatchObject({ parent_id: east.body.tenant.id, level: 2 });
  });

  test('apply with an unknown parent_tenant is 422 with the field error, and makes nothing', async () => {
    const res = await apply(tp, 'ghost', { parent_tenant: 'no-such-tenant', password_confirmation: 'different-horse' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
    expect(res.body.errors.parent_tenant).toEqual(['The selected parent tenant does not exist.']);
    expect(res.body.errors.password_confirmation).toBeDefined(); // every problem at once
    expect(await tp.platform.tenants.resolve('ghost')).toBeUndefined();
  });

  test('Limits max_chain_depth 10: level 10 takes no sub-reseller (apply and admin), also when many ask at once', async () => {
    let parent = owner.tenantId;
    const chain: string[] = [];
    for (let level = 1; level <= 9; level++) {
      const made = await createUnder(`deep${level}`, parent);
      expect(made.status).toBe(201);
      parent = made.body.tenant.id;
      chain.push(parent);
    }
    // Five at once under level 9: each lands at level 10.
    const last = await Promise.all([1, 2, 3, 4, 5].map((i) => createUnder(`deep10-${i}`, 'deep9')));
    expect(last.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    for (const r of last) expect((await link(r.body.tenant.id))?.level).toBe(10);
    // Five at once under a level-10 tenant: all refused, none made.
    const tooDeep = await Promise.all([1, 2, 3, 4, 5].map((i) => createUnder(`deep11-${i}`, 'deep10-1')));
    expect(tooDeep.map((r) => r.status)).toEqual([422, 422, 422, 422, 422]);
    expect(tooDeep[0].body.errors.parent_tenant[0]).toMatch(/level 10.*at most 10 levels/);
    const applied = await apply(tp, 'deep11', { parent_tenant: 'deep10-2' });
    expect(applied.status).toBe(422);
    expect(applied.body.errors.parent_tenant).toBeDefined();
    for (const i of [1, 2, 3, 4, 5]) expect(await tp.platform.tenants.resolve(`deep11-${i}`)).toBeUndefined();
  });

  test('the database itself refuses a link deeper than 10, a second level-0 tenant, and a tenant as its own parent', async () => {
    const q = (sql: string) => tp.platform.central.sequelize.query(sql);
    const deep10 = (await tp.platform.tenants.resolve('deep10-3'))!.id;
    const loner = await tp.platform.tenants.create({ name: 'Loner', alias: 'loner' });
    const refusedBy = (constraint: string) => ({ original: expect.objectContaining({ constraint }) });
    await expect(q(`INSERT INTO tenant_links (tenant_id, parent_id, level) VALUES ('${loner.id}', '${deep10}', 11)`)).rejects.toMatchObject(refusedBy('tenant_links_level_range'));
    await expect(q(`INSERT INTO tenant_links (tenant_id, parent_id, level) VALUES ('${loner.id}', NULL, 0)`)).rejects.toMatchObject(refusedBy('tenant_links_one_root'));
    await expect(q(`INSERT INTO tenant_links (tenant_id, parent_id, level) VALUES ('${loner.id}', '${loner.id}', 1)`)).rejects.toMatchObject(refusedBy('tenant_links_not_own_parent'));
    // And the network's own insert checks the parent's level in the same transaction.
    await expect(
      tp.platform.central.sequelize.transaction((t) => new TenantNetwork(tp.platform.central).addChild(loner.id, deep10, t)),
    ).rejects.toMatchObject({ status: 422, errors: { parent_tenant: [expect.stringMatching(/at most 10 levels/)] } });
  });

  test('a parent lists its sub-resellers, direct or the whole subtree, a page at a time; permission reseller.sub_resellers.view', async () => {
    const direct = await tp.api('/reseller/sub-resellers?per_page=1', asRoot);
    expect(direct.status).toBe(200);
    expect(direct.body.pagination).toEqual({ current_page: 1, last_page: 2, per_page: 1, total: 2 }); // east and deep1; loner is outside the chain
    expect(direct.body.sub_resellers).toEqual([expect.objectContaining({ alias: 'east', level: 1, status: 'active', parent_tenant_id: owner.tenantId, tenant_status: 'active' })]);
    const page2 = await tp.api('/reseller/sub-resellers?per_page=1&page=2', asRoot);
    expect(page2.body.sub_resellers.map((s: { alias: string }) => s.alias)).toEqual(['deep1']);
    const subtree = await tp.api('/reseller/sub-resellers?scope=subtree&per_page=100', asRoot);
    expect(subtree.body.pagination.total).toBe(2 + 1 + 8 + 5); // east and deep1, easta, deep2..deep9, deep10-1..5
    expect(subtree.body.sub_resellers.at(-1).level).toBe(10);
    const bad = await tp.api('/reseller/sub-resellers?scope=everything&per_page=500', asRoot);
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('VALIDATION_FAILED'); // reseller shape (spec 3, Errors): {error, code, details}
    expect(Object.keys(bad.body.details.errors).sort()).toEqual(['per_page', 'scope']);

    const member = await addMember(tp, owner.token, 'acme', { email: 'clerk@acme.example' });
    const denied = await tp.api('/reseller/sub-resellers', { token: member.token, tenant: 'acme' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'reseller.sub_resellers.view' } });
    expect(denied.body.error).toBeDefined(); // the reseller error shape {error, code, details}
  });

  test('only the direct parent suspends and reactivates; anything else is 404 in the reseller shape', async () => {
    const east = await tp.platform.tenants.resolve('east');
    const notMine = await tp.api('/reseller/sub-resellers/easta/suspend', { ...asRoot, body: {} }); // a grandchild of acme
    expect(notMine.status).toBe(404);
    expect(notMine.body).toMatchObject({ code: 'NOT_FOUND', details: { sub_reseller_id: 'easta' } });
    const done = await tp.api('/reseller/sub-resellers/east/suspend', { ...asRoot, body: {} });
    expect(done.status).toBe(200);
    expect(done.body.sub_reseller).toMatchObject({ id: east!.id, status: 'suspended' });
    const listed = await tp.api('/reseller/sub-resellers?status=suspended', asRoot);
    expect(listed.body.sub_resellers.map((s: { id: string }) => s.id)).toEqual([east!.id]);
    expect((await tp.api('/reseller/sub-resellers/east/reactivate', { ...asRoot, body: {} })).body.sub_reseller.status).toBe('active');
  });

  test('spec 3 Limits: reseller write endpoints allow 30 requests a minute per user, then 429 in the reseller shape', async () => {
    const admin = await addMember(tp, owner.token, 'acme', { email: 'ops@acme.example', role: 'admin' }); // a fresh user: their own budget
    const asAdmin = { token: admin.token, tenant: 'acme', body: {} };
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await tp.api('/reseller/sub-resellers/deep1/reactivate', asAdmin)).status);
    expect(new Set(statuses)).toEqual(new Set([200]));
    const over = await tp.api('/reseller/sub-resellers/deep1/reactivate', asAdmin);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after: expect.any(Number) } });
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect((await tp.api('/reseller/sub-resellers', { token: admin.token, tenant: 'acme' })).status).toBe(200); // reads count apart
  });

  test('spec 3 Authentication 1: a super admin switches to any tenant of the network; a parent admin, and any switch outside the network, is UNAUTHORIZED_CONTEXT', async () => {
    const deepest = await tp.api('/auth/me', { ...asRoot, headers: { 'x-effective-tenant': 'deep10-4' } });
    expect(deepest.status).toBe(200);
    expect(deepest.body.tenant.id).toBe((await tp.platform.tenants.resolve('deep10-4'))!.id);

    // loner was made outside every onboarding path: it has no place in the chain.
    const outside = await tp.api('/auth/me', { ...asRoot, headers: { 'x-effective-tenant': 'loner' } });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: 'loner' } });

    const parentAdmin = await tp.api('/auth/me', { token: eastToken, tenant: 'east', headers: { 'x-effective-tenant': 'easta' } });
    expect(parentAdmin.status).toBe(403);
    expect(parentAdmin.body).toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: 'easta' } });
  });
});
