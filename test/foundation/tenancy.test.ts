import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';
import { eventually } from '../support/eventually';
import { describeWithRedis, startTwoPlatforms, type TwoNodes } from '../support/two-nodes';

/** Whether the platform knows the tenant: an unknown one is 404 before the missing token is 401. */
const knows = async (tp: TestPlatform, tenant: string) => (await tp.api('/auth/me', { tenant })).status !== 404;

describe('spec 1: Tenant onboarding and routing', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
  });
  afterAll(() => tp.close());

  test('install creates a tenant with an 8-character id and a lowercase alias, and is refused once done', async () => {
    expect(owner.tenantId).toMatch(/^[a-z][a-z0-9]{7}$/);
    const domains = await tp.platform.central.models.Domain.findAll({ where: { tenant_id: owner.tenantId } });
    expect(domains.map((d) => d.domain).sort()).toEqual([owner.tenantId, 'acme'].sort());
    const again = await tp.api('/install/owner', {
      body: { organization_name: 'Other', organization_slug: 'other', name: 'X', email: 'x@other.example', password: 'long-enough-pw' },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/already installed/);
  });

  test('each tenant gets its own database named tenant<id>', async () => {
    const rows = await tp.platform.central.sequelize.query(`SELECT datname FROM pg_database WHERE datname = 'tenant${owner.tenantId}'`, { plain: true });
    expect(rows).toEqual({ datname: `tenant${owner.tenantId}` });
  });

  test.each([
    ['X-Tenant with the alias', { 'x-tenant': 'acme' }],
    ['X-Tenant with the alias in upper case', { 'x-tenant': 'ACME' }],
    ['Host subdomain alias', { host: 'acme.mandi.test' }],
    ['Host subdomain in mixed case with a port', { host: 'AcMe.Mandi.Test:8080' }],
  ])('resolves the tenant by %s', async (_name, headers) => {
    const res = await tp.api('/auth/me', { token: owner.token, headers });
    expect(res.status).toBe(200);
    expect(res.body.tenant.id).toBe(owner.tenantId);
  });

  test('resolves the tenant by its id, by header and by subdomain', async () => {
    const byHeader = await tp.api('/auth/me', { token: owner.token, tenant: owner.tenantId.toUpperCase() });
    const byHost = await tp.api('/auth/me', { token: owner.token, headers: { host: `${owner.tenantId}.mandi.test` } });
    expect([byHeader.status, byHost.status]).toEqual([200, 200]);
    expect(byHost.body.tenant.id).toBe(owner.tenantId);
  });

  test('an unknown tenant is a 404 JSON error', async () => {
    const res = await tp.api('/auth/me', { token: owner.token, tenant: 'nosuchco' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('nosuchco') });
  });

  test('a tenant answers at its alias right after creation, also where the alias was asked for just before', async () => {
    expect(await knows(tp, 'fresh-co')).toBe(false);
    expect(await knows(tp, 'FRESH-CO')).toBe(false);
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Fresh Co', alias: 'fresh-co' } });
    expect(made.status).toBe(201);
    expect(await knows(tp, 'fresh-co')).toBe(true);
    expect((await tp.api('/auth/me', { headers: { host: 'fresh-co.mandi.test' } })).status).toBe(401);
  });

  test('super admins create tenants; aliases are validated and unique', async () => {
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Beta Shop', alias: 'Beta-Shop' } });
    expect(made.status).toBe(201);
    expect(made.body.tenant.domains).toContain('beta-shop');
    const dup = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Again', alias: 'BETA-shop' } });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ message: 'The given data was invalid.', errors: { alias: [expect.stringMatching(/taken/)] } });
    const bad = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Bad', alias: 'no spaces!' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.alias).toBeDefined();
  });

  test('a user who is not a member of the tenant gets 403', async () => {
    const member = await addMember(tp, owner.token, 'acme', { email: 'mo@acme.example', role: 'member' });
    // Removing the membership leaves the token valid for the tenant but the user no longer belongs there.
    const removed = await tp.api(`/members/${member.userId}`, { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect(removed.status).toBe(200);
    const res = await tp.api('/auth/me', { token: member.token, tenant: 'acme' });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/not a member/);
  });
});

describeWithRedis('spec 1 Tenant domain: two nodes on one Redis', () => {
  let nodes: TwoNodes<TestPlatform>;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;

  beforeAll(async () => {
    nodes = await startTwoPlatforms();
    owner = await nodes.a.install('acme');
  });
  afterAll(() => nodes?.close());

  test('a tenant created on A answers at once on B, where its alias was asked for just before', async () => {
    expect(await knows(nodes.b, 'second-co')).toBe(false);
    const made = await nodes.a.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Second Co', alias: 'second-co' } });
    expect(made.status).toBe(201);
    // Pub/sub is asynchronous: B drops its "not found" within moments, far inside the cache's 30 s.
    expect(await eventually(() => knows(nodes.b, 'second-co'), Boolean)).toBe(true);
  });
});
