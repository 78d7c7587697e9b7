import { addMember, startTestPlatform, type TestPlatform } from '../support/test-platform';

describe('spec 1 Authentication: bearer tokens, tenants and permissions', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let otherTenant: string;

  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    const made = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    otherTenant = made.body.tenant.id;
  });
  afterAll(() => tp.close());

  test('login returns an opaque token that authenticates /auth/me', async () => {
    const login = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'ADA@acme.example', password: 'correct-horse-battery' } });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^mnd_[0-9A-Za-z]{40}$/);
    const me = await tp.api('/auth/me', { token: login.body.token, tenant: 'acme' });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'ada@acme.example', email_verified: false, is_super_admin: true, role: 'owner', modules: [] });
    // Tokens are stored hashed: the plain token appears nowhere in the table.
    const stored = await tp.platform.central.sequelize.query(`SELECT count(*)::int AS n FROM access_tokens WHERE token_hash = '${login.body.token}'`, { plain: true });
    expect(stored).toEqual({ n: 0 });
  });

  test('wrong password and unknown user get the same 401', async () => {
    const wrong = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'ada@acme.example', password: 'nope-nope-nope' } });
    const unknown = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'ghost@acme.example', password: 'nope-nope-nope' } });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  test('login validates its body with the 422 shape', async () => {
    const res = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'not-an-email' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'password']);
  });

  test('a token of tenant A is refused on tenant B', async () => {
    const res = await tp.api('/auth/me', { token: owner.token, tenant: 'globex' });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/not issued for this tenant/);
  });

  test('unknown, malformed and missing tokens are refused', async () => {
    const unknown = await tp.api('/auth/me', { token: 'mnd_' + 'A'.repeat(40), tenant: 'acme' });
    const malformed = await tp.api('/auth/me', { token: 'hello', tenant: 'acme' });
    const missing = await tp.api('/auth/me', { tenant: 'acme' });
    expect([unknown.status, malformed.status, missing.status]).toEqual([401, 401, 401]);
  });

  test('a revoked token (logout) is refused at once', async () => {
    const login = await tp.api('/auth/login', { tenant: 'acme', body: { email: 'ada@acme.example', password: 'correct-horse-battery' } });
    expect((await tp.api('/auth/me', { token: login.body.token, tenant: 'acme' })).status).toBe(200);
    expect((await tp.api('/auth/logout', { method: 'POST', token: login.body.token, tenant: 'acme' })).status).toBe(200);
    expect((await tp.api('/auth/me', { token: login.body.token, tenant: 'acme' })).status).toBe(401);
  });

  test('permission checks: a member without members.manage is refused, a role that grants it is allowed', async () => {
    const plain = await addMember(tp, owner.token, 'acme', { email: 'pat@acme.example' });
    const denied = await tp.api('/members', { token: plain.token, tenant: 'acme' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'FORBIDDEN', details: { permission: 'members.manage' } });

    const role = await tp.api('/roles', { token: owner.token, tenant: 'acme', body: { name: 'staff-manager', permissions: ['members.manage'] } });
    expect(role.status).toBe(201);
    const manager = await addMember(tp, owner.token, 'acme', { email: 'mia@acme.example', role: 'staff-manager' });
    const allowed = await tp.api('/members', { token: manager.token, tenant: 'acme' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.members.map((m: { user: { email: string } }) => m.user.email)).toContain('pat@acme.example');

    // Changing the role takes effect on the next request (cached memberships are dropped).
    await tp.api(`/members/${manager.userId}`, { method: 'PATCH', token: owner.token, tenant: 'acme', body: { role: 'member' } });
    expect((await tp.api('/members', { token: manager.token, tenant: 'acme' })).status).toBe(403);
  });

  test('spec 3 Authentication 1: X-Effective-Tenant switches a super admin, and refuses others with UNAUTHORIZED_CONTEXT', async () => {
    const switched = await tp.api('/auth/me', { token: owner.token, tenant: 'acme', headers: { 'x-effective-tenant': otherTenant } });
    expect(switched.status).toBe(200);
    expect(switched.body.tenant.id).toBe(otherTenant);

    const plain = await addMember(tp, owner.token, 'acme', { email: 'sam@acme.example' });
    const refused = await tp.api('/auth/me', { token: plain.token, tenant: 'acme', headers: { 'x-effective-tenant': 'globex' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: 'globex' } });
  });

  test('the activity log route reads from the tenant database', async () => {
    await tp.platform.tenantDbs.with(owner.tenantId, (db) =>
      db.query(`INSERT INTO activity_log (user_id, action) VALUES (${owner.userId}, 'profile_updated'), (${owner.userId}, 'password_changed')`),
    );
    const res = await tp.api('/activity-log?limit=1', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(res.body.activities).toHaveLength(1);
    expect(res.body.activities[0].action).toBe('password_changed');
    const next = await tp.api(`/activity-log?limit=1&before=${res.body.next_before}`, { token: owner.token, tenant: 'acme' });
    expect(next.body.activities[0].action).toBe('profile_updated');
  });
});
