/**
 * With RESELLER_SIGNUP=true anyone may apply under any tenant (POST /reseller-register/apply with
 * parent_tenant). The application must not put the applicant in the parent's chain until the
 * parent's admin approves it: before that, no related-tenant call works in either direction, the
 * applicant is not in the parent's tree, and neither the applicant nor another tenant's admin can
 * approve it. Real platform over HTTP, real sandbox (the relay fixture), real PostgreSQL.
 */
import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { addModule, apply, fixtureDir } from '../tenancy/support';

describe('spec 3 reseller network: a reseller application under a parent waits for that parent’s approval', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  const ids: Record<string, string> = {};
  const tokens: Record<string, string> = {};
  const applications: Record<string, unknown> = {};

  const run = (tenantId: string, op: string, input: unknown = {}) => tp.platform.kernel.bus.call({ kind: 'core' }, op, input, { tenantId, user: null });
  const relay = (from: string, to: string) => run(ids[from]!, 'relay.send', { tenant: ids[to], note: `${from} to ${to}` });
  const as = (who: string, tenant = who) => ({ token: tokens[who]!, tenant });
  const subResellerIds = async (who: string) =>
    ((await tp.api('/reseller/sub-resellers?scope=subtree', as(who))).body.sub_resellers as Array<{ id: string }>).map((s) => s.id);
  const networkTree = async (who: string) =>
    ((await tp.api('/reseller-network/sub-resellers?scope=subtree', as(who))).body.sub_resellers as Array<{ id: string }>).map((s) => s.id);

  beforeAll(async () => {
    tp = await startTestPlatform({ RESELLER_SIGNUP: 'true' });
    owner = await tp.install('acme');
    ids.acme = owner.tenantId;
    tokens.acme = owner.token;
    for (const alias of ['victim', 'other']) {
      const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: alias, alias } });
      expect(made.status).toBe(201);
      ids[alias] = made.body.tenant.id;
      tokens[alias] = (await addMember(tp, owner.token, alias, { email: `admin@${alias}.example`, role: 'admin' }, 'acme')).token;
    }
    for (const alias of ['mallory', 'trudy']) {
      const applied = await apply(tp, alias, { parent_tenant: 'victim' });
      expect(applied.status).toBe(201);
      applications[alias] = applied.body.application;
      ids[alias] = applied.body.tenant.id;
      tokens[alias] = applied.body.token;
    }
    await addModule(tp, fixtureDir('relay'));
    await addModule(tp, fixtureDir('..', '..', '..', 'modules', 'reseller-network'));
    for (const id of Object.values(ids)) {
      await tp.platform.kernel.modules.install(id, 'relay');
      await tp.platform.kernel.modules.install(id, 'reseller_network');
    }
  }, 180_000);
  afterAll(() => tp?.close());

  test('before approval the applicant cannot call into the parent, nor the parent (or its parent) into it, and nothing runs on either side', async () => {
    await expect(relay('mallory', 'victim')).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', status: 403 });
    await expect(relay('victim', 'mallory')).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', status: 403 });
    await expect(relay('acme', 'mallory')).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', status: 403 });
    expect(await run(ids.victim!, 'relay.inbox')).toEqual([]);
    expect(await run(ids.mallory!, 'relay.inbox')).toEqual([]);
    expect(await tp.platform.tenants.network.link(ids.mallory!)).toBeUndefined();
    expect(applications.mallory).toEqual({ status: 'pending', parent_tenant: { id: ids.victim, name: 'victim' } });
  });

  test('before approval the applicant is not in the parent’s network tree (core listing and the reseller_network module), and sees itself outside the chain', async () => {
    expect(await subResellerIds('victim')).not.toContain(ids.mallory);
    expect(await networkTree('victim')).not.toContain(ids.mallory);
    expect(await subResellerIds('acme')).not.toContain(ids.mallory);
    const mine = await tp.api('/reseller-network/me', as('mallory'));
    expect(mine.body.parent).toBeNull();
  });

  test('the applicant cannot approve itself, in its own tenant or by naming the parent, and another tenant’s admin cannot approve it', async () => {
    const own = await tp.api(`/reseller/applications/${ids.mallory}/approve`, { ...as('mallory'), body: {} });
    expect(own).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', error: expect.any(String), details: { application_id: ids.mallory } } });
    const asParent = await tp.api(`/reseller/applications/${ids.mallory}/approve`, { ...as('mallory', 'victim'), body: {} });
    expect([401, 403]).toContain(asParent.status);
    const stranger = await tp.api(`/reseller/applications/${ids.mallory}/approve`, { ...as('other'), body: {} });
    expect(stranger).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    await expect(relay('mallory', 'victim')).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    expect((await tp.api('/reseller/application', as('mallory'))).body.application).toMatchObject({ status: 'pending' });
  });

  test('the parent’s admin lists its pending applications (permission reseller.applications.manage); a member without it may not', async () => {
    const listed = await tp.api('/reseller/applications', as('victim'));
    expect(listed.status).toBe(200);
    expect(listed.body.applications.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([
      [ids.mallory, 'pending'],
      [ids.trudy, 'pending'],
    ]);
    expect(listed.body.applications[0]).toMatchObject({ name: 'mallory Traders', alias: 'mallory', email: 'owner@mallory.example', applied_at: expect.any(String) });
    expect((await tp.api('/reseller/applications', as('other'))).body.applications).toEqual([]);
    const clerk = await addMember(tp, owner.token, 'victim', { email: 'clerk@victim.example' }, 'acme');
    const denied = await tp.api('/reseller/applications', { token: clerk.token, tenant: 'victim' });
    expect(denied).toMatchObject({ status: 403, body: { code: 'FORBIDDEN', details: { permission: 'reseller.applications.manage' } } });
  });

  test('a rejection leaves no link, records the reason, which the applicant sees, and cannot be turned into an approval', async () => {
    const noReason = await tp.api(`/reseller/applications/${ids.trudy}/reject`, { ...as('victim'), body: {} });
    expect(noReason).toMatchObject({ status: 422, body: { code: 'VALIDATION_FAILED', error: expect.any(String), details: { errors: { reason: [expect.any(String)] } } } });
    const rejected = await tp.api(`/reseller/applications/${ids.trudy}/reject`, { ...as('victim'), body: { reason: 'We do not know this company.' } });
    expect(rejected).toMatchObject({ status: 200, body: { application: { id: ids.trudy, status: 'rejected', reason: 'We do not know this company.' } } });
    const status = await tp.api('/reseller/application', as('trudy'));
    expect(status.body.application).toMatchObject({ status: 'rejected', reason: 'We do not know this company.', parent_tenant: { id: ids.victim }, decided_at: expect.any(String) });
    const again = await tp.api(`/reseller/applications/${ids.trudy}/approve`, { ...as('victim'), body: {} });
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    await expect(relay('trudy', 'victim')).rejects.toMatchObject({ code: 'UNAUTHORIZED_CONTEXT' });
    expect(await subResellerIds('victim')).not.toContain(ids.trudy);
  });

  test('after the parent’s approval the link exists one level under it, related calls work both ways, and the tree shows it', async () => {
    const approved = await tp.api(`/reseller/applications/${ids.mallory}/approve`, { ...as('victim'), body: {} });
    expect(approved).toMatchObject({ status: 200, body: { application: { id: ids.mallory, status: 'approved' } } });
    expect(await tp.platform.tenants.network.link(ids.mallory!)).toMatchObject({ parent_id: ids.victim, level: 2, status: 'active' });
    await relay('mallory', 'victim');
    await relay('victim', 'mallory');
    expect(await run(ids.victim!, 'relay.inbox')).toEqual([expect.objectContaining({ from_tenant: ids.mallory, note: 'mallory to victim' })]);
    expect(await run(ids.mallory!, 'relay.inbox')).toEqual([expect.objectContaining({ from_tenant: ids.victim, note: 'victim to mallory' })]);
    expect(await subResellerIds('victim')).toContain(ids.mallory);
    expect(await networkTree('victim')).toContain(ids.mallory);
    expect((await tp.api('/reseller/application', as('mallory'))).body.application).toMatchObject({ status: 'approved' });
    expect((await tp.api(`/reseller/applications/${ids.mallory}/approve`, { ...as('victim'), body: {} })).status).toBe(409);
  });
});
