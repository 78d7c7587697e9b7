/**
 * Spec 1 accounts checked from outside, field by field: the Profile, Session, Login history record,
 * statistics and pagination objects carry exactly the spec's fields with the spec's types; the
 * endpoints answer the spec's bodies; and a verification mail goes out on every registration,
 * including a user who accepts an invitation to a tenant (the spec's "invitation acceptance").
 */
import { createHash } from 'node:crypto';
import { addMember } from '../support/test-platform';
import { follow, startAccountsPlatform, verificationLink, type AccountsPlatform } from '../accounts/support/accounts-platform';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const keys = (o: object) => Object.keys(o).sort();

let ap: AccountsPlatform;
let owner: Awaited<ReturnType<AccountsPlatform['tp']['install']>>;
const login = (email: string, password: string, ip = '203.0.113.10') => ap.api('/auth/login', { tenant: 'acme', ip, body: { email, password } });

beforeAll(async () => {
  ap = await startAccountsPlatform();
  owner = await ap.tp.install('acme');
});
afterAll(() => ap.close());

describe('spec 1: Profile (GET /profile, PATCH /profile, PUT /profile/email, GET /auth/me)', () => {
  test('GET /profile is exactly the Profile object, with the spec types', async () => {
    await login('ada@acme.example', 'correct-horse-battery');
    const res = await ap.api('/profile', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    const p = res.body;
    expect(keys(p)).toEqual(['created_at', 'current_tenant', 'email', 'email_verified', 'id', 'is_super_admin', 'last_login_at', 'last_login_ip', 'name', 'tenants_count']);
    expect(keys(p.current_tenant)).toEqual(['id', 'joined_at', 'last_active_at', 'role', 'status']);
    expect(p).toMatchObject({ id: owner.userId, email_verified: false, is_super_admin: true, last_login_ip: '203.0.113.10', tenants_count: 1 });
    expect([p.created_at, p.last_login_at, p.current_tenant.joined_at, p.current_tenant.last_active_at].every((t: string) => ISO.test(t))).toBe(true);
    expect(p.current_tenant).toMatchObject({ id: owner.tenantId, role: 'owner', status: 'active' });
  });

  test('PATCH /profile answers {message, user: {id, name, email}}; GET /auth/me includes email_verified', async () => {
    const res = await ap.api('/profile', { method: 'PATCH', token: owner.token, tenant: 'acme', body: { name: 'Ada Byron' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), user: { id: owner.userId, name: 'Ada Byron', email: 'ada@acme.example' } });
    const me = await ap.api('/auth/me', { token: owner.token, tenant: 'acme' });
    expect(me.body.email_verified).toBe(false);
  });
});

describe('spec 1: Session and password change', () => {
  test('GET /profile/sessions is {sessions: [Session]}; DELETE of the current one is 422 errors.token; DELETE all is {message, revoked_count}', async () => {
    const other = await login('ada@acme.example', 'correct-horse-battery');
    const list = await ap.api('/profile/sessions', { token: owner.token, tenant: 'acme' });
    expect(keys(list.body)).toEqual(['sessions']);
    for (const s of list.body.sessions) {
      expect(keys(s)).toEqual(['created_at', 'id', 'is_current', 'last_used_at', 'name']);
      expect([typeof s.id, typeof s.name, typeof s.is_current, ISO.test(s.created_at)]).toEqual(['string', 'string', 'boolean', true]);
    }
    const current = list.body.sessions.find((s: { is_current: boolean }) => s.is_current);
    expect(list.body.sessions.filter((s: { is_current: boolean }) => s.is_current)).toHaveLength(1);

    const refused = await ap.api(`/profile/sessions/${current.id}`, { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: 'The given data was invalid.', errors: { token: [expect.stringMatching(/logout/)] } });

    const one = await ap.api(`/profile/sessions/${other.body.token_id}`, { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect([one.status, keys(one.body)]).toEqual([200, ['message']]);
    await login('ada@acme.example', 'correct-horse-battery');
    const others = (await ap.api('/profile/sessions', { token: owner.token, tenant: 'acme' })).body.sessions.length - 1;
    expect(others).toBeGreaterThanOrEqual(1);
    const all = await ap.api('/profile/sessions', { method: 'DELETE', token: owner.token, tenant: 'acme' });
    expect([all.status, all.body]).toEqual([200, { message: expect.any(String), revoked_count: others }]);
    expect((await ap.api('/profile/sessions', { token: owner.token, tenant: 'acme' })).body.sessions).toEqual([expect.objectContaining({ is_current: true })]);
  });

  test('POST /auth/change-password answers {message}; a wrong current password is the validation shape', async () => {
    const wrong = await ap.api('/auth/change-password', { token: owner.token, tenant: 'acme', body: { current_password: 'not-it', password: 'brand-new-secret-9', password_confirmation: 'brand-new-secret-9' } });
    expect([wrong.status, keys(wrong.body.errors)]).toEqual([422, ['current_password']]);
    const ok = await ap.api('/auth/change-password', {
      token: owner.token,
      tenant: 'acme',
      body: { current_password: 'correct-horse-battery', password: 'brand-new-secret-9', password_confirmation: 'brand-new-secret-9' },
    });
    expect([ok.status, keys(ok.body)]).toEqual([200, ['message']]);
  });
});

describe('spec 1: Email verification', () => {
  // The hash is 40 hex digits like the spec's SHA-1 of the email, but an expiry and an HMAC (docs/decisions/accounts.md).
  test('the registration mail links to <app_url>/email/verify/<user_id>/<hash>?tenant=<tenant_id>; following it needs no token', async () => {
    const link = verificationLink(await ap.smtp.waitFor((m) => m.to.includes('ada@acme.example')));
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toMatch(new RegExp(`^${ap.tp.config.appUrl}/email/verify/${owner.userId}/[0-9a-f]{40}$`));
    expect([...url.searchParams.keys()]).toEqual(['tenant']);
    expect(url.searchParams.get('tenant')).toBe(owner.tenantId);
    expect(await follow(link)).toEqual({ status: 200, body: { message: expect.any(String) } });
    expect(await follow(link)).toEqual({ status: 200, body: { message: expect.any(String), already_verified: true } });
    const resend = await ap.api('/profile/email/resend-verification', { method: 'POST', token: owner.token, tenant: 'acme' });
    expect([resend.status, keys(resend.body), resend.body.message]).toEqual([200, ['message'], expect.stringMatching(/already verified/)]);
  });

  test('a user who accepts an invitation to the tenant is a registration: they get the verification mail and the link verifies them', async () => {
    const added = await addMember(ap.tp, owner.token, 'acme', { email: 'Nia@Acme.example', name: 'Nia', password: 'member-password-1' });
    const mail = await ap.smtp.waitFor((m) => m.to.includes('nia@acme.example') && m.subject.startsWith('Verify'));
    expect(mail.subject).toBe('Verify your email address for Acme Stores');
    const link = verificationLink(mail);
    expect(new URL(link).pathname).toMatch(new RegExp(`^/email/verify/${added.userId}/[0-9a-f]{40}$`));
    expect((await follow(link)).status).toBe(200);
    const nia = await login('nia@acme.example', 'member-password-1');
    expect((await ap.api('/auth/me', { token: nia.body.token, tenant: 'acme' })).body.email_verified).toBe(true);
  });

  test('an existing user joining another tenant gets no second verification mail', async () => {
    const globex = await ap.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
    expect(globex.status).toBe(201);
    const verifications = () => ap.smtp.mails.filter((m) => m.to.includes('nia@acme.example') && m.subject.startsWith('Verify'));
    const before = verifications().length;
    await addMember(ap.tp, owner.token, 'globex', { email: 'nia@acme.example', password: 'member-password-1' }, 'acme');
    // A mail would be queued before the answer; give delivery a moment to show it would have arrived.
    await new Promise((r) => setTimeout(r, 500));
    expect(verifications()).toHaveLength(before);
  });

  test('an invalid hash is the validation shape with errors.hash', async () => {
    const res = await ap.api(`/email/verify/${owner.userId}/${sha1('someone@else.example')}?tenant=${owner.tenantId}`);
    expect([res.status, res.body]).toEqual([422, { message: 'The given data was invalid.', errors: { hash: [expect.any(String)] } }]);
  });
});

describe('spec 1: Login history and Limits (failed logins)', () => {
  test('records carry exactly the spec fields; listings are {history, pagination} with per_page 25 by default', async () => {
    await login('ada@acme.example', 'wrong-password-x', '198.51.100.1');
    const res = await ap.api('/login-history', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['history', 'pagination']);
    expect(keys(res.body.pagination)).toEqual(['current_page', 'last_page', 'per_page', 'total']);
    expect(res.body.pagination).toMatchObject({ current_page: 1, per_page: 25 });
    const fields = ['browser', 'created_at', 'device_type', 'failure_reason', 'id', 'ip_address', 'is_suspicious', 'platform', 'status', 'tenant_id', 'user_agent', 'user_id'];
    for (const r of res.body.history) {
      expect(keys(r)).toEqual(fields);
      expect(['desktop', 'mobile', 'tablet', 'unknown']).toContain(r.device_type);
      expect(['success', 'failed', 'blocked', '2fa_required', '2fa_failed']).toContain(r.status);
      expect([typeof r.id, typeof r.user_id, r.tenant_id, typeof r.is_suspicious, ISO.test(r.created_at)]).toEqual(['number', 'number', owner.tenantId, 'boolean', true]);
    }
    expect(res.body.history[0]).toMatchObject({ status: 'failed', failure_reason: expect.any(String), ip_address: '198.51.100.1' });

    const suspicious = await ap.api('/login-history/suspicious?per_page=100', { token: owner.token, tenant: 'acme' });
    expect([suspicious.status, keys(suspicious.body), suspicious.body.pagination.per_page]).toEqual([200, ['history', 'pagination'], 100]);
    const tenantWide = await ap.api('/login-history/tenant', { token: owner.token, tenant: 'acme' });
    expect(tenantWide.status).toBe(200);
    for (const r of tenantWide.body.history) expect(keys(r)).toEqual([...fields, 'user'].sort());
    expect(tenantWide.body.history[0].user).toEqual({ id: owner.userId, name: 'Ada Byron', email: 'ada@acme.example' });
  });

  test('GET /login-history/stats is exactly the statistics object', async () => {
    const res = await ap.api('/login-history/stats', { token: owner.token, tenant: 'acme' });
    expect(res.status).toBe(200);
    expect(keys(res.body)).toEqual(['devices', 'failed_attempts_last_30_days', 'last_login', 'logins_last_30_days', 'suspicious_logins', 'total_logins', 'unique_ips_last_30_days']);
    for (const k of ['total_logins', 'logins_last_30_days', 'failed_attempts_last_30_days', 'suspicious_logins', 'unique_ips_last_30_days']) expect(Number.isInteger(res.body[k])).toBe(true);
    expect(res.body.failed_attempts_last_30_days).toBeGreaterThanOrEqual(1);
    expect(Object.values(res.body.devices).every((n) => Number.isInteger(n))).toBe(true);
    expect(res.body.last_login).toMatch(ISO);
  });

  test('5 failures from one address lock it: 429 {message, retry_after: 900}, whatever the account', async () => {
    const ip = '192.0.2.55';
    for (let i = 0; i < 5; i++) expect((await login(`nobody${i}@acme.example`, 'wrong-password-x', ip)).status).toBe(401);
    const locked = await login('ada@acme.example', 'brand-new-secret-9', ip);
    expect([locked.status, locked.body]).toEqual([429, { message: expect.any(String), retry_after: 900 }]);
    // The lock is on the address, not the account.
    expect((await login('ada@acme.example', 'brand-new-secret-9', '192.0.2.56')).status).toBe(200);
  });
});
